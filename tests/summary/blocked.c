/* A thread still blocked when the process exits: ROUNDS contended
 * acquisitions of one mutex by a worker thread (rounds.h), then main
 * takes the mutex once more, sees the worker asleep on it, and returns
 * from main with the worker still asleep. At the summary level the
 * worker's aggregates of those rounds were queued on its own path, not
 * aggregated (with SYNCTRACE_SPIN=none a mutex wait has no point where
 * its thread drains them: src/trace/summary.h); they go out at process
 * exit, drained by the exiting thread. Run with SYNCTRACE_SPIN=none. */
#include <stdio.h>

#include "rounds.h"

#define ROUNDS 4

int main(void)
{
	pthread_t t;
	start_worker(&t, 0);
	for (int r = 1; r <= ROUNDS; r++)
		contended_round(r);
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	__atomic_store_n(&go, ROUNDS + 1, __ATOMIC_RELEASE);
	while (!st_thread_in_futex_wait(worker_tid))
		usleep(200);
	printf("blocked: %d rounds, then the worker asleep at exit\n", ROUNDS);
	fflush(stdout);
	return 0;
}
