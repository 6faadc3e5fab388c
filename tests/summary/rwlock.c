/* Rwlock waits whose numbers are known (run with SYNCTRACE_SPIN=none):
 * ROUNDS times, main holds the lock for writing and the worker's rdlock
 * sleeps until main, seeing it asleep in the kernel, releases; ROUNDS
 * times the worker's wrlock sleeps the same way; then
 * one timedrdlock of the worker times out against main's write hold. */
#include <errno.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 3

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static volatile int worker_tid, go, done_round;

static void wait_for(volatile int *v, int want)
{
	while (__atomic_load_n(v, __ATOMIC_ACQUIRE) != want)
		usleep(100);
}

static void *worker(void *arg)
{
	(void)arg;
	__atomic_store_n(&worker_tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (int r = 1; r <= 2 * ROUNDS; r++) {
		wait_for(&go, r);
		if (r <= ROUNDS)
			CHECK_EQ(pthread_rwlock_rdlock(&rw), 0);
		else
			CHECK_EQ(pthread_rwlock_wrlock(&rw), 0);
		CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
		__atomic_store_n(&done_round, r, __ATOMIC_RELEASE);
	}
	wait_for(&go, 2 * ROUNDS + 1);
	struct timespec ts = st_in_ms(CLOCK_REALTIME, 20);
	CHECK_EQ(pthread_rwlock_timedrdlock(&rw, &ts), ETIMEDOUT);
	__atomic_store_n(&done_round, 2 * ROUNDS + 1, __ATOMIC_RELEASE);
	return 0;
}

int main(void)
{
	pthread_t t;
	CHECK_EQ(pthread_create(&t, 0, worker, 0), 0);
	while (!__atomic_load_n(&worker_tid, __ATOMIC_ACQUIRE))
		usleep(100);
	for (int r = 1; r <= 2 * ROUNDS; r++) {
		CHECK_EQ(pthread_rwlock_wrlock(&rw), 0);
		__atomic_store_n(&go, r, __ATOMIC_RELEASE);
		while (!st_thread_in_futex_wait(worker_tid))
			usleep(200);
		CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
		wait_for(&done_round, r);
	}
	CHECK_EQ(pthread_rwlock_wrlock(&rw), 0);
	__atomic_store_n(&go, 2 * ROUNDS + 1, __ATOMIC_RELEASE);
	wait_for(&done_round, 2 * ROUNDS + 1);
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	CHECK_EQ(pthread_join(t, 0), 0);
	return 0;
}
