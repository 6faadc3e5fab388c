/* sem_init / sem_destroy / sem_getvalue. */
#include <errno.h>
#include <string.h>

#include "sem/sem.h"
#include "trace/ready.h"

_Static_assert(sizeof(struct st_sem) == sizeof(sem_t), "sem_t size");
_Static_assert(_Alignof(struct st_sem) <= _Alignof(sem_t), "sem_t alignment");
_Static_assert(__builtin_offsetof(struct st_sem, value) == 0 &&
	       __builtin_offsetof(struct st_sem, nwaiters) == 4 &&
	       __builtin_offsetof(struct st_sem, private) == 8,
	       "glibc's new_sem of 64-bit targets: value, nwaiters, private");
_Static_assert(__builtin_offsetof(struct st_sem, initial) == 20 &&
	       SEM_VALUE_MAX < ST_SEM_INITIAL_KNOWN, "initial: sem_t padding, 31-bit values");
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && sizeof(void *) == 8,
	       "value is data's low half only on 64-bit little-endian targets");

int st_sem_init(struct st_sem *s, int pshared, unsigned value, const void *caller)
{
	if (value > SEM_VALUE_MAX)
		return EINVAL;
	memset(s, 0, sizeof(*s));
	s->data = value;
	s->private = pshared ? ST_SEM_SHARED : 0;
	s->initial = value | ST_SEM_INITIAL_KNOWN; /* SYNCTRACE_SEM_MAX=init (post.c) */
	st_ready_on_init(s, caller); /* lttng-ust's own (trace/ready.h) */
	st_set_caller(caller);
	st_sem_ev_init(s, caller, (int)value, pshared != 0);
	return 0;
}

/* glibc's sem_destroy does nothing and returns 0; so do we, with an event
 * that says whether sleepers were still registered (misuse). */
int st_sem_destroy(struct st_sem *s, const void *caller)
{
	uint64_t d = __atomic_load_n(&s->data, __ATOMIC_RELAXED);
	st_set_caller(caller);
	st_sem_ev_destroy(s, caller, (int)st_sem_tokens(d), (int)(d >> 32));
	return 0;
}

int st_sem_getvalue(struct st_sem *s)
{
	return (int)st_sem_tokens(__atomic_load_n(&s->data, __ATOMIC_RELAXED));
}
