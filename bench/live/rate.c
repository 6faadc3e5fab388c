/* A steady stream for the live view's benchmark: T threads lock and
 * unlock their own mutexes (at the full level: one event per pair) at
 * RATE pairs a second in all, for SECONDS; every 64th pair takes one
 * shared mutex instead, so a few waits and wakes are in the stream too.
 * Paced per batch of 1000 against the clock, so the rate holds whatever
 * the tracer costs (as long as the machine can do it: it says the rate
 * it reached). usage: rate T RATE SECONDS */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int T = 2;
static double RATE = 1e6, SECONDS = 10;
static pthread_mutex_t shared = PTHREAD_MUTEX_INITIALIZER;
static long done[64];

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *run(void *arg)
{
	long id = (long)arg;
	pthread_mutex_t own = PTHREAD_MUTEX_INITIALIZER;
	double per = RATE / T, t0 = now();
	long n = 0;
	while (now() - t0 < SECONDS) {
		for (int i = 0; i < 1000; i++, n++) {
			pthread_mutex_t *m = n % 64 ? &own : &shared;
			pthread_mutex_lock(m);
			pthread_mutex_unlock(m);
		}
		double due = t0 + (double)n / per, d = due - now();
		if (d > 0) {
			struct timespec ts = { (time_t)d, (long)((d - (double)(time_t)d) * 1e9) };
			nanosleep(&ts, NULL);
		}
	}
	done[id] = n;
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 3) {
		T = atoi(argv[1]);
		RATE = atof(argv[2]);
		SECONDS = atof(argv[3]);
	}
	if (T < 1 || T > 64 || RATE <= 0 || SECONDS <= 0) {
		fprintf(stderr, "usage: rate T RATE SECONDS\n");
		return 2;
	}
	pthread_t t[64];
	double t0 = now();
	for (long i = 0; i < T; i++)
		pthread_create(&t[i], NULL, run, (void *)i);
	long total = 0;
	for (int i = 0; i < T; i++) {
		pthread_join(t[i], NULL);
		total += done[i];
	}
	fprintf(stderr, "rate: %ld pairs in %.1f s: %.0f pairs/s\n", total, now() - t0,
		(double)total / (now() - t0));
	return 0;
}
