/* Read-mostly rwlock: each thread does 95 % read locks, 5 % write locks,
 * with a little work inside, and OUTSIDE_NS (about; default 0) of work
 * between two locks.
 * usage: rwlock_readmostly [threads=2] [seconds=1] [read_percent=95] [outside_ns=0]
 * prints: rwlock_readmostly threads=T ops=N seconds=S ops_per_s=R */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static volatile int stop;
static int read_pct, outside;
static long table[64];

static void *worker(void *p)
{
	unsigned seed = (unsigned)(long)p * 2654435761u + 1;
	long n = 0, sink = 0;
	while (!stop) {
		seed = seed * 1103515245u + 12345u;
		if ((int)((seed >> 16) % 100) < read_pct) {
			pthread_rwlock_rdlock(&rw);
			for (int i = 0; i < 16; i++)
				sink += table[(seed + i) & 63];
			pthread_rwlock_unlock(&rw);
		} else {
			pthread_rwlock_wrlock(&rw);
			table[seed & 63]++;
			pthread_rwlock_unlock(&rw);
		}
		for (int i = 0; i < outside; i++) /* about a nanosecond each here */
			sink += i;
		n++;
	}
	return (void *)(n + (sink & 0));
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int nt = argc > 1 ? atoi(argv[1]) : 2;
	double secs = argc > 2 ? atof(argv[2]) : 1.0;
	read_pct = argc > 3 ? atoi(argv[3]) : 95;
	outside = argc > 4 ? atoi(argv[4]) : 0;
	pthread_t t[64];
	if (nt < 1 || nt > 64)
		return 2;
	double t0 = now();
	for (long i = 0; i < nt; i++)
		pthread_create(&t[i], 0, worker, (void *)i);
	struct timespec d = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
	nanosleep(&d, 0);
	stop = 1;
	long total = 0;
	for (int i = 0; i < nt; i++) {
		void *r;
		pthread_join(t[i], &r);
		total += (long)r;
	}
	double el = now() - t0;
	printf("rwlock_readmostly threads=%d ops=%ld seconds=%.3f ops_per_s=%.0f\n", nt, total,
	       el, total / el);
	return 0;
}
