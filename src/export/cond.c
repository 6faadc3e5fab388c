/* The exported POSIX condition-variable names. Unversioned: the dynamic
 * linker binds programs' pthread_cond_*@GLIBC_2.3.2 references to them.
 * Attributes stay glibc's (read with its getters in cond/init.c). */
#include <errno.h>
#include <stdint.h>

#include "cond/cond.h"

ST_EXPORT int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a)
{
	return st_cond_init(c, a, ST_CALLER());
}

ST_EXPORT int pthread_cond_destroy(pthread_cond_t *c)
{
	return st_cond_destroy(c, ST_CALLER());
}

ST_EXPORT int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	return st_cond_wait(st_cond(c), m, st_cond_clock(st_cond(c)), 0, ST_CALLER());
}

ST_EXPORT int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
				     const struct timespec *abs)
{
	return st_cond_wait(st_cond(c), m, st_cond_clock(st_cond(c)), abs, ST_CALLER());
}

ST_EXPORT int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk,
				     const struct timespec *abs)
{
	/* glibc checks the clock first, then the time. */
	if (st_clock_check(clk))
		return EINVAL;
	return st_cond_wait(st_cond(c), m, clk, abs, ST_CALLER());
}

ST_EXPORT int pthread_cond_signal(pthread_cond_t *c)
{
	return st_cond_signal(st_cond(c), 1, ST_CALLER());
}

ST_EXPORT int pthread_cond_broadcast(pthread_cond_t *c)
{
	return st_cond_signal(st_cond(c), INT32_MAX, ST_CALLER());
}
