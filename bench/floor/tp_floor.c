/* The floor under a full-level lock/unlock pair: lttng-ust's own cost for
 * one event shaped like synctrace_mutex:released, fired straight from the
 * program (no synctrace, no lock, no clock read of ours), or for an empty
 * event. Run it inside a session that records st_floor:* with the contexts
 * `synctrace record` adds (bench/exp_overhead.sh does).
 * usage: tp_floor EVENTS released|empty
 * prints: result: event=NAME ns_per_event=WALL cpu_ns=THREAD_CPU */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "tp_floor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double ns(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	const char *ev = argc > 2 ? argv[2] : "released";
	int empty = strcmp(ev, "empty") == 0;
	static int obj;

	if (n < 1 || (!empty && strcmp(ev, "released")))
		return 2;
	for (int i = 0; i < 1000; i++) /* warm the buffers */
		lttng_ust_tracepoint(st_floor, empty);
	double w0 = ns(CLOCK_MONOTONIC), c0 = ns(CLOCK_THREAD_CPUTIME_ID);
	for (long i = 0; i < n; i++) {
		if (empty)
			lttng_ust_tracepoint(st_floor, empty);
		else
			lttng_ust_tracepoint(st_floor, released, &obj, (void *)main, 0, -1,
					     (uint64_t)i, (uint64_t)w0, 0);
	}
	double c1 = ns(CLOCK_THREAD_CPUTIME_ID), w1 = ns(CLOCK_MONOTONIC);
	printf("result: event=%s ns_per_event=%.2f cpu_ns=%.2f\n", ev, (w1 - w0) / n,
	       (c1 - c0) / n);
	return 0;
}
