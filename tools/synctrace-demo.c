/* The built-in demo `synctrace run` records when given no command
 * (workloads in demo/):
 *  1. the two-queue workload of the 2003 NPTL condvar thread, both
 *     variants: one mutex + one condvar for both queues, then one mutex
 *     per queue + a "twomutex" condvar; printed like that thread's table
 *     (time, messages per consumer wakeup);
 *  2. a timed-wait race: waiters with 10-100 us timeouts against
 *     signalers on one condvar.
 * usage: synctrace-demo [MESSAGES_PER_SUPPLIER [RACE_MS]]
 * (defaults sized to keep a traced run well under five seconds) */
#include <stdio.h>
#include <stdlib.h>

#include "demo.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 500000;
	long ms = argc > 2 ? atol(argv[2]) : 300;
	int fail = 0;
	if (n < 1 || ms < 1) {
		fprintf(stderr, "usage: synctrace-demo [MESSAGES_PER_SUPPLIER [RACE_MS]]\n");
		return 2;
	}
	printf("two queues, two suppliers x %ld messages, one consumer:\n", n);
	printf("  %-9s %9s %10s %9s\n", "variant", "time (s)", "wakeups", "rate");
	for (int twomutex = 0; twomutex < 2; twomutex++) {
		struct twoqueue_result r;
		if (twoqueue_run(twomutex, n, &r)) {
			fprintf(stderr, "demo: two-queue %s lost messages\n", twomutex ? "twomutex" : "cond");
			fail = 1;
			continue;
		}
		printf("  %-9s %9.3f %10ld %9.1f\n", twomutex ? "twomutex" : "cond", r.seconds,
		       r.wakeups, r.wakeups ? (double)r.messages / r.wakeups : 0.0);
	}
	printf("  (rate: messages consumed per consumer wakeup)\n");

	struct timedrace_result t;
	if (timedrace_run(3, 2, ms, &t)) {
		fprintf(stderr, "demo: timed-wait race failed\n");
		return 1;
	}
	printf("timed-wait race, 3 waiters (10-100 us timeouts) vs 2 signalers, %ld ms:\n"
	       "  %ld waits: %ld timed out, %ld signaled; %ld signals sent\n",
	       ms, t.waits, t.timeouts, t.signaled, t.signals);
	return fail;
}
