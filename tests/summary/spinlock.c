/* Contended spinlock acquisitions whose number is known: ROUNDS times,
 * main holds the spinlock while the worker's pthread_spin_lock spins on
 * it; main lets go once the worker has run SPUN_NS of CPU time since it
 * said it would lock (all of which it spent spinning: nothing else is
 * left for it to do), so every round is one contended acquisition, on a
 * loaded machine too (CPU time, not wall time). Then the worker locks
 * ROUNDS times uncontended (no event). */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 5
#define SPUN_NS 2000000ll

static pthread_spinlock_t sl;
static volatile int go, trying, done_round;

static void wait_for(volatile int *v, int want)
{
	while (__atomic_load_n(v, __ATOMIC_ACQUIRE) != want)
		usleep(100);
}

static long long cpu_ns(clockid_t clk)
{
	struct timespec ts;
	CHECK_EQ(clock_gettime(clk, &ts), 0);
	return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static void *worker(void *arg)
{
	(void)arg;
	for (int r = 1; r <= ROUNDS; r++) {
		wait_for(&go, r);
		__atomic_store_n(&trying, r, __ATOMIC_RELEASE);
		CHECK_EQ(pthread_spin_lock(&sl), 0);
		CHECK_EQ(pthread_spin_unlock(&sl), 0);
		__atomic_store_n(&done_round, r, __ATOMIC_RELEASE);
	}
	for (int r = 0; r < ROUNDS; r++) {
		CHECK_EQ(pthread_spin_lock(&sl), 0);
		CHECK_EQ(pthread_spin_unlock(&sl), 0);
	}
	return 0;
}

int main(void)
{
	pthread_t t;
	clockid_t clk;
	CHECK_EQ(pthread_spin_init(&sl, PTHREAD_PROCESS_PRIVATE), 0);
	CHECK_EQ(pthread_create(&t, 0, worker, 0), 0);
	CHECK_EQ(pthread_getcpuclockid(t, &clk), 0);
	for (int r = 1; r <= ROUNDS; r++) {
		CHECK_EQ(pthread_spin_lock(&sl), 0);
		__atomic_store_n(&go, r, __ATOMIC_RELEASE);
		wait_for(&trying, r);
		long long since = cpu_ns(clk);
		while (cpu_ns(clk) - since < SPUN_NS)
			usleep(200);
		CHECK_EQ(pthread_spin_unlock(&sl), 0);
		wait_for(&done_round, r);
	}
	CHECK_EQ(pthread_join(t, 0), 0);
	CHECK_EQ(pthread_spin_destroy(&sl), 0);
	printf("spinlock: %d contended rounds\n", ROUNDS);
	return 0;
}
