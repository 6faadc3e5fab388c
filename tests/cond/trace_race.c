/* Force the timeout-vs-signal race: waiters whose timeouts all expire at
 * the same instant D, and a broadcaster hammering the condvar around D. In
 * traced mode the trace must show signalers meeting LEAVING waiters
 * (met_leaving) and waiting for them (ref_wait_begin/end). */
#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "check.h"
#include "util.h"

#define WAITERS 24
#define ROUNDS 150

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t start;
static struct timespec deadline;
static long timeouts, signaled;

static void *waiter(void *arg)
{
	(void)arg;
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&start);
		pthread_mutex_lock(&m);
		int e = pthread_cond_timedwait(&c, &m, &deadline);
		CHECK(e == 0 || e == ETIMEDOUT);
		if (e)
			timeouts++;
		else
			signaled++;
		pthread_mutex_unlock(&m);
		pthread_barrier_wait(&start);
	}
	return 0;
}

int main(void)
{
	pthread_t t[WAITERS];
	pthread_barrier_init(&start, 0, WAITERS + 1);
	for (int i = 0; i < WAITERS; i++)
		CHECK_EQ(pthread_create(&t[i], 0, waiter, 0), 0);
	for (int r = 0; r < ROUNDS; r++) {
		deadline = after_ns(CLOCK_REALTIME, 300000 + (r % 7) * 20000);
		pthread_barrier_wait(&start);
		long long d = deadline.tv_sec * 1000000000LL + deadline.tv_nsec;
		/* The waiters' timers fire between D and D + the 50 us timer
		 * slack: broadcast once, somewhere in that window. */
		while (now_ns(CLOCK_REALTIME) < d + (r % 10) * 8000)
			;
		pthread_cond_broadcast(&c);
		pthread_barrier_wait(&start);
	}
	for (int i = 0; i < WAITERS; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	printf("%s: %ld timeouts, %ld signaled\n", st_test_mode(), timeouts, signaled);
	return 0;
}
