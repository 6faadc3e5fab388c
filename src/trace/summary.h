/* The summary level's aggregator (SYNCTRACE_LEVEL=summary).
 *
 * At the summary level no event is emitted per transition. The generated
 * emitters (src/internal/trace.h) hand the events this header lists as
 * TAKEN to their aggregator instead of the probe:
 *
 *   st_summary_<family>_<event>(same arguments as st_<family>_ev_<event>)
 *
 * which adds what the analyzer would have derived from the event into the
 * calling thread's table: per object, counts, sums, maxima and histograms
 * in the fixed buckets of tracepoints/st_hist.h. Nothing else is shared:
 * no lock, no atomic read-modify-write, no allocation on the primitive's
 * path (the table is mapped once per thread, on its first aggregate, and
 * reused by a later thread once its owner exits). The table goes out as
 * synctrace_summary:object events (tracepoints/events/summary.def) when its
 * oldest aggregate is a second old (checked on the thread's own path), when
 * it is full, at thread exit and at process exit; a forked child drops what
 * it inherited (its parent reports it). Every other event (announcements:
 * init, destroy, misuse, counters, names, meta) is emitted as at the
 * contention level, and st_summary_saw() notes it for the per-thread state
 * the analyzer keeps across events (wake-then-block).
 *
 * For other layers (the contention level's SYNCTRACE_THRESHOLD: waits below
 * it are aggregated, not recorded): call the same aggregators, from the
 * thread that waited, inside the trace guard (st_trace_enter /
 * st_trace_leave, as the emitters do), for every TAKEN event of the wait
 * that is not emitted; emit the others. A trace may mix both: the analyzer
 * adds summaries to what the events give. st_summary_flush() pushes the
 * calling thread's table out (e.g. before a thread stops tracing).
 *
 * ST_SUMMARY_TAKES(fam, name): 1 if that event has an aggregator, 2 for
 * the summary's own events, else 0 (a preprocessor constant, for macro
 * selection). */
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
#define ST_SUM_TAKES_cond_signaled ~, 1
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

/* The aggregators: one per taken event, its emitter's arguments. */
void st_summary_mutex_requested(const void *obj, const void *caller, int owner, int waiters);
void st_summary_mutex_acquired(const void *obj, const void *caller, int how, int spins,
			       int sleeps, uint64_t wait_ns, uint64_t acquisitions,
			       uint32_t contended);
void st_summary_mutex_released(const void *obj, const void *caller, int waiters, int woken,
			       uint64_t acquisitions, uint64_t acq_ts, int acq_how);
void st_summary_mutex_trylock_failed(const void *obj, const void *caller, int result,
				     int owner);
void st_summary_mutex_timeout(const void *obj, const void *caller, int sleeps,
			      uint64_t wait_ns);
void st_summary_futex_wait(const void *obj, const void *uaddr, int expected, int result,
			   uint64_t slept_ns);
void st_summary_futex_wake(const void *obj, const void *uaddr, int requested, int woken);
void st_summary_futex_requeue(const void *obj, const void *uaddr, const void *uaddr2,
			      int nwake, int nmove, int result);
void st_summary_spin_loop(const void *obj, int iterations, int outcome, int mode,
			  uint64_t spin_ns);

void st_summary_cond_enqueued(const void *cond, const void *caller, const void *mutex,
			      const void *node, int clock, int timed, int64_t abs_sec,
			      int64_t abs_nsec, int queued, uint64_t mutex_acq);
void st_summary_cond_signaled(const void *cond, const void *caller, const void *node, int order);
void st_summary_cond_leaving(const void *cond, const void *node, int reason);
void st_summary_cond_met_leaving(const void *cond, const void *caller, const void *node,
				 int refs);
void st_summary_cond_ref_wait_begin(const void *cond, const void *caller, int refs);
void st_summary_cond_ref_wait_end(const void *cond, const void *caller, int refs,
				  uint64_t waited_ns);
void st_summary_cond_handoff(const void *cond, const void *from, const void *to, int how,
			     int result);
void st_summary_cond_woke(const void *cond, const void *node, int how, int spurious,
			  uint64_t wait_ns, int spins, uint64_t spin_ns);
void st_summary_cond_relocked(const void *cond, const void *mutex, const void *node,
			      int contended, int result, uint64_t relock_ns, uint64_t mutex_acq);
void st_summary_cond_signal(const void *cond, const void *caller, int broadcast, int moved,
			    int leaving, const void *first, int first_how);
void st_summary_sem_post(const void *obj, const void *caller, int result, int value,
			 int nwaiters, int woken);
void st_summary_sem_wait_begin(const void *obj, const void *caller, int value, int nwaiters);
void st_summary_sem_sleep(const void *obj, const void *caller, int nwaiters);
void st_summary_sem_acquired(const void *obj, const void *caller, int how, int spins,
			     int sleeps, uint64_t wait_ns);
void st_summary_sem_timeout(const void *obj, const void *caller, int result, int sleeps,
			    uint64_t wait_ns);
void st_summary_sem_trywait_failed(const void *obj, const void *caller, int nwaiters);
void st_summary_rwlock_requested(const void *obj, const void *caller, int write, int readers,
				 int writer, int writers_waiting);
void st_summary_rwlock_acquired(const void *obj, const void *caller, int write, int how,
				int readers, int spins, int sleeps, uint64_t wait_ns);
void st_summary_rwlock_released(const void *obj, const void *caller, int write, int readers_left,
				int sleepers, int woken);
void st_summary_rwlock_writer_waiting(const void *obj, const void *caller, int readers,
				      int writers_waiting);
void st_summary_rwlock_readers_drained(const void *obj, const void *caller, int sleepers,
				       int woken);
void st_summary_rwlock_timeout(const void *obj, const void *caller, int write, int sleeps,
			       uint64_t wait_ns);
void st_summary_rwlock_trylock_failed(const void *obj, const void *caller, int write,
				      int result, int readers, int writer);
void st_summary_barrier_arrival(const void *obj, const void *caller, int round, int arrived,
				int count);
void st_summary_barrier_released(const void *obj, const void *caller, int round, int count,
				 int woken);
void st_summary_barrier_departure(const void *obj, const void *caller, int round,
				  uint64_t wait_ns, int spins);
void st_summary_once_run(const void *obj, const void *caller, const void *routine);
void st_summary_once_finished(const void *obj, const void *caller, int cancelled, int woken,
			      uint64_t run_ns);
void st_summary_once_wait(const void *obj, const void *caller);
void st_summary_once_waited(const void *obj, const void *caller, uint64_t wait_ns);
void st_summary_spinlock_contended(const void *obj, const void *caller, int iterations,
				   uint64_t spin_ns);

/* An event emitted at the summary level (not taken), about `first` (its
 * first argument: the object, for the families' events); life: 1 for an
 * init or destroy, before which the thread's aggregate of the object goes
 * out (so it counts for the object's life it belongs to). */
void st_summary_saw(const void *first, int life);

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
