/* C11 cnd_*: the condition-variable family (src/cond). See c11/c11.h. */
#include <stdint.h>

#include "c11/c11.h"
#include "cond/cond.h"

ST_EXPORT int cnd_init(cnd_t *c)
{
	return st_c11_result(st_cond_init((pthread_cond_t *)c, 0, ST_CALLER()));
}

ST_EXPORT void cnd_destroy(cnd_t *c)
{
	st_cond_destroy((pthread_cond_t *)c, ST_CALLER());
}

ST_EXPORT int cnd_signal(cnd_t *c)
{
	return st_c11_result(st_cond_signal(st_cond((pthread_cond_t *)c), 1, ST_CALLER()));
}

ST_EXPORT int cnd_broadcast(cnd_t *c)
{
	return st_c11_result(st_cond_signal(st_cond((pthread_cond_t *)c), INT32_MAX,
					    ST_CALLER()));
}

ST_EXPORT int cnd_wait(cnd_t *c, mtx_t *m)
{
	struct st_cond *cv = st_cond((pthread_cond_t *)c);
	return st_c11_result(st_cond_wait(cv, (pthread_mutex_t *)m, st_cond_clock(cv), 0,
					  ST_CALLER()));
}

ST_EXPORT int cnd_timedwait(cnd_t *restrict c, mtx_t *restrict m,
			    const struct timespec *restrict abs)
{
	struct st_cond *cv = st_cond((pthread_cond_t *)c);
	return st_c11_result(st_cond_wait(cv, (pthread_mutex_t *)m, st_cond_clock(cv), abs,
					  ST_CALLER()));
}
