/* The summary level's aggregator (SYNCTRACE_LEVEL=summary).
 *
 * At the summary level no event is emitted per transition. The generated
 * emitters (src/internal/trace.h) hand the events this header lists as
 * TAKEN to the aggregator instead of the probe:
 *
 *   st_summary_defer(ST_EVI_<family>_<event>, its fields as batched words)
 *
 * which queues them in the calling thread's table; they are aggregated
 * later, in order, where the thread waits anyway (below: between the
 * looks of its spin, st_summary_step), into what the
 * analyzer would have derived from them: per object, counts, sums, maxima
 * and histograms in the fixed buckets of tracepoints/st_hist.h. So a
 * hand-off's path pays a copy of the fields, not the aggregation: the
 * waiter woken by a signal relocks and returns, and aggregates its wake
 * once it waits again, its mutex released (bench/README.md, "Aggregated
 * where the thread waits"). Nothing else is shared: no lock, no atomic
 * read-modify-write, no allocation on the primitive's path (the table is
 * mapped once per thread, on its first aggregate, and reused by a later
 * thread once its owner exits). The table goes out as
 * synctrace_summary:object events (tracepoints/events/summary.def) when its
 * oldest aggregate is a second old (checked on the thread's own path, when
 * its queue is aggregated), when it is full, at thread exit and at process
 * exit; a forked child drops what it inherited (its parent reports it).
 * Every other event (announcements: init, destroy, misuse, counters, names,
 * meta) is emitted as at the contention level, and st_summary_saw() notes
 * it for the per-thread state the analyzer keeps across events
 * (wake-then-block), after aggregating what the thread queued.
 *
 * For other layers (the contention level's SYNCTRACE_THRESHOLD: waits below
 * it are aggregated, not recorded): call st_summary_take, from the thread
 * that waited, inside the trace guard (st_trace_enter / st_trace_leave, as
 * the emitters do), for every TAKEN event of the wait that is not emitted;
 * emit the others. A trace may mix both: the analyzer adds summaries to
 * what the events give. st_summary_flush() pushes the calling thread's
 * table out (e.g. before a thread stops tracing).
 *
 * ST_SUMMARY_TAKES(fam, name): 1 if that event has an aggregator, 2 for
 * the summary's own events, 3 for one taken with nothing to aggregate (a
 * cond:signaled: the `signal` that follows it on the same thread says
 * what it would, the condvar and the caller), else 0 (a preprocessor
 * constant, for macro selection). */
#ifndef ST_SUMMARY_H
#define ST_SUMMARY_H

#include <stdint.h>

/* st_trace_flags at the summary level: tracing (non-zero), not full. */
#define ST_TRACE_SUMMARY (-1)

