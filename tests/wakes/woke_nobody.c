/* Unlocks that woke nobody, and unlocks that woke a thread that won. K
 * rounds on a normal mutex: main holds `lock`, the worker blocks on it
 * and main unlocks once the worker sleeps in the kernel (its /proc
 * syscall line): main's unlock wakes it (woken 1, won). The worker took
 * the lock from the sleep loop, which marks it contended (src/mutex/
 * mutex.h), so its own unlock issues a wake that finds nobody.
 * usage: woke_nobody K
 * Ledger (check-wakes.sh): main's unlock site K calls, K woken, K won;
 * the worker's unlock site K calls, K woke nobody. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "wl_util.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int phase, done, worker_tid;
static int K;

__attribute__((noinline)) static void worker_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

__attribute__((noinline)) static void main_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

static void *worker(void *arg)
{
	(void)arg;
	atomic_store(&worker_tid, wl_gettid());
	for (int i = 0; i < K; i++) {
		while (atomic_load(&phase) != i + 1)
			usleep(100);
		pthread_mutex_lock(&lock);
		worker_unlock();
		atomic_store(&done, i + 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	K = argc > 1 ? atoi(argv[1]) : 4;
	pthread_t t;
	CHECK(pthread_create(&t, NULL, worker, NULL) == 0);
	while (!atomic_load(&worker_tid))
		usleep(100);
	for (int i = 0; i < K; i++) {
		pthread_mutex_lock(&lock);
		atomic_store(&phase, i + 1);
		wl_wait_asleep_on(atomic_load(&worker_tid), &lock);
		main_unlock();
		while (atomic_load(&done) != i + 1)
			usleep(100);
	}
	CHECK(pthread_join(t, NULL) == 0);
	printf("woke_nobody: K=%d done\n", K);
	return 0;
}
