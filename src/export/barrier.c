/* The exported POSIX barrier names. */
#include "barrier/barrier.h"

ST_EXPORT int pthread_barrier_init(pthread_barrier_t *restrict b,
				   const pthread_barrierattr_t *restrict a, unsigned count)
{
	return st_barrier_init(st_barrier(b), a, count, ST_CALLER());
}

ST_EXPORT int pthread_barrier_wait(pthread_barrier_t *b)
{
	return st_barrier_wait(st_barrier(b), ST_CALLER());
}

ST_EXPORT int pthread_barrier_destroy(pthread_barrier_t *b)
{
	return st_barrier_destroy(st_barrier(b), ST_CALLER());
}
