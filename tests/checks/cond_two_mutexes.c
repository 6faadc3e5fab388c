/* cond_two_mutexes: main waits on a condvar with m2 while a thread waits on
 * it with m1. */
#include <pthread.h>
#include <time.h>

#include "check.h"

static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int ready, done;

static void *waiter(void *arg)
{
	(void)arg;
	CHECK_EQ(pthread_mutex_lock(&m1), 0);
	ready = 1;
	while (!done)
		CHECK_EQ(pthread_cond_wait(&c, &m1), 0);
	CHECK_EQ(pthread_mutex_unlock(&m1), 0);
	return NULL;
}

int main(void)
{
	pthread_t t;
	struct timespec d = { 0, 10 * 1000 * 1000 }, abs;
	CHECK_EQ(pthread_create(&t, NULL, waiter, NULL), 0);
	for (;;) {
		CHECK_EQ(pthread_mutex_lock(&m1), 0);
		int r = ready;
		CHECK_EQ(pthread_mutex_unlock(&m1), 0);
		if (r)
			break;
		nanosleep(&d, NULL);
	}
	/* The waiter is queued (it set ready under m1 before waiting). */
	CHECK_EQ(pthread_mutex_lock(&m2), 0);
	clock_gettime(CLOCK_REALTIME, &abs);
	abs.tv_nsec += 50 * 1000 * 1000;
	if (abs.tv_nsec >= 1000000000) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000;
	}
	CHECK_EQ(pthread_cond_timedwait(&c, &m2, &abs), ETIMEDOUT);
	CHECK_EQ(pthread_mutex_unlock(&m2), 0);
	CHECK_EQ(pthread_mutex_lock(&m1), 0);
	done = 1;
	CHECK_EQ(pthread_cond_broadcast(&c), 0);
	CHECK_EQ(pthread_mutex_unlock(&m1), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	return 0;
}
