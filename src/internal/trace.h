/* The trace guard, and the only way the primitives emit events:
 *
 *   st_<family>_ev_<event>(args...)
 *
 * one static inline emitter per event of tracepoints/events/<family>.def,
 * generated below from its ST_EVENT line: one tracepoint, one emitter
 * (tests/events/raw-emission.sh fails on any other emission). It fires
 * synctrace_<family>:<event> when a probe table is registered (see
 * tracepoints/st_probes.h), unless
 *  - the thread is already inside a probe (the tracer locks mutexes and
 *    waits on semaphores: on our implementation), or
 *  - the current slow path was entered from the tracer's own code
 *    (st_tls.caller lies in liblttng-ust*: lttng-ust locks our mutexes while
 *    it holds its own init lock, and an event there would deadlock).
 * With no table registered the cost is one load and a not-taken branch.
 * Arguments are evaluated before that check: a site whose arguments cost
 * (atomic loads, a clock read) tests st_tracing() first. */
#ifndef ST_TRACE_H
#define ST_TRACE_H

#include "st_probes.h"
#include "tls.h"
#include "trace/summary.h"

extern int st_trace_flags; /* 0, or when a table is in ST_META_LEVEL_CONTENTION / _FULL,
			    * ST_TRACE_SUMMARY (trace/summary.h) */
extern const struct st_probes *st_probes_in; /* the registered table */
extern int st_spin_folds; /* a spun acquisition's event stands for its spin's loop
			   * (the summary level, batched records: wait.h,
			   * st_spin_from_folded) */
extern struct st_code_range st_tracer_code[ST_MAX_TRACER_RANGES];
extern int st_tracer_code_n;

static inline int st_tracing(void)
{
	return st_unlikely(st_load_relaxed(&st_trace_flags) != 0);
}

static inline int st_tracing_full(void)
{
	return st_unlikely(st_load_relaxed(&st_trace_flags) >= ST_META_LEVEL_FULL);
}

static inline int st_from_tracer(const void *caller)
{
	uintptr_t a = (uintptr_t)caller;
	for (int i = 0; i < st_tracer_code_n; i++)
		if (a >= st_tracer_code[i].lo && a < st_tracer_code[i].hi)
			return 1;
	return 0;
}

/* Note where the current operation was called from (its slow path only):
 * an operation begins. */
static inline void st_set_caller(const void *caller)
{
	st_tls.caller = caller;
	st_tls.ops++;
}

/* The ranges never change once registered, so the callers found outside
 * them are remembered per thread, eight by their address's low bits: a
 * call site used again costs one compare instead of a walk over the
 * ranges (an executable segment each of lttng-ust's libraries, liburcu's
 * and the probes'). One was kept until session 31: a program whose
 * operations come from a few sites in turn (a job's init, lock, wait,
 * unlock and destroy) walked the ranges at most of them (callgrind,
 * bench/apps/c_jobs.c at the summary level: 67 instructions a job fewer
 * with eight). */
static inline unsigned st_clean_slot(const void *c)
{
	return (unsigned)((uintptr_t)c >> 2) & 7;
}

static inline int st_trace_enter(void)
{
	const void *c = st_tls.caller;
	if (st_tls.guard)
		return 0;
	unsigned k = st_clean_slot(c);
	if (c != st_tls.clean_caller[k]) {
		if (st_from_tracer(c))
			return 0;
		st_tls.clean_caller[k] = c;
	}
	st_tls.guard = 1;
	return 1;
}

static inline void st_trace_leave(void)
{
	st_tls.guard = 0;
}

/* The summary level (trace flags ST_TRACE_SUMMARY): an event its
 * aggregator takes goes there instead of the probe (src/trace/summary.h);
 * another is emitted, and noted (st_summary_saw: an init or destroy ends
 * an object's life; it may keep the record, below) unless it is one of the
 * summary's own (mode 2). */
#define ST_SUM_FIRST_(t, n, ...) n
#define ST_SUM_DO_1(fam, name, args)                                          \
	st_summary_defer(ST_EVI_##fam##_##name, ST_NARGS args / 2,            \
			 (const uint64_t[]){ ST_WORDS args }, ST_SUMMARY_HAS_CALLER args)
#define ST_SUM_DO_2(fam, name, args) st_load_acquire(&st_probes_in)->fam##_##name(ST_NAMES args)
#define ST_SUM_DO_3(fam, name, args) ((void)0)
#define ST_SUM_LIFE_init ~, 1
#define ST_SUM_LIFE_destroy ~, 2
/* The families whose lives a thread's table may hold several of, as their
 * summary.def family (st_summary_saw: ST_SUM_LIFE_FAMILY; a mutex's only
 * when they add up: mutex_folds). */
#define ST_SUM_FOLDS_mutex ~, 1
#define ST_SUM_FOLDS_sem ~, 3
#define ST_SUM_FOLDS_cond ~, 2
#define ST_SUM_FOLDS_rwlock ~, 4
/* An init's or destroy's fields as words (obj, caller, ...: a destroy's
 * are kept to be written later, an init's compared with the next one's). */
