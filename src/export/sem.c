/* The exported POSIX semaphore names. sem_* report errors in errno. The
 * named-semaphore calls (sem_open/close/unlink) stay glibc's: the storage
 * sem_open initialises has our layout (see sem/sem.h). */
#include <errno.h>
#include <pthread.h>

#include "internal/futex.h"
#include "sem/sem.h"

static inline int fail(int err)
{
	if (!err)
		return 0;
	errno = err;
	return -1;
}

ST_EXPORT int sem_init(sem_t *s, int pshared, unsigned value)
{
	return fail(st_sem_init(st_sem(s), pshared, value, ST_CALLER()));
}

ST_EXPORT int sem_destroy(sem_t *s)
{
	return fail(st_sem_destroy(st_sem(s), ST_CALLER()));
}

/* Cancellation. sem_wait and sem_timedwait are cancellation points that
 * "shall occur" even when a token is there (POSIX; Austin Group 1076):
 * like glibc 2.36 they act on a pending cancel first (sem_timedwait after
 * its EINVAL check). sem_clockwait, like glibc's, does not: it acts on one
 * only where it would sleep (the sleep enables asynchronous cancellation,
 * which acts on a pending cancel, unless the time is before the epoch: an
 * ETIMEDOUT without sleeping). sem_trywait is no cancellation point. */
ST_EXPORT int sem_wait(sem_t *s)
{
	pthread_testcancel();
	return fail(st_sem_wait(st_sem(s), CLOCK_REALTIME, 0, ST_CALLER()));
}

ST_EXPORT int sem_trywait(sem_t *s)
{
	return fail(st_sem_trywait(st_sem(s), ST_CALLER()));
}

/* glibc checks the time before trying for a token; so do we. */
ST_EXPORT int sem_timedwait(sem_t *s, const struct timespec *abs)
{
	if (st_timespec_check(abs))
		return fail(EINVAL);
	pthread_testcancel();
	return fail(st_sem_wait(st_sem(s), CLOCK_REALTIME, abs, ST_CALLER()));
}

ST_EXPORT int sem_clockwait(sem_t *s, clockid_t clk, const struct timespec *abs)
{
	if (st_clock_check(clk) || st_timespec_check(abs))
		return fail(EINVAL);
	return fail(st_sem_wait(st_sem(s), clk, abs, ST_CALLER()));
}

ST_EXPORT int sem_post(sem_t *s)
{
	return fail(st_sem_post(st_sem(s), ST_CALLER()));
}

ST_EXPORT int sem_getvalue(sem_t *restrict s, int *restrict sval)
{
	*sval = st_sem_getvalue(st_sem(s));
	return 0;
}
