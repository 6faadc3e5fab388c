/* The built-in demo's workloads (run by tools/synctrace-demo.c). */
#ifndef SYNCTRACE_DEMO_H
#define SYNCTRACE_DEMO_H

struct twoqueue_result {
	double seconds;
	long messages;   /* consumed (2 x n) */
	long wakeups;    /* returns of the consumer's condvar wait */
};

/* Two suppliers put n ints each into their own queue, one consumer drains
 * both. twomutex 0: one mutex + one condvar for both queues; 1: a mutex
 * per queue and a "twomutex" condvar (mutex, condvar, sequence number).
 * Returns 0 when every message arrived. */
int twoqueue_run(int twomutex, long n, struct twoqueue_result *r);

struct timedrace_result {
	long waits, timeouts, signaled, signals;
};

/* waiters wait with timeouts of 10-100 us while signalers signal the
 * same condvar, for ms milliseconds. */
int timedrace_run(int waiters, int signalers, long ms, struct timedrace_result *r);

double demo_now(void);   /* CLOCK_MONOTONIC seconds */

#endif
