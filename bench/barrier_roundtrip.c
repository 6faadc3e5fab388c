/* Barrier round trips: T threads pass one barrier over and over.
 * usage: barrier_roundtrip [threads=2] [seconds=1]
 * ST_BENCH_PIN=1: worker i runs on CPU i modulo the CPUs online (pin.h).
 * prints: barrier_roundtrip threads=T rounds=N seconds=S rounds_per_s=R */
#define _GNU_SOURCE /* pthread_setaffinity_np (pin.h) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pin.h"

static pthread_barrier_t b;
static volatile int stop;
static long rounds;
static int quit; /* written by the serial thread between the two waits */

static void *worker(void *p)
{
	st_bench_pin("barrier_roundtrip", (int)(long)p);
	for (;;) {
		if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD) {
			rounds++;
			quit = stop;
		}
		pthread_barrier_wait(&b);
		if (quit)
			break;
	}
	return 0;
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
	pthread_t t[64];
	if (nt < 1 || nt > 64)
		return 2;
	pthread_barrier_init(&b, 0, (unsigned)nt);
	double t0 = now();
	for (int i = 0; i < nt; i++)
		pthread_create(&t[i], 0, worker, (void *)(long)i);
	struct timespec d = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
	nanosleep(&d, 0);
	stop = 1;
	for (int i = 0; i < nt; i++)
		pthread_join(t[i], 0);
	double el = now() - t0;
	printf("barrier_roundtrip threads=%d rounds=%ld seconds=%.3f rounds_per_s=%.0f\n", nt,
	       rounds, el, rounds / el);
	pthread_barrier_destroy(&b);
	return 0;
}
