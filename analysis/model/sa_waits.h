/* The wait ledger: every kind of waiting, every primitive, in one
 * vocabulary (the "where do my threads wait" views read this, not the
 * families' own structs).
 *
 * A wait is counted once, when it ends (acquired / woke / departed /
 * timed out), with the duration the runtime measured (the event's
 * wait_ns): per object and kind (sa_object_wait), per thread
 * (sa_thread_waits), and per (thread, object, kind) (sa_model_each_pair).
 * A timed-out, cancelled or interrupted wait counts as a wait and as a
 * timeout. Blame (mutexes, rwlocks) and wakers (condvars, semaphores) are
 * kept per object in at most SA_BLAME_MAX entries each. */
#ifndef SA_WAITS_H
#define SA_WAITS_H

#include <stdint.h>

#include "sa_dist.h"

struct sa_model;
struct sa_object;
struct sa_thread;

enum sa_wait_kind {          /* what a thread waited for */
	SA_WAIT_MUTEX,         /* pthread_mutex_lock / mtx_lock (the mutex object) */
	SA_WAIT_COND_RELOCK,   /* re-acquiring the mutex after a condvar wait (the MUTEX object) */
	SA_WAIT_RWLOCK_READ,   /* pthread_rwlock_rdlock (the rwlock) */
	SA_WAIT_RWLOCK_WRITE,  /* pthread_rwlock_wrlock (the rwlock) */
	SA_WAIT_COND,          /* the condvar wait itself (the condvar object), until signaled/timed out */
	SA_WAIT_SEM,           /* sem_wait and friends (the semaphore) */
	SA_WAIT_BARRIER,       /* pthread_barrier_wait, a waiter that was not the last (the barrier) */
	SA_WAIT_ONCE,          /* pthread_once / call_once finding the routine running */
	SA_WAIT_SPINLOCK,      /* pthread_spin_lock that found the lock held */
	SA_WAIT_NKINDS
};
const char *sa_wait_kind_name(enum sa_wait_kind k); /* "mutex", "cond-relock", "rwlock-read",
                                   "rwlock-write", "cond", "sem", "barrier", "once", "spinlock" */
struct sa_wait_stat {
	uint64_t waits, wait_ns, max_ns, timeouts;  /* timeouts: timed out / cancelled / EINTR */
	uint64_t contended;                          /* waits that had to spin or sleep */
	struct sa_dist dist;                         /* wait_ns distribution (empty for pairs) */
};
/* The object's ledger for kind k, NULL when k does not apply to its type. */
const struct sa_wait_stat *sa_object_wait(const struct sa_object *o, enum sa_wait_kind k);
/* Per thread: totals over every kind, and per kind; life = last_ts - first_ts. */
struct sa_thread_waits { uint64_t waits, wait_ns, timeouts, kind_ns[SA_WAIT_NKINDS]; };
const struct sa_thread_waits *sa_thread_waits(const struct sa_thread *t);
/* Its waiting over its life, in [0, 1]; -1 when it has no life (one event). */
double sa_thread_wait_share(const struct sa_thread *t);
/* (thread, object, kind) pairs: iterate every pair with its stat (its dist
 * is empty: a distribution per pair would cost more than the rest). An
 * object folded into its class (sa_model.h) has its pairs moved there. */
void sa_model_each_pair(const struct sa_model *m,
	void (*fn)(void *ctx, uint32_t thread, uint32_t obj, enum sa_wait_kind k,
		   const struct sa_wait_stat *s), void *ctx);
/* Blame, mutexes and rwlocks: who held it while others waited. At most SA_BLAME_MAX
 * holders per object (the largest caused_ns kept). caused_ns: the waiting time
 * that overlapped this holder's holds, summed over waiters (3 waiters x 1 ms = 3 ms);
 * a hold is charged to the site of the release that ended it (or, when the
 * release was not traced, the holder's acquire site, 0 if unknown). */
#define SA_BLAME_MAX 8
struct sa_blame { uint32_t thread; uint64_t site;   /* release (or acquire) call site */
	uint64_t holds, caused_ns, hold_ns, max_hold_ns; /* hold_*: full level only, else 0 */ };
unsigned sa_object_blame(const struct sa_model *m, uint32_t obj, const struct sa_blame **out);
/* Wakers, condvars and semaphores: who signalled/posted, from where, how long after the
 * waiter began waiting. A thread (and call site: 0 at the summary level)
 * that released waiters of an object: wakes, its calls; released, the
 * waiters they released; timed, those of them whose latency (a waiter's
 * wait to its wake) is summed in latency_ns (not a shared condvar's, nor
 * any at the summary level). */
struct sa_waker { uint32_t thread; uint64_t site; uint64_t wakes, released, latency_ns, timed; };
unsigned sa_object_wakers(const struct sa_model *m, uint32_t obj, const struct sa_waker **out);

#endif
