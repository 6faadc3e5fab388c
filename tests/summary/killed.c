/* A process killed by a signal: ROUNDS contended acquisitions (as in
 * tests/trace/mutex_exact.c), then, once more than a second has passed
 * (every thread's aggregates are then due), one more round, whose first
 * aggregate in each thread emits that thread's summaries (the age check
 * is on the thread's own path); then SIGKILL. At the summary level the
 * trace holds the first ROUNDS rounds and loses the last one, still in
 * the threads' tables; at the contention level it holds all ROUNDS + 1.
 * Run with SYNCTRACE_SPIN=none. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 3

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile int worker_tid, go, done_round;

static void *worker(void *arg)
{
	(void)arg;
	__atomic_store_n(&worker_tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (int r = 1;; r++) {
		while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) != r)
			usleep(100);
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
		__atomic_store_n(&done_round, r, __ATOMIC_RELEASE);
	}
	return 0;
}

static void round_(int r)
{
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	__atomic_store_n(&go, r, __ATOMIC_RELEASE);
	while (!st_thread_in_futex_wait(worker_tid))
		usleep(200);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	while (__atomic_load_n(&done_round, __ATOMIC_ACQUIRE) != r)
		usleep(100);
}

static double coarse_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void)
{
	pthread_t t;
	CHECK_EQ(pthread_create(&t, 0, worker, 0), 0);
	while (!__atomic_load_n(&worker_tid, __ATOMIC_ACQUIRE))
		usleep(100);
	for (int r = 1; r <= ROUNDS; r++)
		round_(r);
	/* The state needed: more than a second since the last aggregate. */
	double end = coarse_s() + 1.1;
	while (coarse_s() < end)
		usleep(10000);
	round_(ROUNDS + 1);
	printf("killed: %d + 1 rounds\n", ROUNDS);
	fflush(stdout);
	raise(SIGKILL);
	return 1;
}
