/* Semaphore ping-pong: two threads pass a token through two semaphores.
 * usage: sem_pingpong [seconds=1]
 * ST_BENCH_PIN=1: player i runs on CPU i modulo the CPUs online (pin.h).
 * prints: sem_pingpong ops=N seconds=S ops_per_s=R  (one op = one wait) */
#define _GNU_SOURCE /* pthread_setaffinity_np (pin.h) */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pin.h"

static sem_t ping, pong;
static volatile int stop;
static long ops[2];

static void *player(void *arg)
{
	long me = (long)arg;
	st_bench_pin("sem_pingpong", (int)me);
	sem_t *mine = me ? &pong : &ping, *theirs = me ? &ping : &pong;
	while (!stop) {
		sem_wait(mine);
		ops[me]++;
		sem_post(theirs);
	}
	sem_post(theirs);
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
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	pthread_t t[2];
	sem_init(&ping, 0, 1);
	sem_init(&pong, 0, 0);
	double t0 = now();
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], 0, player, (void *)i);
	struct timespec d = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
	nanosleep(&d, 0);
	stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	double el = now() - t0;
	long n = ops[0] + ops[1];
	printf("sem_pingpong ops=%ld seconds=%.3f ops_per_s=%.0f\n", n, el, n / el);
	return 0;
}
