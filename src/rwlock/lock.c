/* rdlock / wrlock and their timed and clock variants past the first CAS.
 * The state machine is in rwlock.h. */
#include <errno.h>
#include <limits.h>

#include "internal/futex.h"
#include "rwlock/rwlock.h"
#include "wait/wait.h"

struct try_ctx {
	struct st_rwlock *rw;
	int write;
};

static int try_lock(void *p)
{
	struct try_ctx *c = p;
	return c->write ? st_rwlock_try_write(c->rw) : st_rwlock_try_read(c->rw);
}

static int can_take(struct st_rwlock *rw, int write, int v)
{
	return write ? !(v & ST_RW_COUNT) : st_rwlock_read_ok(rw, v);
}

/* The last waiting writer of a writer-preferring lock gives up: readers
 * asleep behind it must look again. *+S → *, wake all. rw is valid: we
 * are still one of its waiters. */
static void writer_gives_up(struct st_rwlock *rw, int shared)
{
	if (__atomic_sub_fetch(&rw->wwait, 1, __ATOMIC_ACQ_REL) ||
	    rw->kind != PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP)
		return;
	int v = st_load_relaxed(&rw->lock);
	while (v & ST_RW_SLEEPERS)
		if (__atomic_compare_exchange_n(&rw->lock, &v, v & ~ST_RW_SLEEPERS, 1,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			st_futex_wake(&rw->lock, INT_MAX, shared, rw);
			break;
		}
}

static void acquired(struct st_rwlock *rw, int write, int how, int spins, int sleeps,
		     unsigned long long t0, const void *caller)
{
	if (write)
		st_dec(&rw->wwait); /* WRITE is ours: no longer a waiting writer */
	if (t0)
		ST_TRACE(rwlock, acquired, rw, caller, write, how,
			 write ? 0 : st_load_relaxed(&rw->lock) & ST_RW_COUNT, spins, sleeps,
			 st_now_ns() - t0);
}

int st_rwlock_lock_slow(struct st_rwlock *rw, int write, clockid_t clk,
			const struct timespec *abs, const void *caller)
{
	st_set_caller(caller);
	/* glibc's order: the time, then the deadlock, then the lock. */
	if (abs && (st_clock_check(clk) || st_timespec_check(abs)))
		return EINVAL;
	int self = st_tid(), v = st_load_relaxed(&rw->lock);
	if ((v & ST_RW_COUNT) == ST_RW_WRLOCKED && st_load_relaxed(&rw->owner) == self) {
		ST_TRACE(rwlock, misuse, rw, caller, ST_RW_MISUSE_RELOCK_WRITER, self);
		return EDEADLK;
	}
	struct try_ctx c = { rw, write };
	if (try_lock(&c)) {
		ST_TRACE_FULL(caller, rwlock, acquired, rw, caller, write, ST_RW_FAST,
			      write ? 0 : st_load_relaxed(&rw->lock) & ST_RW_COUNT, 0, 0,
			      (uint64_t)0);
		return 0;
	}
	if (!write && (st_load_relaxed(&rw->lock) & ST_RW_COUNT) == ST_RW_MAX_READERS)
		return EAGAIN;

	int shared = rw->shared != 0, spins, sleeps = 0;
	unsigned long long t0 = st_tracing() ? st_now_ns() : 0;
	v = st_load_relaxed(&rw->lock);
	ST_TRACE(rwlock, requested, rw, caller, write,
		 (v & ST_RW_COUNT) == ST_RW_WRLOCKED ? 0 : v & ST_RW_COUNT,
		 st_load_relaxed(&rw->owner), st_load_relaxed(&rw->wwait));
	/* From here to its acquisition or timeout a writer counts as waiting:
	 * on a writer-preferring lock new readers stay out. */
	if (write)
		st_inc(&rw->wwait);
	if (st_spin(rw, &rw->sleepers, try_lock, &c, &spins) == ST_SPUN_ACQUIRED) {
		acquired(rw, write, ST_RW_SPIN, spins, 0, t0, caller);
		return 0;
	}

	st_inc(&rw->sleepers);
	if (write)
		ST_TRACE(rwlock, writer_waiting, rw, caller,
			 (v = st_load_relaxed(&rw->lock) & ST_RW_COUNT) == ST_RW_WRLOCKED ? 0 : v,
			 st_load_relaxed(&rw->wwait));
	for (;;) {
		if (try_lock(&c))
			break;
		v = st_load_relaxed(&rw->lock);
		if (can_take(rw, write, v))
			continue;
		/* * → *+S on the value we sleep on. */
		if (!(v & ST_RW_SLEEPERS)) {
			if (!st_cas_acq_rel(&rw->lock, v, v | ST_RW_SLEEPERS))
				continue;
			v |= ST_RW_SLEEPERS;
		}
		/* A reader behind a writer that left meanwhile must not sleep:
		 * wwait is read after our S is in (see rwlock.h). */
		if (can_take(rw, write, v))
			continue;
		int r = st_futex_wait(&rw->lock, v, shared, clk, abs, rw);
		sleeps++;
		if (r == ETIMEDOUT) {
			/* Never acquired: rw is valid because we still wait on it. */
			if (write)
				writer_gives_up(rw, shared);
			st_dec(&rw->sleepers);
			if (t0)
				ST_TRACE(rwlock, timeout, rw, caller, write, sleeps,
					 st_now_ns() - t0);
			return ETIMEDOUT;
		}
	}
	st_dec(&rw->sleepers);
	acquired(rw, write, ST_RW_SLEEP, spins, sleeps, t0, caller);
	return 0;
}

int st_rwlock_trylock_failed(struct st_rwlock *rw, int write, const void *caller)
{
	int v = st_load_relaxed(&rw->lock), r = EBUSY;
	if (!write && (v & ST_RW_COUNT) == ST_RW_MAX_READERS)
		r = EAGAIN;
	st_set_caller(caller);
	ST_TRACE(rwlock, trylock_failed, rw, caller, write, r,
		 (v & ST_RW_COUNT) == ST_RW_WRLOCKED ? 0 : v & ST_RW_COUNT,
		 st_load_relaxed(&rw->owner));
	return r;
}
