/* Contended rounds whose numbers are known (as tests/trace/mutex_exact.c):
 * in round r main holds `m`, the worker's lock finds it held and sleeps
 * (run with SYNCTRACE_SPIN=none), main sees it asleep in the kernel and
 * releases: per round one contended acquisition after one sleep, two
 * futex wakes (main's, waking the worker; the worker's unlock's, waking
 * nobody). Handshakes are plain atomics. */
#ifndef SUMMARY_ROUNDS_H
#define SUMMARY_ROUNDS_H

#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile int worker_tid, go, done_round;

/* The worker: arg rounds (0: until the process ends), then it exits. */
static void *round_worker(void *arg)
{
	int rounds = (int)(intptr_t)arg;
	__atomic_store_n(&worker_tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (int r = 1; !rounds || r <= rounds; r++) {
		while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) != r)
			usleep(100);
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
		__atomic_store_n(&done_round, r, __ATOMIC_RELEASE);
	}
	return 0;
}

static void start_worker(pthread_t *t, int rounds)
{
	worker_tid = go = done_round = 0;
	CHECK_EQ(pthread_create(t, 0, round_worker, (void *)(intptr_t)rounds), 0);
	while (!__atomic_load_n(&worker_tid, __ATOMIC_ACQUIRE))
		usleep(100);
}

static void contended_round(int r)
{
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	__atomic_store_n(&go, r, __ATOMIC_RELEASE);
	while (!st_thread_in_futex_wait(worker_tid))
		usleep(200);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	while (__atomic_load_n(&done_round, __ATOMIC_ACQUIRE) != r)
		usleep(100);
}

#endif
