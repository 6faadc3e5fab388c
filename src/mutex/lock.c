/* pthread_mutex_lock / timedlock / clocklock: everything past the first CAS.
 * The state machine is in mutex.h. */
#include <errno.h>

#include "internal/futex.h"
#include "internal/objects.h"
#include "mutex/mutex.h"
#include "wait/wait.h"

struct take {
	struct st_mutex *m;
	int self;
};

/* FREE → HELD. Test before the CAS so spinners share the line read-only.
 * st_spin probes with backoff: an owner that re-takes the lock at once is
 * mostly seen holding it, and keeps the line on its own core between
 * probes; the spinner runs out its budget and sleeps, as glibc's waiter
 * does at once. */
static int take(void *p)
{
	struct take *t = p;
	return st_load_relaxed(&t->m->lock) == 0 &&
	       st_cas_acquire(&t->m->lock, 0, t->self);
}

/* Called with the lock held: the counters are ours. span (lock_slow's):
 * span[1] gets when the traced wait that began at t0 ended. */
static void acquired_slow(struct st_mutex *m, const void *caller, int how, int spins,
			  int sleeps, unsigned long long t0, unsigned long long *span)
{
	uint64_t n = ++m->acquisitions;
	uint32_t c = ++m->contended;
	st_mutex_stamp(m);
	if (t0) {
		/* The tracer's own mutexes are never traced: not at exit either. */
		if (!st_from_tracer(caller))
			st_object_note(m, ST_FAMILY_MUTEX);
		unsigned long long t1 = st_waited_end(how == ST_MUTEX_HOW_SPIN, t0);
		st_mutex_ev_acquired_at(st_rec_at(t1), m, caller, how, spins, sleeps, t1 - t0,
					n, c);
		if (span)
			span[1] = t1;
	}
}

/* The re-lock checks every type makes before waiting: 1 if *ret is final. */
static int owner_relock(struct st_mutex *m, int type, int self, int *ret,
			const void *caller)
{
	int owner = st_load_relaxed(&m->lock) & ST_MUTEX_TID_MASK;
	if (owner != self)
		return 0;
	switch (type) {
	case PTHREAD_MUTEX_RECURSIVE:
		/* Only the owner writes count: no race. */
		if (m->count == ~0u) {
			*ret = EAGAIN;
			return 1;
		}
		m->count++;
		m->acquisitions++;
		*ret = 0;
		return 1;
	case PTHREAD_MUTEX_ERRORCHECK:
		*ret = EDEADLK;
		return 1;
	default:
		/* Normal/adaptive: POSIX says deadlock, and glibc does. Say so in
		 * the trace before the hang, then wait like glibc (a timed lock
		 * times out). */
		st_mutex_ev_misuse(m, caller, ST_MUTEX_MISUSE_RELOCK_OWNER, owner);
		return 0;
	}
}

/* The sleep loop, for a thread already counted in m->waiters (the lock
 * slow path, or a condvar waiter requeued onto the word). Returns 0 holding
 * the lock, or ETIMEDOUT; either way the count is dropped. */
int st_mutex_sleep(struct st_mutex *m, int self, clockid_t clk,
		   const struct timespec *abs, int *sleeps)
{
	int shared = m->kind & ST_MUTEX_PSHARED, r = 0;

	for (;;) {
		int v = st_load_relaxed(&m->lock);
		if (v == 0) {
			/* FREE → CONTENDED: others in this loop may be asleep,
			 * relying on the bit (mutex.h: why not only when they are). */
			if (st_cas_acquire(&m->lock, 0, self | ST_MUTEX_SLEEPERS))
				break;
			continue;
		}
		/* HELD → CONTENDED, so the owner's swap sees a sleeper. */
		if (!(v & ST_MUTEX_SLEEPERS)) {
			if (!st_cas_acquire(&m->lock, v, v | ST_MUTEX_SLEEPERS))
				continue;
			v |= ST_MUTEX_SLEEPERS;
		}
		r = st_futex_wait(&m->lock, v, shared, clk, abs, m);
		++*sleeps;
		if (r == ETIMEDOUT)
			break;
		r = 0;
	}
	st_dec(&m->waiters);
	return r;
}