#define ST_SUM_LIFE_WORDS_0(args) ((const uint64_t *)0)
#define ST_SUM_LIFE_WORDS_1(args) ((const uint64_t[]){ ST_WORDS args })
#define ST_SUM_LIFE_WORDS_2(args) ST_SUM_LIFE_WORDS_1(args)
#define ST_SUM_DO_0(fam, name, args)                                                  \
	(st_summary_saw((const void *)(uintptr_t)(ST_SUM_FIRST_ args),                \
			ST_SUM_PROBE_(ST_SUM_LIFE_##name) |                            \
				ST_SUM_PROBE_(ST_SUM_FOLDS_##fam) << ST_SUM_LIFE_FAMILY,     \
			ST_NARGS args / 2,                                             \
			ST_CAT(ST_SUM_LIFE_WORDS_, ST_SUM_PROBE_(ST_SUM_LIFE_##name))(args)) \
		 ? (void)0                                                             \
		 : (void)st_load_acquire(&st_probes_in)->fam##_##name(ST_NAMES args))
#define ST_SUM_DO(fam, name, args) ST_CAT(ST_SUM_DO_, ST_SUMMARY_TAKES(fam, name))(fam, name, args)

/* The probe may re-enter the primitives (lttng-ust locks our mutexes
 * while it writes the event); their slow paths note their own caller, the
 * tracer's: put ours back so this operation's later events still count.
 * args: the event's (type, name, ...) list; before: what the probe table
 * is told first (ST_TRACE_AT's time). */
#define ST_TRACE_(before, fam, name, args)                                 \
	do {                                                               \
		if (st_tracing() && st_trace_enter()) {                    \
			const void *st_caller_ = st_tls.caller;            \
			if (st_unlikely(st_load_relaxed(&st_trace_flags) == \
					ST_TRACE_SUMMARY))                 \
				ST_SUM_DO(fam, name, args);                \
			else                                               \
				(before, st_load_acquire(&st_probes_in)->fam##_##name(ST_NAMES args)); \
			st_tls.caller = st_caller_;                        \
			st_trace_leave();                                  \
		}                                                          \
	} while (0)
#define ST_TRACE(fam, name, args) ST_TRACE_((void)0, fam, name, args)

/* The first use of an object whose life began with no init (a static
 * initializer: the first wait of such a private condvar, src/cond/wait.c)
 * begins that life for the summary level as an init would, from its call
 * site (st_summary_saw, ST_SUM_LIFE_FIRST_USE). No record at any level:
 * the contention level names such an object by its first record. family:
 * summary.def's (st_codes.h). */
static inline void st_summary_note_first_use(const void *obj, const void *caller, int family)
{
	if (st_unlikely(st_load_relaxed(&st_trace_flags) == ST_TRACE_SUMMARY) &&
	    st_trace_enter()) {
		const void *st_caller_ = st_tls.caller;
		st_summary_saw(obj, ST_SUM_LIFE_INIT | ST_SUM_LIFE_FIRST_USE | family << ST_SUM_LIFE_FAMILY,
			       2, (const uint64_t[]){ (uint64_t)(uintptr_t)obj, (uint64_t)(uintptr_t)caller });
		st_tls.caller = st_caller_;
		st_trace_leave();
	}
}

/* A record written after the moment it stands for (a signal's `signaled`,
 * written once its waiter runs: src/cond/signal.c): t is the time
 * st_trace_record_time() returned at that moment (0: now). The summary
 * level has no time to give: its aggregator takes the event as ST_TRACE
 * does. */
#define ST_TRACE_AT(t, fam, name, args) \
	ST_TRACE_(st_load_acquire(&st_probes_in)->record_at((int64_t)(t)), fam, name, args)

/* The emitters: always inlined, so a site costs what ST_TRACE costs.
 * st_<family>_ev_<event>_at(t, ...): the same, as a record of time t. */
#define ST_EVENT(fam, name, args, fields)                                  \
	static inline __attribute__((always_inline)) void                 \
	st_##fam##_ev_##name(ST_DECL args)                                 \
	{                                                                  \
		ST_TRACE(fam, name, args);                                 \
	}                                                                  \
	static inline __attribute__((always_inline)) void                 \
	st_##fam##_ev_##name##_at(int64_t t, ST_DECL args)                 \
	{                                                                  \
		ST_TRACE_AT(t, fam, name, args);                           \
	}
#include "st_all_events.h"
#undef ST_EVENT

/* The time a record written later is to have (ST_TRACE_AT): the record
 * clock's now when the calling thread's records are batched at the
 * contention or full level, else 0: emit in place (LTTng stamps a single
 * event as it is written; the summary level keeps no times). */
static inline int64_t st_trace_record_time(void)
{
	if (!st_tracing() || st_load_relaxed(&st_trace_flags) == ST_TRACE_SUMMARY ||
	    !st_trace_enter())
		return 0;
	int64_t t = st_load_acquire(&st_probes_in)->record_time();
	st_trace_leave();
	return t;
}

/* synctrace_flush (src/export/flush.c): every thread's batched records to
 * LTTng now. 0 done; -1 not tracing at the contention or full level, or
 * called from inside the tracer. */
static inline int st_trace_flush(void)
{
	if (!st_tracing() || st_load_relaxed(&st_trace_flags) == ST_TRACE_SUMMARY ||
	    !st_trace_enter())
		return -1;
	const void *caller = st_tls.caller;
	st_load_acquire(&st_probes_in)->flush();
	st_tls.caller = caller;
	st_trace_leave();
	return 0;
}

/* For full-level events on fast paths, where the caller is known inline:
 *   if (st_tracing_full_from(caller)) st_<family>_ev_<event>(...); */
#define st_tracing_full_from(caller) (st_tracing_full() && (st_set_caller(caller), 1))

#define ST_CALLER() __builtin_return_address(0)

/* Public names: everything else is hidden (-fvisibility=hidden). */
#define ST_EXPORT __attribute__((visibility("default")))

#endif
