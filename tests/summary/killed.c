/* A process killed by a signal: ROUNDS contended acquisitions (rounds.h),
 * then, once more than a second has passed (every thread's aggregates are
 * then due), one more round, whose first aggregate in each thread emits
 * that thread's summaries (the age check is on the thread's own path);
 * then SIGKILL. At the summary level the trace holds the first ROUNDS
 * rounds and loses the last one, still in the threads' tables; at the
 * contention level it holds all ROUNDS + 1. Run with SYNCTRACE_SPIN=none. */
#include <signal.h>
#include <stdio.h>
#include <time.h>

#include "rounds.h"

#define ROUNDS 3

static double coarse_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void)
{
	pthread_t t;
	start_worker(&t, 0);
	for (int r = 1; r <= ROUNDS; r++)
		contended_round(r);
	/* The state needed: more than a second since the last aggregate. */
	double end = coarse_s() + 1.1;
	while (coarse_s() < end)
		usleep(10000);
	contended_round(ROUNDS + 1);
	printf("killed: %d + 1 rounds\n", ROUNDS);
	fflush(stdout);
	raise(SIGKILL);
	return 1;
}
