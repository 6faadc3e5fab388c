/* Timed-wait race: waiters with 10-100 us timeouts against signalers.
 * Each signal comes with a token (under the mutex); a timed wait that
 * returns 0 while no token is left is an "empty return": a spurious wake,
 * or a token taken first by a waiter whose own wait had timed out.
 * usage: cond_timedrace [waiters=4] [signalers=2] [seconds=1]
 * prints: waits, timeouts, empty returns (and per second), ops/s */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static long tokens, waits, timeouts, empty, consumed, signals;
static volatile int stop;

static void *waiter(void *arg)
{
	unsigned seed = (unsigned)(long)arg * 7919u + 1;
	pthread_mutex_lock(&m);
	while (!stop) {
		if (tokens) {
			tokens--;
			consumed++;
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
		waits++;
		if (r == ETIMEDOUT)
			timeouts++;
		else if (!tokens)
			empty++;
	}
	pthread_mutex_unlock(&m);
	return 0;
}

static void *signaler(void *arg)
{
	unsigned seed = (unsigned)(long)arg + 3;
	while (!stop) {
		pthread_mutex_lock(&m);
		tokens++;
		signals++;
		pthread_cond_signal(&c);
		pthread_mutex_unlock(&m);
		usleep(rand_r(&seed) % 60);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int nw = argc > 1 ? atoi(argv[1]) : 4, ns = argc > 2 ? atoi(argv[2]) : 2;
	double secs = argc > 3 ? atof(argv[3]) : 1.0;
	pthread_t t[128];
	if (nw + ns > 128)
		return 2;
	for (long i = 0; i < nw; i++)
		pthread_create(&t[i], 0, waiter, (void *)i);
	for (long i = 0; i < ns; i++)
		pthread_create(&t[nw + i], 0, signaler, (void *)i);
	struct timespec d = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
	nanosleep(&d, 0);
	stop = 1;
	pthread_mutex_lock(&m);
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	for (int i = 0; i < nw + ns; i++)
		pthread_join(t[i], 0);
	printf("cond_timedrace waiters=%d signalers=%d waits=%ld timeouts=%ld empty_returns=%ld "
	       "empty_returns_per_s=%.0f signals=%ld ops_per_s=%.0f\n",
	       nw, ns, waits, timeouts, empty, empty / secs, signals,
	       (waits + signals) / secs);
	return 0;
}
