/* Mutex microbenchmark: THREADS threads lock, run a critical section of
 * about CS_NS nanoseconds, unlock, for SECONDS; prints the pairs per second
 * and the nanoseconds per lock+unlock pair (per thread).
 * usage: mutex THREADS CS_NS SECONDS */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile int stop;
static int cs_iters;
static volatile unsigned long sink;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void cs(void)
{
	for (int i = 0; i < cs_iters; i++)
		sink += i;
}

static void *run(void *arg)
{
	unsigned long *n = arg;
	while (!stop) {
		for (int k = 0; k < 64; k++) {
			pthread_mutex_lock(&m);
			cs();
			pthread_mutex_unlock(&m);
		}
		*n += 64;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 1;
	int cs_ns = argc > 2 ? atoi(argv[2]) : 0;
	double seconds = argc > 3 ? atof(argv[3]) : 1.0;
	pthread_t t[64];
	unsigned long counts[64] = { 0 };

	if (threads < 1 || threads > 64)
		return 2;
	/* About cs_ns: one iteration is about a nanosecond here; a fixed count
	 * (not a per-run calibration) keeps paired runs comparable. */
	cs_iters = cs_ns;
	double t0 = now();
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], 0, run, &counts[i]);
	struct timespec d = { (time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9) };
	nanosleep(&d, 0);
	stop = 1;
	unsigned long total = 0;
	for (int i = 0; i < threads; i++) {
		pthread_join(t[i], 0);
		total += counts[i];
	}
	double el = now() - t0;
	printf("result: pairs_per_s=%.0f ns_per_pair=%.2f\n", total / el,
	       el * 1e9 * threads / (double)total);
	return 0;
}
