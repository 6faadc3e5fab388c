/* pthread_rwlock_unlock. The state machine is in rwlock.h. */
#include <errno.h>
#include <limits.h>

#include "internal/futex.h"
#include "rwlock/rwlock.h"

int st_rwlock_unlock(struct st_rwlock *rw, const void *caller)
{
	/* Read before the release: afterwards rw may be destroyed and freed. */
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
			ST_TRACE(rwlock, released, rw, caller, 1, 0, sleepers, woken);
		}
		return 0;
	}
	int n;
	do {
		if (!(v & ST_RW_COUNT)) {
			st_set_caller(caller);
			ST_TRACE(rwlock, misuse, rw, caller, ST_RW_MISUSE_UNLOCK_UNLOCKED, 0);
			return EPERM;
		}
		/* READ(1) → FREE clears S (the wake below stands for it);
		 * READ(n) → READ(n-1) keeps it. Release: our reads happen
		 * before the next writer's writes. */
		n = (v & ST_RW_COUNT) == 1 ? 0 : v - 1;
	} while (!__atomic_compare_exchange_n(&rw->lock, &v, n, 1, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
	if (!n && (v & ST_RW_SLEEPERS)) {
		st_set_caller(caller);
		woken = st_futex_wake(&rw->lock, INT_MAX, shared, rw);
		ST_TRACE(rwlock, readers_drained, rw, caller, sleepers, woken);
	}
	if (woken >= 0 || st_tracing_full()) {
		st_set_caller(caller);
		ST_TRACE(rwlock, released, rw, caller, 0, n & ST_RW_COUNT, sleepers, woken);
	}
	return 0;
}
