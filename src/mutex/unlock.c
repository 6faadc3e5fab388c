/* pthread_mutex_unlock past the fast path. The state machine is in mutex.h. */
#include <errno.h>

#include "internal/futex.h"
#include "mutex/mutex.h"

/* Release for every type we implement. old: -1 when the caller has not
 * released yet; else the fast path's swap result. */
int st_mutex_unlock_slow(struct st_mutex *m, int old, const void *caller)
{
	int self = st_tid();

	if (old == -1) {
		int kind = m->kind;
		if (st_unlikely(kind & ST_MUTEX_FORWARDED) && kind != ST_MUTEX_DESTROYED)
			return st_mutex_forward_unlock((pthread_mutex_t *)m, caller);
		st_set_caller(caller);
		if (st_unlikely(!st_mutex_ours(kind))) {
			st_mutex_ev_misuse(m, caller, ST_MUTEX_MISUSE_USE_DESTROYED, 0);
			return EINVAL;
		}
		int type = kind & ST_MUTEX_TYPE_MASK;
		int owner = st_load_relaxed(&m->lock) & ST_MUTEX_TID_MASK;
		if (type == PTHREAD_MUTEX_RECURSIVE || type == PTHREAD_MUTEX_ERRORCHECK) {
			if (owner != self) {
				st_mutex_ev_misuse(m, caller,
					 owner ? ST_MUTEX_MISUSE_UNLOCK_NOT_OWNER : ST_MUTEX_MISUSE_UNLOCK_UNLOCKED,
					 owner);
				return EPERM;
			}
			if (m->count) { /* recursive, still ours: no release */
				m->count--;
				return 0;
			}
		}
		/* Everything the release event reports is read before the swap. */
		uint64_t n = m->acquisitions;
		uint64_t acq = st_tracing_full() ? st_mutex_acq_ns(m) : 0;
		int how = st_tracing_full() ? (int)m->acq_how : -1;
		int waiters = st_load_relaxed(&m->waiters);
		old = st_swap_release(&m->lock, 0);
		ST_FAULT_POINT(mutex_between_unlock_and_wake);
		/* From here on m may be freed by its next owner: only its
		 * address is used below. */
		int woken = -1;
		if (old & ST_MUTEX_SLEEPERS)
			woken = st_futex_wake(&m->lock, 1, kind & ST_MUTEX_PSHARED, m);
		if ((old & ST_MUTEX_TID_MASK) != self)
			st_mutex_ev_misuse(m, caller,
				 old ? ST_MUTEX_MISUSE_UNLOCK_NOT_OWNER : ST_MUTEX_MISUSE_UNLOCK_UNLOCKED,
				 old & ST_MUTEX_TID_MASK);
		if (woken >= 0 || st_tracing_full())
			st_mutex_ev_released(m, caller, waiters, woken, n, acq, how);
		return 0;
	}

	/* The fast path (normal, private) already swapped: m may be gone. */
	ST_FAULT_POINT(mutex_between_unlock_and_wake);
	st_set_caller(caller);
	int woken = -1;
	if (old & ST_MUTEX_SLEEPERS)
		woken = st_futex_wake(&m->lock, 1, 0, m);
	if ((old & ST_MUTEX_TID_MASK) != self)
		st_mutex_ev_misuse(m, caller,
			 old ? ST_MUTEX_MISUSE_UNLOCK_NOT_OWNER : ST_MUTEX_MISUSE_UNLOCK_UNLOCKED,
			 old & ST_MUTEX_TID_MASK);
	if (woken >= 0)
		st_mutex_ev_released(m, caller, -1, woken, (uint64_t)0, (uint64_t)0, -1);
	return 0;
}
