/* What the condvar needs from the mutex (src/cond/): the ownership check for
 * EPERM, and the re-acquisition after a wait, including the requeue
 * hand-off of the condvar's barrier chain (see the MUTEX HAND-OFF part of
 * src/cond/cond.h). The fast paths in mutex.h are untouched. */
#include <errno.h>

#include "internal/futex.h"
#include "mutex/mutex.h"
#include "wait/wait.h"

int st_mutex_cond_check(pthread_mutex_t *pm)
{
	struct st_mutex *m = st_mutex(pm);
	int kind = m->kind, self = st_tid();

	if (st_mutex_ours(kind)) {
		int type = kind & ST_MUTEX_TYPE_MASK;
		if (type != PTHREAD_MUTEX_ERRORCHECK && type != PTHREAD_MUTEX_RECURSIVE)
			return 0; /* glibc does not check normal mutexes either */
		return (st_load_relaxed(&m->lock) & ST_MUTEX_TID_MASK) == self ? 0 : EPERM;
	}
	if (kind == ST_MUTEX_DESTROYED)
		return 0; /* the unlock answers EINVAL... glibc waits anyway */
	/* glibc's robust/PI/PP object: its unlock checks the owner for
	 * error-checking, recursive and robust types. */
	int type = kind & ST_MUTEX_TYPE_MASK;
	if ((kind & 16) || type == PTHREAD_MUTEX_ERRORCHECK || type == PTHREAD_MUTEX_RECURSIVE)
		return (pm->__data.__owner & ST_MUTEX_TID_MASK) == self ? 0 : EPERM;
	return 0;
}

int st_mutex_cond_requeueable(pthread_mutex_t *pm)
{
	int kind = st_mutex(pm)->kind;
	return st_mutex_ours(kind) && !(kind & ST_MUTEX_PSHARED);
}

int st_mutex_cond_held(pthread_mutex_t *pm)
{
	struct st_mutex *m = st_mutex(pm);
	return st_mutex_cond_requeueable(pm) &&
	       (st_load_relaxed(&m->lock) & ST_MUTEX_TID_MASK) == st_tid();
}

int st_mutex_cond_handoff(pthread_mutex_t *pm)
{
	struct st_mutex *m = st_mutex(pm);
	if (!st_mutex_cond_requeueable(pm))
		return 0;
	/* We hold m: the word is our tid, others may only add SLEEPERS.
	 * Count the requeued thread first, so that whoever the next unlock
	 * wakes sets SLEEPERS again when it takes the lock. */
	st_inc(&m->waiters);
	for (;;) {
		int v = st_load_relaxed(&m->lock);
		if ((v & ST_MUTEX_SLEEPERS) || st_cas_acq_rel(&m->lock, v, v | ST_MUTEX_SLEEPERS))
			break;
	}
	return 1;
}

struct take {
	struct st_mutex *m;
	int self;
};

/* FREE → HELD (or CONTENDED if others are counted besides us). */
static int take_counted(void *p)
{
	struct take *t = p;
	if (st_load_relaxed(&t->m->lock) != 0)
		return 0;
	int mine = t->self;
	if (st_load_relaxed(&t->m->waiters) > 1)
		mine |= ST_MUTEX_SLEEPERS;
	return st_cas_acquire(&t->m->lock, 0, mine);
}

/* The mutex sleep loop (lock.c) for a thread already counted in waiters.
 * It spins first (the releaser is about to unlock, typically) without the
 * bail-out on waiters: we are one of them; adaptive per thread, as
 * st_mutex_lock_relock (lock.c). t0: the traced wait's start, which the
 * spin takes for its own. */
static void relock_counted(struct st_mutex *m, int *sleeps, unsigned long long t0)
{
	int spins;
	struct take t = { m, st_tid() };
	st_spin_from(t0);
	int out = st_spin_for(m, 0, take_counted, &t,
			      st_spin_adaptive_budget(&st_tls.relock_misses, st_spin_limit,
						      ST_RELOCK_MISSES),
			      &spins);
	st_spin_adaptive_done(&st_tls.relock_misses, out, ST_RELOCK_MISSES);
	if (out == ST_SPIN_OUTCOME_ACQUIRED) {
		st_dec(&m->waiters);
		return;
	}
	st_mutex_sleep(m, t.self, CLOCK_REALTIME, 0, sleeps);
}

int st_mutex_cond_relock(pthread_mutex_t *pm, int counted, const void *caller,
			 int *contended, unsigned long long *span)
{
	struct st_mutex *m = st_mutex(pm);
	int kind = m->kind;

	if (counted) {
		/* Its start is its spin's too; its end is read by the caller,
		 * after the counters below, as before session 22: stamped at
		 * its spin's end, a requeued waiter's relocked could come
		 * before the record of the unlock that let it in (written
		 * after that unlock's wake call), an order no reader of the
		 * wake ledger was checked against; the benchmarks' relocks
		 * rarely come here, so the read saved would not show. */
		unsigned long long t0 = span ? st_now_ns() : 0;
		int sleeps = 0;
		relock_counted(m, &sleeps, t0);
		if (span)
			span[0] = t0;
		/* Held: the counters are ours. */
		++m->acquisitions;
		st_mutex_stamp(m);
		if (sleeps)
			++m->contended;
		*contended = sleeps > 0;
		return 0;
	}
	if (st_mutex_ours(kind) && st_cas_acquire(&m->lock, 0, st_tid())) {
		++m->acquisitions;
		st_mutex_stamp(m);
		*contended = 0;
		return 0;
	}
	*contended = 1;
	/* glibc's own objects are forwarded before lock_slow reads a time. */
	if (span && st_unlikely(kind & ST_MUTEX_FORWARDED))
		span[0] = st_now_ns();
	return st_mutex_lock_relock(m, caller, span); /* forwards glibc's own objects too */
}
