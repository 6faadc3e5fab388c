/* The exported POSIX read-write lock names: fast paths from rwlock.h. */
#include <errno.h>

#include "internal/futex.h"
#include "rwlock/rwlock.h"

ST_EXPORT int pthread_rwlock_init(pthread_rwlock_t *rw, const pthread_rwlockattr_t *a)
{
	return st_rwlock_init(st_rwlock(rw), a, ST_CALLER());
}

ST_EXPORT int pthread_rwlock_destroy(pthread_rwlock_t *rw)
{
	return st_rwlock_destroy(st_rwlock(rw), ST_CALLER());
}

ST_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t *rw)
{
	return st_rwlock_lock(st_rwlock(rw), 0, CLOCK_REALTIME, 0, ST_CALLER());
}

ST_EXPORT int pthread_rwlock_tryrdlock(pthread_rwlock_t *rw)
{
	return st_rwlock_trylock(st_rwlock(rw), 0, ST_CALLER());
}

ST_EXPORT int pthread_rwlock_timedrdlock(pthread_rwlock_t *rw, const struct timespec *abs)
{
	return st_rwlock_lock(st_rwlock(rw), 0, CLOCK_REALTIME, abs, ST_CALLER());
}

ST_EXPORT int pthread_rwlock_clockrdlock(pthread_rwlock_t *rw, clockid_t clk,
					 const struct timespec *abs)
{
	if (st_clock_check(clk))
		return EINVAL;
	return st_rwlock_lock(st_rwlock(rw), 0, clk, abs, ST_CALLER());
}

ST_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t *rw)
{
	return st_rwlock_lock(st_rwlock(rw), 1, CLOCK_REALTIME, 0, ST_CALLER());
}

ST_EXPORT int pthread_rwlock_trywrlock(pthread_rwlock_t *rw)
{
	return st_rwlock_trylock(st_rwlock(rw), 1, ST_CALLER());
}

ST_EXPORT int pthread_rwlock_timedwrlock(pthread_rwlock_t *rw, const struct timespec *abs)
{
	return st_rwlock_lock(st_rwlock(rw), 1, CLOCK_REALTIME, abs, ST_CALLER());
}

ST_EXPORT int pthread_rwlock_clockwrlock(pthread_rwlock_t *rw, clockid_t clk,
					 const struct timespec *abs)
{
	if (st_clock_check(clk))
		return EINVAL;
	return st_rwlock_lock(st_rwlock(rw), 1, clk, abs, ST_CALLER());
}

ST_EXPORT int pthread_rwlock_unlock(pthread_rwlock_t *rw)
{
	return st_rwlock_unlock(st_rwlock(rw), ST_CALLER());
}
