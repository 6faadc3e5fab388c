/* Condvar ping-pong: a token passed between threads through one mutex and
 * one condvar per direction... here one condvar, `turn` says whose it is.
 * usage: cond_pingpong [threads=2] [seconds=1]
 * ST_BENCH_PIN=1: player i runs on CPU i modulo the CPUs online (pin.h).
 * prints: cond_pingpong threads=N handoffs=H seconds=S handoffs_per_s=R */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pin.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int turn, nthreads;
static long handoffs;
static volatile int stop;

static void *player(void *arg)
{
	int me = (int)(long)arg;
	st_bench_pin("cond_pingpong", me);
	pthread_mutex_lock(&m);
	while (!stop) {
		while (turn != me && !stop)
			pthread_cond_wait(&c, &m);
		if (stop)
			break;
		turn = (me + 1) % nthreads;
		handoffs++;
		/* with more than two players the next one must be the one woken */
		if (nthreads == 2)
			pthread_cond_signal(&c);
		else
			pthread_cond_broadcast(&c);
	}
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	return 0;
}

int main(int argc, char **argv)
{
	nthreads = argc > 1 ? atoi(argv[1]) : 2;
	double secs = argc > 2 ? atof(argv[2]) : 1.0;
	pthread_t t[64];
	if (nthreads < 2 || nthreads > 64)
		return 2;
	struct timespec a, b, d = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < nthreads; i++)
		pthread_create(&t[i], 0, player, (void *)i);
	nanosleep(&d, 0);
	pthread_mutex_lock(&m);
	stop = 1;
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	printf("cond_pingpong threads=%d handoffs=%ld seconds=%.3f handoffs_per_s=%.0f\n",
	       nthreads, handoffs, s, handoffs / s);
	return 0;
}
