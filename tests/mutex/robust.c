/* Robust and priority-inheritance mutexes are glibc's own (forwarded):
 * the owner dying gives EOWNERDEAD, consistent() repairs it. */
#include <pthread.h>

#include "check.h"

static pthread_mutex_t m;

static void *die_holding(void *arg)
{
	(void)arg;
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	return 0; /* exits with the lock held */
}

int main(void)
{
	pthread_mutexattr_t a;
	pthread_t t;

	CHECK_EQ(pthread_mutexattr_init(&a), 0);
	CHECK_EQ(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST), 0);
	CHECK_EQ(pthread_mutex_init(&m, &a), 0);
	CHECK_EQ(pthread_create(&t, 0, die_holding, 0), 0);
	CHECK_EQ(pthread_join(t, 0), 0);
	CHECK_EQ(pthread_mutex_lock(&m), EOWNERDEAD);
	CHECK_EQ(pthread_mutex_consistent(&m), 0);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	CHECK_EQ(pthread_mutex_trylock(&m), EBUSY);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	CHECK_EQ(pthread_mutex_destroy(&m), 0);

	CHECK_EQ(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_STALLED), 0);
	CHECK_EQ(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT), 0);
	CHECK_EQ(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK), 0);
	CHECK_EQ(pthread_mutex_init(&m, &a), 0);
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	CHECK_EQ(pthread_mutex_lock(&m), EDEADLK);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	CHECK_EQ(pthread_mutex_unlock(&m), EPERM);
	CHECK_EQ(pthread_mutex_destroy(&m), 0);
	/* A normal mutex is not robust: consistent() says EINVAL, as glibc. */
	CHECK_EQ(pthread_mutex_init(&m, 0), 0);
	CHECK_EQ(pthread_mutex_consistent(&m), EINVAL);
	puts("robust/PI forwarded: ok");
	return 0;
}
