/* Two signalers (10,000 signals each, a short pause between) against four
 * waiters whose timed waits (10-100 us) often run out: a waiter that times
 * out takes the condvar lock to unlink itself, so a signal often finds
 * that lock contended and its unlock wakes a thread: a record of the
 * signaler's (futex:wake) between the transition and the late `signaled`
 * (src/cond/signal.c), which must still come in time order. The trace
 * check (count-events.sh) wants every record analyzed in time order and
 * each woken waiter after its signaled; with the signaled written after
 * that wake, it failed 5 runs of 5 of this workload. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define SIGNALS 10000

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static long tokens;
static int stop;

static void *waiter(void *arg)
{
	unsigned seed = (unsigned)(long)arg * 7919u + 1;
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	while (!stop) {
		if (tokens) {
			tokens--;
			continue;
		}
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 10000 + rand_r(&seed) % 90000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		int r = pthread_cond_timedwait(&c, &m, &ts);
		CHECK(r == 0 || r == ETIMEDOUT);
	}
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	return 0;
}

static void *signaler(void *arg)
{
	unsigned seed = (unsigned)(long)arg + 3;
	for (int i = 0; i < SIGNALS; i++) {
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		tokens++;
		CHECK_EQ(pthread_cond_signal(&c), 0);
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
		usleep(rand_r(&seed) % 60);
	}
	return 0;
}

int main(void)
{
	pthread_t w[4], s[2];
	for (long i = 0; i < 4; i++)
		CHECK_EQ(pthread_create(&w[i], 0, waiter, (void *)i), 0);
	for (long i = 0; i < 2; i++)
		CHECK_EQ(pthread_create(&s[i], 0, signaler, (void *)i), 0);
	for (int i = 0; i < 2; i++)
		CHECK_EQ(pthread_join(s[i], 0), 0);
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	stop = 1;
	CHECK_EQ(pthread_cond_broadcast(&c), 0);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(pthread_join(w[i], 0), 0);
	return 0;
}