/* The taken events. */
#define ST_SUM_TAKES_mutex_requested ~, 1
#define ST_SUM_TAKES_mutex_acquired ~, 1
#define ST_SUM_TAKES_mutex_released ~, 1
#define ST_SUM_TAKES_mutex_trylock_failed ~, 1
#define ST_SUM_TAKES_mutex_timeout ~, 1
#define ST_SUM_TAKES_futex_wait ~, 1
#define ST_SUM_TAKES_futex_wake ~, 1
#define ST_SUM_TAKES_futex_requeue ~, 1
#define ST_SUM_TAKES_spin_loop ~, 1
#define ST_SUM_TAKES_cond_enqueued ~, 1
#define ST_SUM_TAKES_cond_signaled ~, 3
#define ST_SUM_TAKES_cond_leaving ~, 1
#define ST_SUM_TAKES_cond_met_leaving ~, 1
#define ST_SUM_TAKES_cond_ref_wait_begin ~, 1
#define ST_SUM_TAKES_cond_ref_wait_end ~, 1
#define ST_SUM_TAKES_cond_handoff ~, 1
#define ST_SUM_TAKES_cond_woke ~, 1
#define ST_SUM_TAKES_cond_relocked ~, 1
#define ST_SUM_TAKES_cond_signal ~, 1
#define ST_SUM_TAKES_sem_post ~, 1
#define ST_SUM_TAKES_sem_wait_begin ~, 1
#define ST_SUM_TAKES_sem_sleep ~, 1
#define ST_SUM_TAKES_sem_acquired ~, 1
#define ST_SUM_TAKES_sem_timeout ~, 1
#define ST_SUM_TAKES_sem_trywait_failed ~, 1
#define ST_SUM_TAKES_rwlock_requested ~, 1
#define ST_SUM_TAKES_rwlock_acquired ~, 1
#define ST_SUM_TAKES_rwlock_released ~, 1
#define ST_SUM_TAKES_rwlock_writer_waiting ~, 1
#define ST_SUM_TAKES_rwlock_readers_drained ~, 1
#define ST_SUM_TAKES_rwlock_timeout ~, 1
#define ST_SUM_TAKES_rwlock_trylock_failed ~, 1
#define ST_SUM_TAKES_barrier_arrival ~, 1
#define ST_SUM_TAKES_barrier_released ~, 1
#define ST_SUM_TAKES_barrier_departure ~, 1
#define ST_SUM_TAKES_once_run ~, 1
#define ST_SUM_TAKES_once_finished ~, 1
#define ST_SUM_TAKES_once_wait ~, 1
#define ST_SUM_TAKES_once_waited ~, 1
#define ST_SUM_TAKES_spinlock_contended ~, 1
/* Emitted, not noted: the summary's own events. */
#define ST_SUM_TAKES_summary_object ~, 2
#define ST_SUM_TAKES_summary_flushed ~, 2

#define ST_SUM_SECOND_(a, b, ...) b
#define ST_SUM_PROBE_(...) ST_SUM_SECOND_(__VA_ARGS__, 0, ~)
#define ST_SUMMARY_TAKES(fam, name) ST_SUM_PROBE_(ST_SUM_TAKES_##fam##_##name)

/* ST_SUMMARY_HAS_CALLER(t1, n1, ...): 1 if an event's fields (its
 * emitter's (type, name, ...) list) include one named caller. */
#define ST_SUM_ISC_caller ~, 1
#define ST_SUM_ISC_(n) ST_SUM_PROBE_(ST_SUM_ISC_##n)
#define ST_SUMMARY_HAS_CALLER(...) (ST_CAT(ST_SUM_HASC_, ST_NARGS(__VA_ARGS__))(__VA_ARGS__))
#define ST_SUM_HASC_2(t, n) ST_SUM_ISC_(n)
#define ST_SUM_HASC_4(t, n, ...) ST_SUM_ISC_(n) | ST_SUM_HASC_2(__VA_ARGS__)
#define ST_SUM_HASC_6(t, n, ...) ST_SUM_ISC_(n) | ST_SUM_HASC_4(__VA_ARGS__)
#define ST_SUM_HASC_8(t, n, ...) ST_SUM_ISC_(n) | ST_SUM_HASC_6(__VA_ARGS__)
#define ST_SUM_HASC_10(t, n, ...) ST_SUM_ISC_(n) | ST_SUM_HASC_8(__VA_ARGS__)
#define ST_SUM_HASC_12(t, n, ...) ST_SUM_ISC_(n) | ST_SUM_HASC_10(__VA_ARGS__)
#define ST_SUM_HASC_14(t, n, ...) ST_SUM_ISC_(n) | ST_SUM_HASC_12(__VA_ARGS__)
#define ST_SUM_HASC_16(t, n, ...) ST_SUM_ISC_(n) | ST_SUM_HASC_14(__VA_ARGS__)
#define ST_SUM_HASC_18(t, n, ...) ST_SUM_ISC_(n) | ST_SUM_HASC_16(__VA_ARGS__)
#define ST_SUM_HASC_20(t, n, ...) ST_SUM_ISC_(n) | ST_SUM_HASC_18(__VA_ARGS__)

