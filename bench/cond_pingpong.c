/* Condvar ping-pong: a token passed between threads through one mutex and
 * one condvar per direction... here one condvar, `turn` says whose it is.
 * usage: cond_pingpong [threads=2] [seconds=1]
 * ST_BENCH_PIN=1: player i runs on CPU i modulo the CPUs online only (on a
 * 2-CPU VM the two players otherwise share one CPU part of the time, and
 * hand off through the scheduler: bench/README.md, session 21).
 * prints: cond_pingpong threads=N handoffs=H seconds=S handoffs_per_s=R */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int turn, nthreads;
static long handoffs;
static volatile int stop;
static int pin;

static void *player(void *arg)
{
	int me = (int)(long)arg;
	if (pin) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		cpu_set_t s;
		CPU_ZERO(&s);
		CPU_SET(me % (n > 0 ? (int)n : 1), &s);
		if (pthread_setaffinity_np(pthread_self(), sizeof(s), &s))
			fprintf(stderr, "cond_pingpong: cannot pin player %d\n", me);
	}
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
	const char *p = getenv("ST_BENCH_PIN");
	pin = p && !strcmp(p, "1");
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
