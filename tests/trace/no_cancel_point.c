/* Tracing adds no cancellation point. pthread_mutex_lock/unlock are not
 * cancellation points (POSIX), so a thread with a cancel pending that only
 * locks and unlocks must run to its end: at the full level every pair
 * records an event, and lttng-ust may make a system call that is a
 * cancellation point (its wakeup of the consumer when a sub-buffer is
 * full). Before tracepoints/probes.c disabled cancellation around each
 * event, the cancel acted there, inside a lock or unlock. */
#include <pthread.h>
#include <unistd.h>

#include "check.h"

#define PAIRS 300000

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile int cancel_sent;
static long done;

static void *locker(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&cancel_sent, __ATOMIC_ACQUIRE))
		;
	for (long i = 0; i < PAIRS; i++) {
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		done++;
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
	}
	return (void *)1;
}

int main(void)
{
	pthread_t t;
	void *res;

	st_check_interposed("pthread_mutex_lock");
	CHECK_EQ(pthread_create(&t, 0, locker, 0), 0);
	CHECK_EQ(pthread_cancel(t), 0);
	__atomic_store_n(&cancel_sent, 1, __ATOMIC_RELEASE);
	CHECK_EQ(pthread_join(t, &res), 0);
	CHECK_EQ(done, PAIRS);
	CHECK(res == (void *)1);
	return 0;
}
