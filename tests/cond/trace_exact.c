/* A deterministic condvar scenario whose events are counted exactly by
 * count-events.sh in traced mode (see CMakeLists.txt):
 *   1. two waiters, then a broadcast with the mutex held: 2 enqueued,
 *      2 signaled, 1 signal (broadcast), 1 hand-off, 2 woke (signaled),
 *      2 relocked;
 *   2. a timed wait nobody signals: enqueued, leaving (timeout), woke
 *      (timed out), relocked;
 *   3. W3 waits with m, main times out on the same condvar with m2: a
 *      misuse (two mutexes), then a signal wakes W3;
 *   4. signals with nobody waiting: no event; destroy. */
#include <errno.h>
#include <pthread.h>
#include <unistd.h>

#include "check.h"
#include "util.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c;
static int go, inside;

static void *waiter(void *arg)
{
	int want = (int)(long)arg;
	pthread_mutex_lock(&m);
	inside++;
	while (go < want)
		CHECK_EQ(pthread_cond_wait(&c, &m), 0);
	inside--;
	pthread_mutex_unlock(&m);
	return 0;
}

/* Until n waiters are inside the wait (they hold m until they release it
 * in the wait: seeing `inside` under m means they are queued). */
static void until_inside(int n)
{
	for (;;) {
		pthread_mutex_lock(&m);
		int k = inside;
		pthread_mutex_unlock(&m);
		if (k == n)
			break;
		usleep(1000);
	}
	settle();
}

int main(void)
{
	pthread_t a, b, w3;
	CHECK_EQ(pthread_cond_init(&c, 0), 0);

	CHECK_EQ(pthread_create(&a, 0, waiter, (void *)1L), 0);
	CHECK_EQ(pthread_create(&b, 0, waiter, (void *)1L), 0);
	until_inside(2);
	pthread_mutex_lock(&m);
	go = 1;
	CHECK_EQ(pthread_cond_broadcast(&c), 0);
	pthread_mutex_unlock(&m);
	CHECK_EQ(pthread_join(a, 0), 0);
	CHECK_EQ(pthread_join(b, 0), 0);

	pthread_mutex_lock(&m);
	struct timespec ts = after_ns(CLOCK_REALTIME, 2000000);
	CHECK_EQ(pthread_cond_timedwait(&c, &m, &ts), ETIMEDOUT);
	pthread_mutex_unlock(&m);

	CHECK_EQ(pthread_create(&w3, 0, waiter, (void *)2L), 0);
	until_inside(1);
	pthread_mutex_lock(&m2);
	ts = after_ns(CLOCK_REALTIME, 2000000);
	CHECK_EQ(pthread_cond_timedwait(&c, &m2, &ts), ETIMEDOUT);
	pthread_mutex_unlock(&m2);
	pthread_mutex_lock(&m);
	go = 2;
	CHECK_EQ(pthread_cond_signal(&c), 0);
	pthread_mutex_unlock(&m);
	CHECK_EQ(pthread_join(w3, 0), 0);

	CHECK_EQ(pthread_cond_signal(&c), 0);
	CHECK_EQ(pthread_cond_broadcast(&c), 0);
	CHECK_EQ(pthread_cond_destroy(&c), 0);
	return 0;
}
