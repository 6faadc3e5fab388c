/* The contract between libsynctrace.so and libsynctrace-tp.so.
 *
 * Every event is defined once, in tracepoints/events/<family>.def, as
 *   ST_EVENT(family, name, (type, arg, type, arg, ...), (lttng fields))
 * From those lines this header builds `struct st_probes`, one function
 * pointer per event. libsynctrace-tp.so (which links liblttng-ust) fills one
 * with functions that fire the LTTng tracepoints and hands it to
 * libsynctrace.so; until then the primitives see no table and emit nothing,
 * at the cost of one load and a branch on their slow paths. libsynctrace.so
 * itself never links or maps liblttng-ust. */
#ifndef ST_PROBES_H
#define ST_PROBES_H

#include <stdint.h>

#include "st_codes.h"

/* Trace format: bump major when a field changes meaning or disappears,
 * minor when a reader of the old format still reads the new one. */
#define ST_FORMAT_MAJOR 2
#define ST_FORMAT_MINOR 18 /* 1: meta:start has nonce and repeat; 2: code
			   * fields are enumerations (same values); 3: the
			   * summary level (synctrace_summary, level 0);
			   * 4: meta:config has threshold_ns; 5: cond
			   * enqueued and relocked carry mutex_acq; 6: the
			   * summary level aggregates barriers, once and
			   * spinlocks (summary families 5-7); 7: the
			   * loaded objects as meta:module; 8: summary
			   * counts COND_FUTILE, COND_NOBODY, COND_WENT_ON;
			   * 9: a threshold aggregates the short waits of
			   * semaphores, rwlocks, barriers and condvars too;
			   * 10: batched recordings are format 4 (spins
			   * folded into acquisitions, st_batch.h);
			   * 11: cond relocked.relock_ns is 0 for a relock
			   * that took the mutex at its first attempt;
			   * 12: meta:clock, the durations' clock;
			   * 13: a summary holds whole lives (tag LIFE);
			   * 14: ... and says how many of them have no
			   * init and destroy records (LIFE b 2);
			   * 15: ... and for a mutex's, their
			   * acquisitions (LIFE b 3); 16: thread:exit
			   * and meta:stop carry the thread's cpu_ns and
			   * runq_ns, thread:times for those alive;
			   * 17: summary:object names its owner (tid);
			   * 18: meta:base, the times the threads
			   * alive at the announcement had used */

/* (t1, n1, t2, n2, ...) → "t1 n1, t2 n2, ..." and "n1, n2, ...". */
#define ST_NARGS(...) ST_NARGS_(__VA_ARGS__, 20, 19, 18, 17, 16, 15, 14, 13, \
	12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define ST_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, \
	_14, _15, _16, _17, _18, _19, _20, N, ...) N
#define ST_CAT(a, b) ST_CAT_(a, b)
#define ST_CAT_(a, b) a##b
#define ST_DECL(...) ST_CAT(ST_DECL_, ST_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define ST_NAMES(...) ST_CAT(ST_NAMES_, ST_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define ST_DECL_2(t, n) t n
#define ST_DECL_4(t, n, ...) t n, ST_DECL_2(__VA_ARGS__)
#define ST_DECL_6(t, n, ...) t n, ST_DECL_4(__VA_ARGS__)
#define ST_DECL_8(t, n, ...) t n, ST_DECL_6(__VA_ARGS__)
#define ST_DECL_10(t, n, ...) t n, ST_DECL_8(__VA_ARGS__)
#define ST_DECL_12(t, n, ...) t n, ST_DECL_10(__VA_ARGS__)
#define ST_DECL_14(t, n, ...) t n, ST_DECL_12(__VA_ARGS__)
#define ST_DECL_16(t, n, ...) t n, ST_DECL_14(__VA_ARGS__)
#define ST_DECL_18(t, n, ...) t n, ST_DECL_16(__VA_ARGS__)
#define ST_DECL_20(t, n, ...) t n, ST_DECL_18(__VA_ARGS__)
#define ST_NAMES_2(t, n) n
#define ST_NAMES_4(t, n, ...) n, ST_NAMES_2(__VA_ARGS__)
#define ST_NAMES_6(t, n, ...) n, ST_NAMES_4(__VA_ARGS__)
#define ST_NAMES_8(t, n, ...) n, ST_NAMES_6(__VA_ARGS__)
#define ST_NAMES_10(t, n, ...) n, ST_NAMES_8(__VA_ARGS__)
#define ST_NAMES_12(t, n, ...) n, ST_NAMES_10(__VA_ARGS__)
#define ST_NAMES_14(t, n, ...) n, ST_NAMES_12(__VA_ARGS__)
#define ST_NAMES_16(t, n, ...) n, ST_NAMES_14(__VA_ARGS__)
#define ST_NAMES_18(t, n, ...) n, ST_NAMES_16(__VA_ARGS__)
#define ST_NAMES_20(t, n, ...) n, ST_NAMES_18(__VA_ARGS__)

/* (t1, n1, ...) → "st_word(n1), ...": the fields as batched words
 * (tracepoints/events/batch.def): a pointer as its address, an integer
 * sign- or zero-extended as its type says. */
#define ST_WORDS(...) ST_CAT(ST_WORDS_, ST_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define st_word(x) __builtin_choose_expr(__builtin_classify_type(x) == 5, \
	(uint64_t)(uintptr_t)(x), (uint64_t)(int64_t)(x))
