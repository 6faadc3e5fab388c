/* Helpers shared by the condvar tests. */
#ifndef COND_TEST_UTIL_H
#define COND_TEST_UTIL_H

#include <pthread.h>
#include <time.h>

/* Absolute time ns from now on clk. */
static inline struct timespec after_ns(clockid_t clk, long long ns)
{
	struct timespec t;
	clock_gettime(clk, &t);
	ns += t.tv_nsec;
	t.tv_sec += ns / 1000000000LL;
	t.tv_nsec = ns % 1000000000LL;
	return t;
}

static inline long long now_ns(clockid_t clk)
{
	struct timespec t;
	clock_gettime(clk, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Wait (with a generous limit) until *p reaches at least v: for "thread
 * is now blocked" ordering the tests need; then let it settle into the
 * futex sleep. */
static inline void wait_for(volatile int *p, int v)
{
	long long end = now_ns(CLOCK_MONOTONIC) + 5000000000LL;
	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) < v && now_ns(CLOCK_MONOTONIC) < end) {
		struct timespec d = { 0, 200000 };
		nanosleep(&d, 0);
	}
}

static inline void settle(void)
{
	struct timespec d = { 0, 20000000 }; /* 20 ms */
	nanosleep(&d, 0);
}

#endif
