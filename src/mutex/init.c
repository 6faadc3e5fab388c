/* pthread_mutex_init / destroy, and the exit-time counters. */
#include <errno.h>
#include <string.h>

#include "internal/objects.h"
#include "mutex/mutex.h"

_Static_assert(sizeof(struct st_mutex) == sizeof(pthread_mutex_t), "mutex size");
_Static_assert(__builtin_offsetof(struct st_mutex, kind) ==
	       __builtin_offsetof(pthread_mutex_t, __data.__kind),
	       "the type must live where glibc's static initialisers put it");
_Static_assert(_Alignof(struct st_mutex) <= _Alignof(pthread_mutex_t), "mutex alignment");

int st_mutex_init(pthread_mutex_t *pm, const pthread_mutexattr_t *a, const void *caller)
{
	int type = PTHREAD_MUTEX_NORMAL, pshared = PTHREAD_PROCESS_PRIVATE;
	int robust = PTHREAD_MUTEX_STALLED, proto = PTHREAD_PRIO_NONE;

	if (a) {
		/* glibc's own getters: the attribute object stays glibc's. */
		pthread_mutexattr_gettype(a, &type);
		pthread_mutexattr_getpshared(a, &pshared);
		pthread_mutexattr_getrobust(a, &robust);
		pthread_mutexattr_getprotocol(a, &proto);
	}
	if (robust == PTHREAD_MUTEX_ROBUST || proto != PTHREAD_PRIO_NONE) {
		int r = st_mutex_forward_init(pm, a);
		st_set_caller(caller);
		st_mutex_ev_init(pm, caller, r ? -1 : pm->__data.__kind);
		return r;
	}
	struct st_mutex *m = st_mutex(pm);
	memset(m, 0, sizeof(*m));
	m->kind = (type & ST_MUTEX_TYPE_MASK) |
		  (pshared == PTHREAD_PROCESS_SHARED ? ST_MUTEX_PSHARED : 0);
	st_set_caller(caller);
	st_mutex_ev_init(m, caller, m->kind);
	return 0;
}

int st_mutex_destroy(pthread_mutex_t *pm, const void *caller)
{
	struct st_mutex *m = st_mutex(pm);
	int kind = m->kind;

	if ((kind & ST_MUTEX_FORWARDED) && kind != ST_MUTEX_DESTROYED)
		return st_mutex_forward_destroy(pm);
	st_set_caller(caller);
	int owner = st_load_relaxed(&m->lock) & ST_MUTEX_TID_MASK;
	if (owner) {
		/* glibc answers EBUSY for a held mutex; the object is untouched. */
		st_mutex_ev_misuse(m, caller, ST_MUTEX_MISUSE_DESTROY_LOCKED, owner);
		/* The holder writes the counters: not read here (0 = not read). */
		st_mutex_ev_destroy(m, caller, EBUSY, 0, 0);
		return EBUSY;
	}
	st_mutex_ev_destroy(m, caller, 0, m->acquisitions, m->contended);
	/* Later use answers EINVAL, as glibc's does. */
	m->kind = ST_MUTEX_DESTROYED;
	return 0;
}

int st_mutex_flush(const void *obj)
{
	const struct st_mutex *m = obj;
	if (m->kind & ST_MUTEX_FORWARDED) /* destroyed (-1) or glibc's */
		return 0;
	st_mutex_ev_counters(m, m->acquisitions, m->contended);
	return 1;
}