/* misses: NULL for the default spin, else its adaptive hint (wait.h);
 * span: NULL, or where a traced wait's start and end go (a condvar's
 * relock: st_mutex_cond_relock, mutex.h). */
static int lock_slow(struct st_mutex *m, clockid_t clk, const struct timespec *abs,
		     const void *caller, volatile int *misses, unsigned long long *span)
{
	int kind = m->kind, ret;

	if (st_unlikely(kind & ST_MUTEX_FORWARDED) && kind != ST_MUTEX_DESTROYED)
		return st_mutex_forward_lock((pthread_mutex_t *)m, clk, abs, 1, caller);
	st_set_caller(caller);
	if (st_unlikely(!st_mutex_ours(kind))) {
		st_mutex_ev_misuse(m, caller, ST_MUTEX_MISUSE_USE_DESTROYED, 0);
		return EINVAL;
	}

	int type = kind & ST_MUTEX_TYPE_MASK;
	struct take t = { m, st_tid() };

	if (type != PTHREAD_MUTEX_NORMAL && type != PTHREAD_MUTEX_ADAPTIVE_NP &&
	    owner_relock(m, type, t.self, &ret, caller))
		return ret;
	if (st_cas_acquire(&m->lock, 0, t.self)) {
		m->acquisitions++;
		st_mutex_stamp(m);
		return 0;
	}
	if (type == PTHREAD_MUTEX_NORMAL || type == PTHREAD_MUTEX_ADAPTIVE_NP)
		owner_relock(m, type, t.self, &ret, caller);
	/* glibc checks the time only once it knows it must wait. */
	if ((ret = st_timespec_check(abs)))
		return ret;

	int spins, sleeps = 0;
	st_mutex_ev_requested(m, caller, st_load_relaxed(&m->lock) & ST_MUTEX_TID_MASK,
		 st_load_relaxed(&m->waiters));
	unsigned long long t0 = st_tracing() ? st_now_ns() : 0;
	if (span)
		span[0] = t0;

	/* A relock after a condvar wait spins on its own hint (misses);
	 * otherwise every mutex spins unless SYNCTRACE_SPIN_MUTEXES=adaptive
	 * (config.h: why), on the thread's streak and not gated by the crowd
	 * hint (wait.h, st_spin_lock: why). */
	st_spin_from_folded(t0);
	int out = misses ? st_spin_adaptive(m, &m->waiters, take, &t, misses, st_spin_limit,
					    ST_RELOCK_MISSES, &spins)
			 : st_spin_lock(m, &m->waiters, take, &t,
					type == PTHREAD_MUTEX_ADAPTIVE_NP || st_spin_all_mutexes
						? st_spin_limit
						: 0,
					&spins, 0);
	if (out == ST_SPIN_OUTCOME_ACQUIRED) {
		acquired_slow(m, caller, ST_MUTEX_HOW_SPIN, spins, 0, t0, span);
		return 0;
	}

	st_inc(&m->waiters);
	if (st_mutex_sleep(m, t.self, clk, abs, &sleeps) == ETIMEDOUT) {
		/* We never held the lock: m is valid because we were still one
		 * of its waiters (destroying it now is the caller's bug). */
		if (t0)
			st_mutex_ev_timeout(m, caller, sleeps, st_now_ns() - t0);
		return ETIMEDOUT;
	}
	acquired_slow(m, caller, ST_MUTEX_HOW_SLEEP, spins, sleeps, t0, span);
	return 0;
}

int st_mutex_lock_slow(struct st_mutex *m, clockid_t clk,
		       const struct timespec *abs, const void *caller)
{
	return lock_slow(m, clk, abs, caller, 0, 0);
}

/* The re-acquisition after a condvar wait. Its owner is typically the
 * signaler, about to unlock: spinning catches that when it runs on the
 * other CPU, and runs out every time when it does not (a loaded machine:
 * doc/mutex.md). So the spin adapts, per thread (the mutex has no room for
 * a hint, and the condvar may not be touched once released), as hand-off
 * waits do per object. */
int st_mutex_lock_relock(struct st_mutex *m, const void *caller, unsigned long long *span)
{
	return lock_slow(m, CLOCK_REALTIME, 0, caller, &st_tls.relock_misses, span);
}
