/* pthread_rwlock_unlock. The state machine is in rwlock.h. */
#include <errno.h>
#include <limits.h>

#include "internal/futex.h"
#include "rwlock/rwlock.h"

static int unlocked(struct st_rwlock *rw, const void *caller)
{
	st_set_caller(caller);
	st_rwlock_ev_misuse(rw, caller, ST_RWLOCK_MISUSE_UNLOCK_UNLOCKED, 0);
	return EPERM;
}

int st_rwlock_unlock(struct st_rwlock *rw, const void *caller)
{
	/* Read before the release: afterwards rw may be destroyed and freed.
	 * `sleepers` is for the trace only (the wake is S's business). */
	int shared = rw->shared != 0, v = st_load_relaxed(&rw->lock), woken = -1;
	int sleepers = st_load_relaxed(&rw->sleepers);

	if ((v & ST_RW_COUNT) == ST_RW_WRLOCKED) {
		/* WRITE → FREE. Only the owner writes `owner`. */
		st_store_relaxed(&rw->owner, 0);
		int old = st_swap_release(&rw->lock, 0);
		if (old & ST_RW_SLEEPERS) {
			st_set_caller(caller);
			woken = st_futex_wake(&rw->lock, INT_MAX, shared, rw);
		}
		if (woken >= 0 || st_tracing_full()) {
			st_set_caller(caller);
			st_rwlock_ev_released(rw, caller, 1, 0, sleepers, woken);
		}
		return 0;
	}
	if (!(v & ST_RW_COUNT))
		return unlocked(rw, caller);
	int n;
	if ((v & ST_RW_COUNT) > 1 || !(v & ST_RW_SLEEPERS)) {
		/* READ(n) → READ(n-1), or READ(1) → FREE without S: an RMW
		 * that cannot fail, so readers coming and going do not retry
		 * on each other. We hold one of the n: no writer is in and
		 * the count stays ≥ 1 until this. If the others left, or S
		 * came, meanwhile, it is READ(1)+S → FREE+S: the wake below
		 * stands for it and S stays until a writer's release or an
		 * acquisition from the sleep loop. Release: our reads happen
		 * before the next writer's writes. */
		v = __atomic_fetch_sub(&rw->lock, 1, __ATOMIC_RELEASE);
		n = v - 1;
	} else {
		/* READ(1)+S → FREE clears S (the wake below stands for it);
		 * READ(n) → READ(n-1) keeps it, if readers came meanwhile. */
		do {
			if (!(v & ST_RW_COUNT))
				return unlocked(rw, caller);
			n = (v & ST_RW_COUNT) == 1 ? 0 : v - 1;
		} while (!__atomic_compare_exchange_n(&rw->lock, &v, n, 1, __ATOMIC_RELEASE,
						      __ATOMIC_RELAXED));
	}
	/* rw may be gone: its address only. */
	if (!(n & ST_RW_COUNT) && (v & ST_RW_SLEEPERS)) {
		st_set_caller(caller);
		woken = st_futex_wake(&rw->lock, INT_MAX, shared, rw);
		st_rwlock_ev_readers_drained(rw, caller, sleepers, woken);
	}
	if (woken >= 0 || st_tracing_full()) {
		st_set_caller(caller);
		st_rwlock_ev_released(rw, caller, 0, n & ST_RW_COUNT, sleepers, woken);
	}
	return 0;
}
