/* A demo-like program whose waits are known exactly (run with
 * SYNCTRACE_SPIN=none): HOT_ROUNDS times main holds `hot_lock` until the
 * worker is seen asleep on it in the kernel, COLD_ROUNDS times
 * `cold_lock`, a few milliseconds apart, so a live view at a short
 * interval sees them over several snapshots. Expected: hot_lock 8 mutex
 * waits, cold_lock 2, and hot_lock ranked first (its holds are longer). */
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define HOT_ROUNDS 8
#define COLD_ROUNDS 2

pthread_mutex_t hot_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t cold_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int worker_tid, go, done_round;
static pthread_mutex_t *volatile which;

static void *worker(void *arg)
{
	(void)arg;
	worker_tid = (int)syscall(SYS_gettid);
	for (int r = 1; r <= HOT_ROUNDS + COLD_ROUNDS; r++) {
		while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) != r)
			usleep(100);
		/* One call site per lock: statically initialised objects are
		 * classed by their first use. */
		if (which == &hot_lock) {
			CHECK_EQ(pthread_mutex_lock(&hot_lock), 0);
			CHECK_EQ(pthread_mutex_unlock(&hot_lock), 0);
		} else {
			CHECK_EQ(pthread_mutex_lock(&cold_lock), 0);
			CHECK_EQ(pthread_mutex_unlock(&cold_lock), 0);
		}
		__atomic_store_n(&done_round, r, __ATOMIC_RELEASE);
	}
	return 0;
}

static void round_on(pthread_mutex_t *m, int r, long hold_us)
{
	CHECK_EQ(pthread_mutex_lock(m), 0);
	which = m;
	__atomic_store_n(&go, r, __ATOMIC_RELEASE);
	while (!st_thread_in_futex_wait(worker_tid))
		usleep(200);
	usleep(hold_us); /* the worker waits this long at least */
	CHECK_EQ(pthread_mutex_unlock(m), 0);
	while (__atomic_load_n(&done_round, __ATOMIC_ACQUIRE) != r)
		usleep(100);
	usleep(30000);
}

int main(void)
{
	pthread_t t;
	CHECK_EQ(pthread_create(&t, 0, worker, 0), 0);
	while (!worker_tid)
		usleep(100);
	int r = 1;
	for (int i = 0; i < HOT_ROUNDS; i++)
		round_on(&hot_lock, r++, 5000);
	for (int i = 0; i < COLD_ROUNDS; i++)
		round_on(&cold_lock, r++, 500);
	CHECK_EQ(pthread_join(t, 0), 0);
	CHECK_EQ(pthread_mutex_destroy(&hot_lock), 0);
	CHECK_EQ(pthread_mutex_destroy(&cold_lock), 0);
	puts("hot: done");
	return 0;
}
