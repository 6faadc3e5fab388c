/* The record clock (tracepoints/batch.h) against LTTng's: a batched
 * record (sem:trywait_failed) and an event LTTng stamps itself
 * (thread:name, written singly) alternate in one thread, ~1 us apart, over
 * several of the record clock's anchor periods (1 ms). The check
 * (record_clock_check.sh) wants them in that order in the trace: a record
 * time off by more than about half their distance, from a wrong scale or
 * anchor, puts one on the wrong side of its neighbour.
 *
 * First the durations' clock is given its scale (src/internal/clock.h:
 * two reads of traced waits at least 20 ms apart), which the record clock
 * takes: timed waits that time out, until 30 ms have passed.
 *
 * The thread moves to the next CPU it may use every HOP pairs: where the
 * kernel distrusts the counter the records read it per CPU (each CPU's
 * anchored on its own), and a record after a move must not use the last
 * CPU's anchor (two CPUs' counters may differ by an offset). The test runs
 * with SYNCTRACE_TEST_CPU_SKEW (CMakeLists.txt): each CPU's counter then
 * reads ~100 us ahead of the one before, as if they differed; a record
 * that used another CPU's anchor would be ~100 us off, out of order.
 *
 * `record_clock stay` (trace_record_clock_drift) keeps the thread on the
 * CPU it started on instead, and runs with SYNCTRACE_TEST_CPU_DRIFT: the
 * counter then runs 1 % slow against the scale, as one whose rate changed
 * would, so a record's time falls behind by up to 1 % of its anchor's
 * age (~10 us at 1 ms), and the record clock's own check (tracepoints/
 * batch.c, rec_drifted: the next anchor on the same CPU, a millisecond
 * on, finds the old one's prediction ~10 us off) must turn the records
 * to CLOCK_MONOTONIC: unchecked, records fall up to 10 us behind and
 * cross the names around them. It waits 60 ms, not 30, before the pairs:
 * the check then has ~40 renewals to run in before the first pair.
 *
 * Both runs tell the library its clocksource is distrusted
 * (SYNCTRACE_TEST_CLOCKSOURCE, CMakeLists.txt), so the records read the
 * counter per CPU whatever this machine's kernel keeps time with; the
 * check wants meta:clock to say PER_CPU. */
#include <sched.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#define PAIRS 5000
#define HOP 250

/* The calling thread onto the next CPU of `all` after *at (round robin). */
static void hop(const cpu_set_t *all, int *at)
{
	for (int i = 1; i <= CPU_SETSIZE; i++) {
		int c = (*at + i) % CPU_SETSIZE;
		cpu_set_t one;
		if (!CPU_ISSET(c, all))
			continue;
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		if (sched_setaffinity(0, sizeof one, &one) == 0) {
			*at = c;
			return;
		}
	}
}

int main(int argc, char **argv)
{
	sem_t s;
	cpu_set_t all;
	int stay = argc > 1 && !strcmp(argv[1], "stay");
	CHECK_EQ(sched_getaffinity(0, sizeof all, &all), 0);
	if (stay) { /* from before the scale is measured: every anchor here */
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(sched_getcpu(), &one);
		CHECK_EQ(sched_setaffinity(0, sizeof one, &one), 0);
	}
	CHECK_EQ(sem_init(&s, 0, 0), 0);
	long long t0 = st_mono_now_ns();
	while (st_mono_now_ns() - t0 < (stay ? 60000000LL : 30000000LL)) {
		struct timespec abs = st_in_ms(CLOCK_REALTIME, 1);
		CHECK_EQ(sem_timedwait(&s, &abs), -1);
		CHECK_EQ(errno, ETIMEDOUT);
	}
	char name[16];
	int at = -1, hops = 0;
	for (int i = 0; i < PAIRS; i++) {
		if (!stay && i % HOP == 0 && CPU_COUNT(&all) > 1) {
			hop(&all, &at);
			hops++;
		}
		CHECK_EQ(sem_trywait(&s), -1);
		snprintf(name, sizeof name, "rc%d", i);
		CHECK_EQ(pthread_setname_np(pthread_self(), name), 0);
	}
	CHECK_EQ(sched_setaffinity(0, sizeof all, &all), 0);
	CHECK_EQ(sem_destroy(&s), 0);
	printf("record clock: %d pairs, %d moves between CPUs\n", PAIRS, hops);
	return 0;
}
