/* pthread_rwlock_init / destroy. */
#include <string.h>

#include "rwlock/rwlock.h"

_Static_assert(sizeof(struct st_rwlock) == sizeof(pthread_rwlock_t), "rwlock size");
_Static_assert(_Alignof(struct st_rwlock) <= _Alignof(pthread_rwlock_t), "rwlock alignment");
_Static_assert(__builtin_offsetof(struct st_rwlock, kind) ==
	       __builtin_offsetof(pthread_rwlock_t, __data.__flags),
	       "the kind must live where glibc's static initialisers put it");
_Static_assert(__builtin_offsetof(struct st_rwlock, owner) ==
	       __builtin_offsetof(pthread_rwlock_t, __data.__cur_writer) &&
	       __builtin_offsetof(struct st_rwlock, shared) ==
	       __builtin_offsetof(pthread_rwlock_t, __data.__shared),
	       "owner and shared where glibc keeps them");

int st_rwlock_init(struct st_rwlock *rw, const pthread_rwlockattr_t *a, const void *caller)
{
	int kind = PTHREAD_RWLOCK_PREFER_READER_NP, pshared = PTHREAD_PROCESS_PRIVATE;
	if (a) {
		/* glibc's getters: the attribute object stays glibc's. */
		pthread_rwlockattr_getkind_np(a, &kind);
		pthread_rwlockattr_getpshared(a, &pshared);
	}
	memset(rw, 0, sizeof(*rw));
	rw->kind = kind;
	rw->shared = pshared == PTHREAD_PROCESS_SHARED ? ST_RW_SHARED : 0;
	st_set_caller(caller);
	st_rwlock_ev_init(rw, caller, kind, pshared == PTHREAD_PROCESS_SHARED);
	return 0;
}

/* glibc's destroy checks nothing and returns 0; ours says in the trace
 * when the lock was still held or waited on. */
int st_rwlock_destroy(struct st_rwlock *rw, const void *caller)
{
	int v = st_load_relaxed(&rw->lock);
	st_set_caller(caller);
	/* Waiters: writers from their request on, others while they sleep. */
	if ((v & ST_RW_COUNT) || st_load_relaxed(&rw->sleepers) || st_load_relaxed(&rw->wwait))
		st_rwlock_ev_misuse(rw, caller, ST_RWLOCK_MISUSE_DESTROY_HELD,
				    st_load_relaxed(&rw->owner));
	st_rwlock_ev_destroy(rw, caller);
	return 0;
}