/* A taken event evi, its n fields as batched words (st_probes.h's
 * st_word), from the thread it happened on, inside the trace guard:
 * queued in the thread's table, aggregated in order when the thread next
 * waits for another (after a cond:enqueued, sem:wait_begin, sem:sleep,
 * barrier:arrival or written spin:loop: an item at a time between the
 * spin's looks, st_summary_step, or all at once if the queue is more than
 * half full), when the queue is full, and before anything else reads or
 * emits the table. caller: its fields name
 * one (ST_SUMMARY_HAS_CALLER); its time is then read if it may be the
 * first its object's entry keeps (the analyzer's call site is the first
 * one in time). */
void st_summary_defer(unsigned evi, unsigned n, const uint64_t *w, int caller);
/* Event evi (its fields a[], whole) aggregated now, after what the thread
 * queued; with a NULL, only says whether evi is taken. 1: it is. */
int st_summary_take(unsigned evi, const uint64_t *a);
/* One item of the calling thread's queue aggregated, from a spin that
 * waits (src/wait/wait.h), where st_tls.sum_pending says the queue was
 * left to the waits at a point where it would have been drained: 1 if
 * more are queued, 0 when none are (pending then cleared) or they cannot
 * be aggregated here (inside a probe, or already aggregating). */
int st_summary_step(void);

/* An event emitted at the summary level (not taken), about `first` (its
 * first argument: the object, for the families' events); life: 0, or
 * ST_SUM_LIFE_INIT or _DESTROY for an init or destroy, | the object's
 * summary.def family << ST_SUM_LIFE_FAMILY for a semaphore's, condvar's,
 * rwlock's or mutex's (the families that fold; a mutex's life only when
 * its aggregate holds no counter maximum and it had no contended
 * acquisition, its acquisitions then summed: LIFE b 3); w: an init's or
 * destroy's n fields as words (obj, caller, ...), else NULL. 1: the event is not to be written
 * (its record is folded too, below); 0: write it.
 * Before an init or destroy the thread's aggregate of the object goes out
 * (so it counts for the object's life it belongs to), but for a life the
 * thread initialised itself and destroys, of a family that folds: its
 * aggregate stays, marked as holding that life (summary.def, tag LIFE),
 * and takes the next life the thread initialises there from the same
 * site; anything else that touches it (another site, an event of a life
 * the thread did not see begin) sends it out first. So a thread that
 * makes and frees objects by the thousand (CPython makes a semaphore per
 * condition wait) emits an aggregate a second per place, not per life.
 * The records go the same way (format minor 14): such a destroy is kept
 * back, process-wide (a "grave": the object's address, the thread, its
 * init site and fields, the destroy's fields); the same thread's next init
 * there, from the same site with the same fields, writes neither record
 * (the analyzer sees one life go on, and counts the lives the thread's
 * table says were left out, by site: tag LIFE, b 2); any other init or
 * destroy there, by any thread, writes the kept destroy first, and so do
 * the thread's age (once a second), its exit and the process's. */
#define ST_SUM_LIFE_INIT 1
#define ST_SUM_LIFE_DESTROY 2
/* With _INIT: no init, the object's first use, by a life that began with
 * a static initializer (st_summary_note_first_use; w: obj and the use's
 * caller, the life's site). It begins the life as an init does, with no
 * record; the first life of a run has no record of its start, so its
 * aggregate goes out (plain) at its destroy, which names the object at
 * the address for the analyzer as an init record does; the lives after
 * it fold as an init's do. */
#define ST_SUM_LIFE_FIRST_USE 4
#define ST_SUM_LIFE_FAMILY 3
int st_summary_saw(const void *first, int life, unsigned n, const uint64_t *w);

/* Emit the calling thread's table now (reason: enum st_summary_reason);
 * inside the trace guard. */
void st_summary_flush(int reason);
/* The calling thread exits: emit its table and give the table back. */
void st_summary_thread_exit(void);
/* The process stops tracing: emit every thread's table (those of threads
 * still running are read as they are: their operations in flight at that
 * moment may be missed). */
void st_summary_flush_all(void);

#endif
