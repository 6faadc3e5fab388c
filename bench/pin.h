/* ST_BENCH_PIN=1: thread i of a hand-off benchmark runs on CPU i modulo
 * the CPUs online only. On a 2-CPU VM two threads that hand off otherwise
 * share one CPU part of the time and hand off through the scheduler,
 * faster than across CPUs: a run's rate then says how often they shared
 * one as much as what a hand-off costs (bench/README.md, session 21 and
 * "Per-CPU anchors, session 24"). Pinned, every hand-off crosses CPUs
 * and untraced runs agree with each other within a few percent. */
#ifndef ST_BENCH_PIN_H
#define ST_BENCH_PIN_H

#ifndef _GNU_SOURCE
#error "pin.h needs _GNU_SOURCE defined before the first include"
#endif

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Called by thread i itself; who names the benchmark in a complaint. */
static inline void st_bench_pin(const char *who, int i)
{
	const char *p = getenv("ST_BENCH_PIN");
	if (!p || strcmp(p, "1"))
		return;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(i % (n > 0 ? (int)n : 1), &s);
	if (pthread_setaffinity_np(pthread_self(), sizeof(s), &s))
		fprintf(stderr, "%s: cannot pin thread %d\n", who, i);
}

#endif
