#include <errno.h>

#include "mutex/mutex.h"

int st_mutex_trylock_slow(struct st_mutex *m, const void *caller)
{
	int kind = m->kind;

	if (st_unlikely(kind & ST_MUTEX_FORWARDED) && kind != ST_MUTEX_DESTROYED)
		return st_mutex_forward_trylock((pthread_mutex_t *)m, caller);
	st_set_caller(caller);
	if (st_unlikely(!st_mutex_ours(kind))) {
		st_mutex_ev_misuse(m, caller, ST_MUTEX_MISUSE_USE_DESTROYED, 0);
		return EINVAL;
	}
	int self = st_tid(), ret = EBUSY;
	int owner = st_load_relaxed(&m->lock) & ST_MUTEX_TID_MASK;

	if (owner == self && (kind & ST_MUTEX_TYPE_MASK) == PTHREAD_MUTEX_RECURSIVE) {
		if (m->count == ~0u) {
			ret = EAGAIN;
		} else {
			m->count++;
			m->acquisitions++;
			return 0;
		}
	} else if (st_cas_acquire(&m->lock, 0, self)) {
		m->acquisitions++;
		st_mutex_stamp_how(m, ST_MUTEX_HOW_TRYLOCK);
		return 0;
	}
	st_mutex_ev_trylock_failed(m, caller, ret, owner);
	return ret;
}