#define ST_WORDS_2(t, n) st_word(n)
#define ST_WORDS_4(t, n, ...) st_word(n), ST_WORDS_2(__VA_ARGS__)
#define ST_WORDS_6(t, n, ...) st_word(n), ST_WORDS_4(__VA_ARGS__)
#define ST_WORDS_8(t, n, ...) st_word(n), ST_WORDS_6(__VA_ARGS__)
#define ST_WORDS_10(t, n, ...) st_word(n), ST_WORDS_8(__VA_ARGS__)
#define ST_WORDS_12(t, n, ...) st_word(n), ST_WORDS_10(__VA_ARGS__)
#define ST_WORDS_14(t, n, ...) st_word(n), ST_WORDS_12(__VA_ARGS__)
#define ST_WORDS_16(t, n, ...) st_word(n), ST_WORDS_14(__VA_ARGS__)
#define ST_WORDS_18(t, n, ...) st_word(n), ST_WORDS_16(__VA_ARGS__)
#define ST_WORDS_20(t, n, ...) st_word(n), ST_WORDS_18(__VA_ARGS__)

struct st_probes {
#define ST_EVENT(fam, name, args, fields) void (*fam##_##name)(ST_DECL args);
#include "st_all_events.h"
#undef ST_EVENT
	/* A record stamped by its caller, written later (src/internal/trace.h,
	 * st_<family>_ev_<event>_at): record_time is the record clock's now
	 * when this thread's records are batched, so that a record written
	 * later still gets the time read now; 0 when LTTng stamps each event
	 * as it is written (no batching: the caller then emits in place).
	 * record_at(t): the thread's next batched record (the event fired
	 * next, after what a wrapper of its entry emits singly: stacks.c,
	 * shared.c) gets time t. */
	int64_t (*record_time)(void);
	void (*record_at)(int64_t t);
	/* synctrace_flush (include/synctrace/flush.h): every thread's batched
	 * records go to LTTng now. */
	void (*flush)(void);
	/* 1: events go to per-thread batches (format ST_BATCH_FORMAT_MAJOR,
	 * tracepoints/st_batch.h), whose readers take a spin that acquired a
	 * semaphore, mutex or rwlock from its acquired event: the runtime
	 * then writes no loop event for it (src/wait/wait.h,
	 * st_spin_from_folded). */
	int batched;
};

/* Every event, numbered as in st_probes (the two libraries' tables; not
 * a trace value: the trace names a batched record's event by its hash,
 * tracepoints/st_batch.h). */
enum st_evi {
#define ST_EVENT(fam, name, args, fields) ST_EVI_##fam##_##name,
#include "st_all_events.h"
#undef ST_EVENT
	ST_EVI_N
};

/* Exported by libsynctrace.so for SYNCTRACE_THRESHOLD: hand event evi
 * (its fields as batched words) to the summary level's aggregator
 * (src/trace/summary.h), from the thread it happened on, inside the trace
 * guard. Returns 1 if that event has an aggregator (with args NULL: only
 * says so), else 0. */
int synctrace_summarize(unsigned evi, const uint64_t *args);

/* Address ranges of the tracer's own code: calls whose caller lies inside
 * them are never traced (lttng-ust locks our mutexes, sometimes while it
 * holds its own init lock). */
struct st_code_range {
	uintptr_t lo, hi;
};
#define ST_MAX_TRACER_RANGES 16

/* Exported by libsynctrace.so, called once by libsynctrace-tp.so's
 * constructor. Returns 0, or -1 if the table's size does not match (two
 * builds mixed). */
int synctrace_register_probes(const struct st_probes *probes, unsigned size,
			      const struct st_code_range *ranges, int nranges);
/* Called by libsynctrace-tp.so's destructor: emit counters, stop tracing. */
void synctrace_unregister_probes(void);

/* The wait for lttng-ust's registration at a process's first event
 * (SYNCTRACE_REGISTER_WAIT; src/trace/ready.h). state: 0 no such wait, 1
 * awaited, 2 registered. wait: returns once registered (1), or after the
 * limit or with nothing to wait for (0). rearm: in a forked child that
 * registers anew (lttng-ust's fork helper), before the helper re-runs
 * lttng-ust's constructor; 1 if the child's first event is to wait. */
int synctrace_ready_state(void);
int synctrace_ready_wait(void);
int synctrace_ready_rearm(void); /* 1: watching */
/* The durations' counter scale (src/internal/clock.c), for the record
 * clock (tracepoints/batch.h): ns per count in 32.32, 0 not measured yet,
 * -1 not used (or no longer); *per_cpu 1 where two CPUs' counts must
 * never be compared (the kernel distrusts the counter). */
int64_t synctrace_clock_scale_cpu(int *per_cpu);
/* The durations' clock for meta:clock (src/internal/clock.h): 1 and
 * source, why (meta_clock, meta_clock_why codes) and the counter's rate
 * once settled, or with final whatever the state; else 0. */
int synctrace_clock_info(int *source, int *why, uint64_t *hz, int final);
/* For meta:base: fn(tid, cpu_ns, runq_ns) for the calling thread, then
 * for every other thread alive, with the CPU time and run-queue time (-1
 * unknown) each has used so far (src/thread/times.c). errno is kept. */
void synctrace_threads_base(void (*fn)(int tid, uint64_t cpu_ns, int64_t runq_ns));

#endif
