/* What a clock read costs on a hand-off's path: two threads, pinned to
 * CPUs 0 and 1, pass a turn through one cache line (spinning), each
 * reading a clock before it waits for its turn and after it got it (two
 * reads a hand-off, as a traced wait's start and end). On kvm-clock
 * clock_gettime reads the counter ordered, and an ordered read waits for
 * the line the other CPU just wrote (bench/README.md, "Per-CPU anchors,
 * session 24").
 * usage: bench_handoff_clock [seconds=0.3]
 * prints, per read: handoff_clock read=NAME handoffs_per_s=R */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

enum { NONE, RDTSC, CLOCK_GETTIME, LFENCE_RDTSC, RDTSCP, NREADS };
static const char *const names[NREADS] = { "none", "rdtsc", "clock_gettime", "lfence+rdtsc",
					   "rdtscp" };
static volatile int turn __attribute__((aligned(64)));
static volatile int stop;
static int mode;
static volatile uint64_t sink;
static long n[2];

static inline void read_clock(void)
{
	struct timespec t;
	unsigned aux;
	switch (mode) {
	case RDTSC:
		sink += __rdtsc();
		break;
	case CLOCK_GETTIME:
		clock_gettime(CLOCK_MONOTONIC, &t);
		sink += (uint64_t)t.tv_nsec;
		break;
	case LFENCE_RDTSC:
		_mm_lfence();
		sink += __rdtsc();
		break;
	case RDTSCP:
		sink += __rdtscp(&aux);
		break;
	}
}

static void *player(void *arg)
{
	int me = (int)(long)arg;
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(me, &s);
	if (pthread_setaffinity_np(pthread_self(), sizeof s, &s))
		fprintf(stderr, "handoff_clock: cannot pin thread %d to CPU %d\n", me, me);
	while (!stop) {
		read_clock();
		while (turn != me && !stop)
			__builtin_ia32_pause();
		read_clock();
		turn = !me;
		n[me]++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.3;
	struct timespec d = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
	for (mode = 0; mode < NREADS; mode++) {
		pthread_t t[2];
		stop = 0;
		n[0] = n[1] = 0;
		turn = 0;
		for (long i = 0; i < 2; i++)
			pthread_create(&t[i], 0, player, (void *)i);
		nanosleep(&d, 0);
		stop = 1;
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], 0);
		printf("handoff_clock read=%s handoffs_per_s=%.0f\n", names[mode],
		       (double)(n[0] + n[1]) / secs);
	}
	return 0;
}
