/* Mutual exclusion under load: lock, trylock and short timed locks mixed,
 * counters must come out exact, no thread may hang (ctest timeout). */
#include <pthread.h>
#include <time.h>

#include "check.h"

#define THREADS 6
#define ROUNDS 40000

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static volatile int inside;
static long timeouts[THREADS];

static void *run(void *arg)
{
	long id = (long)arg;
	for (int i = 0; i < ROUNDS; i++) {
		int r;
		switch (i % 3) {
		case 0:
			r = pthread_mutex_lock(&m);
			break;
		case 1:
			while ((r = pthread_mutex_trylock(&m)) == EBUSY)
				;
			break;
		default: {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 20000;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			r = pthread_mutex_timedlock(&m, &ts);
			if (r == ETIMEDOUT) {
				timeouts[id]++;
				i--; /* retry this round: the count must stay exact */
				continue;
			}
		}
		}
		CHECK_EQ(r, 0);
		CHECK_EQ(inside, 0);
		inside = 1;
		counter++;
		inside = 0;
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
	}
	return 0;
}

int main(void)
{
	pthread_t t[THREADS];
	st_check_interposed("pthread_mutex_trylock");
	for (long i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_create(&t[i], 0, run, (void *)i), 0);
	for (int i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	CHECK_EQ(counter, (long)THREADS * ROUNDS);
	long to = 0;
	for (int i = 0; i < THREADS; i++)
		to += timeouts[i];
	printf("mutex stress: %ld acquisitions, %ld timeouts retried\n", counter, to);
	return 0;
}
