/* A deterministic two-thread scenario whose events are known exactly
 * (run with SYNCTRACE_SPIN=none): ROUNDS times, main holds the mutex, the
 * worker asks for it and is seen asleep in the kernel, main releases.
 * Expected per round: the worker's `requested`, one futex wait (woken),
 * main's release waking exactly one thread, the worker's `acquired` after
 * one sleep; every other lock is uncontended and emits nothing. The
 * check script (mutex_exact_check.sh) counts them in the trace. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 5

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile int worker_tid, go, done_round;

static void *worker(void *arg)
{
	(void)arg;
	worker_tid = (int)syscall(SYS_gettid);
	for (int r = 1; r <= ROUNDS; r++) {
		while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) != r)
			usleep(100);
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
		__atomic_store_n(&done_round, r, __ATOMIC_RELEASE);
	}
	return 0;
}

int main(void)
{
	pthread_t t;
	CHECK_EQ(pthread_create(&t, 0, worker, 0), 0);
	while (!worker_tid)
		usleep(100);
	for (int r = 1; r <= ROUNDS; r++) {
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		__atomic_store_n(&go, r, __ATOMIC_RELEASE);
		while (!st_thread_in_futex_wait(worker_tid))
			usleep(200);
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
		while (__atomic_load_n(&done_round, __ATOMIC_ACQUIRE) != r)
			usleep(100);
	}
	CHECK_EQ(pthread_join(t, 0), 0);
	CHECK_EQ(pthread_mutex_destroy(&m), 0);
	printf("mutex exact: %d rounds\n", ROUNDS);
	return 0;
}
