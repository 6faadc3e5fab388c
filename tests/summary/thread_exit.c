/* A thread that exits: ROUNDS contended acquisitions of one mutex by a
 * worker thread (main holds it until the worker is asleep in the kernel,
 * as in tests/trace/mutex_exact.c), then the worker exits and main, which
 * joins it, makes ROUNDS more contended acquisitions against a second
 * worker. At the summary level the first worker's aggregates leave with
 * it (synctrace_summary:flushed, reason THREAD_EXIT), the second's too,
 * and main's at process exit. Run with SYNCTRACE_SPIN=none. */
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 4

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile int worker_tid, go, done_round;

static void *worker(void *arg)
{
	(void)arg;
	__atomic_store_n(&worker_tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (int r = 1; r <= ROUNDS; r++) {
		while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) != r)
			usleep(100);
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
		__atomic_store_n(&done_round, r, __ATOMIC_RELEASE);
	}
	return 0;
}

static void rounds_against_a_worker(void)
{
	pthread_t t;
	worker_tid = go = done_round = 0;
	CHECK_EQ(pthread_create(&t, 0, worker, 0), 0);
	while (!__atomic_load_n(&worker_tid, __ATOMIC_ACQUIRE))
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
}

int main(void)
{
	rounds_against_a_worker();
	rounds_against_a_worker();
	printf("thread exit: 2 workers x %d rounds\n", ROUNDS);
	return 0;
}
