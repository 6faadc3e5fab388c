/* A deterministic workload whose report numbers are known exactly.
 * usage: scenario K W   (both mutexes adaptive: they spin by default)
 *   mutex A: K rounds; the main thread holds A, the worker blocks on it
 *     (spins the whole budget: nobody sleeps yet; then sleeps), main
 *     releases → exactly K contended acquisitions, all after sleeping,
 *     2K futex wakes: K by main, each waking the worker, and K by the
 *     worker's unlocks, waking nobody (a thread that took the lock from
 *     the sleep loop marks it contended: mutex.h); 2K acquisitions in all.
 *   mutex B: W rounds; main holds B, the worker's timedlock sleeps and
 *     times out, leaving the sleepers bit set, main releases → exactly W
 *     timeouts and W futex wakes that woke nobody, W acquisitions.
 * Handshakes use plain atomics (no other synchronization object), and main
 * releases A only once the worker counts itself as a sleeper and has had
 * time to enter the kernel. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t a, b;
static atomic_int phase, done_a, done_b;
static int K = 5, W = 3;

/* synctrace keeps the count of threads in a mutex's sleep loop at offset 8
 * (glibc's __owner: non-zero too while main holds it, so glibc runs pass). */
static int sleepers(pthread_mutex_t *m)
{
	return atomic_load((_Atomic int *)((char *)m + 8));
}

static void wait_for(atomic_int *v, int want)
{
	while (atomic_load(v) != want)
		usleep(100);
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < K; i++) {
		wait_for(&phase, 2 * i + 1);
		pthread_mutex_lock(&a);
		pthread_mutex_unlock(&a);
		atomic_store(&done_a, i + 1);
	}
	for (int j = 0; j < W; j++) {
		wait_for(&phase, 2 * K + 2 * j + 1);
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 20 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000L)
			ts.tv_sec++, ts.tv_nsec -= 1000000000L;
		int r = pthread_mutex_timedlock(&b, &ts);
		if (r != ETIMEDOUT) {
			fprintf(stderr, "scenario: timedlock returned %d, not ETIMEDOUT\n", r);
			exit(1);
		}
		atomic_store(&done_b, j + 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	if (argc > 1)
		K = atoi(argv[1]);
	if (argc > 2)
		W = atoi(argv[2]);
	/* Adaptive: by default only those spin (src/config.h), and the
	 * numbers below include the spin loops. */
	pthread_mutexattr_t at;
	pthread_mutexattr_init(&at);
	pthread_mutexattr_settype(&at, PTHREAD_MUTEX_ADAPTIVE_NP);
	pthread_mutex_init(&a, &at);
	pthread_mutex_init(&b, &at);
	pthread_mutexattr_destroy(&at);
	if (pthread_create(&t, NULL, worker, NULL))
		return 1;
	for (int i = 0; i < K; i++) {
		pthread_mutex_lock(&a);
		atomic_store(&phase, 2 * i + 1);
		while (!sleepers(&a))
			usleep(100);
		usleep(20000); /* let it reach FUTEX_WAIT */
		pthread_mutex_unlock(&a);
		wait_for(&done_a, i + 1);
		atomic_store(&phase, 2 * i + 2);
	}
	for (int j = 0; j < W; j++) {
		pthread_mutex_lock(&b);
		atomic_store(&phase, 2 * K + 2 * j + 1);
		wait_for(&done_b, j + 1);
		pthread_mutex_unlock(&b);
		atomic_store(&phase, 2 * K + 2 * j + 2);
	}
	pthread_join(t, NULL);
	pthread_mutex_destroy(&a);
	pthread_mutex_destroy(&b);
	printf("scenario: K=%d W=%d done\n", K, W);
	return 0;
}
