/* C11 mtx_*: the mutex family (src/mutex). See c11/c11.h. */
#include "c11/c11.h"
#include "internal/futex.h"
#include "mutex/mutex.h"

ST_EXPORT int mtx_init(mtx_t *m, int type)
{
	pthread_mutexattr_t a;
	/* glibc's mapping: recursive or normal; mtx_timed (and, as in
	 * glibc, any other value) changes nothing. */
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, (type & mtx_recursive) ? PTHREAD_MUTEX_RECURSIVE
							     : PTHREAD_MUTEX_NORMAL);
	int r = st_mutex_init((pthread_mutex_t *)m, &a, ST_CALLER());
	pthread_mutexattr_destroy(&a);
	return st_c11_result(r);
}

ST_EXPORT void mtx_destroy(mtx_t *m)
{
	st_mutex_destroy((pthread_mutex_t *)m, ST_CALLER());
}

ST_EXPORT int mtx_lock(mtx_t *m)
{
	return st_c11_result(st_mutex_lock(st_mutex((pthread_mutex_t *)m), CLOCK_REALTIME, 0,
					   ST_CALLER()));
}

/* C11's time base is TIME_UTC: CLOCK_REALTIME. */
ST_EXPORT int mtx_timedlock(mtx_t *restrict m, const struct timespec *restrict abs)
{
	return st_c11_result(st_mutex_lock(st_mutex((pthread_mutex_t *)m), CLOCK_REALTIME,
					   abs, ST_CALLER()));
}

ST_EXPORT int mtx_trylock(mtx_t *m)
{
	return st_c11_result(st_mutex_trylock(st_mutex((pthread_mutex_t *)m), ST_CALLER()));
}

ST_EXPORT int mtx_unlock(mtx_t *m)
{
	return st_c11_result(st_mutex_unlock(st_mutex((pthread_mutex_t *)m), ST_CALLER()));
}
