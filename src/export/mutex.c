/* The exported POSIX mutex names. Each is the fast path itself (inlined
 * from mutex/mutex.h), so an uncontended lock costs no extra call. */
#include <errno.h>

#include "internal/futex.h"
#include "mutex/mutex.h"

int st_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a, const void *caller);
int st_mutex_destroy(pthread_mutex_t *m, const void *caller);

ST_EXPORT int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a)
{
	return st_mutex_init(m, a, ST_CALLER());
}

ST_EXPORT int pthread_mutex_destroy(pthread_mutex_t *m)
{
	return st_mutex_destroy(m, ST_CALLER());
}

ST_EXPORT int pthread_mutex_lock(pthread_mutex_t *m)
{
	return st_mutex_lock(st_mutex(m), CLOCK_REALTIME, 0, ST_CALLER());
}

ST_EXPORT int pthread_mutex_trylock(pthread_mutex_t *m)
{
	return st_mutex_trylock(st_mutex(m), ST_CALLER());
}

ST_EXPORT int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abs)
{
	return st_mutex_lock(st_mutex(m), CLOCK_REALTIME, abs, ST_CALLER());
}

ST_EXPORT int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk,
				      const struct timespec *abs)
{
	if (st_clock_check(clk))
		return EINVAL;
	return st_mutex_lock(st_mutex(m), clk, abs, ST_CALLER());
}

ST_EXPORT int pthread_mutex_unlock(pthread_mutex_t *m)
{
	return st_mutex_unlock(st_mutex(m), ST_CALLER());
}
