/* The adaptive spin budget of hand-off waits and relocks (src/wait/wait.h):
 * spinning stops after `max` loops in a row ran out; then waits probe
 * after 128, 256, 512 ... 4096 calls, then at every 4096th; a probe that
 * acquires restores spinning. Exact call numbers, on the header itself.
 * usage: test_spin_adaptive */
#include "check.h"
#include "wait/wait.h"

enum { BUDGET = 1000 };

/* Calls st_spin_adaptive_budget n times with probes failing; returns how
 * many calls got a budget, and stores the first eight of their indices. */
static int run(volatile int *misses, int max, int n, int *at)
{
	int got = 0;
	for (int i = 0; i < n; i++) {
		int b = st_spin_adaptive_budget(misses, BUDGET, max);
		CHECK(b == 0 || b == BUDGET);
		if (b) {
			if (got < 8)
				at[got] = i;
			got++;
			st_spin_adaptive_done(misses, ST_SPIN_OUTCOME_GAVE_UP, max);
		}
	}
	return got;
}

static void backs_off(int max)
{
	volatile int misses = 0;
	int at[8];

	/* max loops that run out, each with the full budget */
	CHECK_EQ(run(&misses, max, max, at), max);
	CHECK_EQ(misses, max);
	/* then: probes at 128, 256 ... 4096 calls after, then every 4096 */
	CHECK_EQ(run(&misses, max, 4096 * 3 + 1, at), 8);
	int want[8] = { 128, 256, 512, 1024, 2048, 4096, 8192, 12288 };
	for (int i = 0; i < 8; i++)
		CHECK_EQ(at[i], want[i]);
	/* a probe that acquires restores spinning at once */
	misses = max + 4096;
	CHECK_EQ(st_spin_adaptive_budget(&misses, BUDGET, max), BUDGET);
	st_spin_adaptive_done(&misses, ST_SPIN_OUTCOME_ACQUIRED, max);
	CHECK_EQ(misses, 0);
	CHECK_EQ(st_spin_adaptive_budget(&misses, BUDGET, max), BUDGET);
	/* a success before max misses resets the count */
	st_spin_adaptive_done(&misses, ST_SPIN_OUTCOME_GAVE_UP, max);
	st_spin_adaptive_done(&misses, ST_SPIN_OUTCOME_ACQUIRED, max);
	CHECK_EQ(misses, 0);
	/* the count saturates into the every-4096 phase, never overflows */
	misses = max + (1 << 24) + 1;
	CHECK_EQ(st_spin_adaptive_budget(&misses, BUDGET, max), 0);
	CHECK_EQ(misses, max + 4096);
	CHECK_EQ(st_spin_adaptive_budget(&misses, BUDGET, max), BUDGET);
}

int main(void)
{
	backs_off(ST_SPIN_MISSES);  /* hand-off waits: per object */
	backs_off(ST_RELOCK_MISSES); /* condvar relocks: per thread */
	puts("spin_adaptive: ok");
	return 0;
}
