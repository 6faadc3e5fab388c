/* A thread that exits: ROUNDS contended acquisitions of one mutex by a
 * worker thread (rounds.h), then the worker exits and main, which joins
 * it, makes ROUNDS more against a second worker. At the summary level
 * each worker's aggregates leave with it (synctrace_summary:flushed,
 * reason THREAD_EXIT), main's at process exit. Run with
 * SYNCTRACE_SPIN=none. */
#include <stdio.h>

#include "rounds.h"

#define ROUNDS 4

static void rounds_against_a_worker(void)
{
	pthread_t t;
	start_worker(&t, ROUNDS);
	for (int r = 1; r <= ROUNDS; r++)
		contended_round(r);
	CHECK_EQ(pthread_join(t, 0), 0);
}

int main(void)
{
	rounds_against_a_worker();
	rounds_against_a_worker();
	printf("thread exit: 2 workers x %d rounds\n", ROUNDS);
	return 0;
}
