/* Many waiters with very short timeouts racing signalers and broadcasters.
 * Tokens under the mutex account for every signal: each token produced is
 * consumed exactly once, and once the producers stop the waiters drain
 * them all; a hang fails the test (ctest timeout, and a watchdog). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "util.h"

#define WAITERS 8
#define SIGNALERS 2
#define RUN_NS 1200000000LL
#define MIN_TOKENS 1000

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static long tokens, produced, consumed, timeouts, empty_returns, waits;
static volatile int stop;

static void *waiter(void *arg)
{
	unsigned seed = (unsigned)(long)arg;
	pthread_mutex_lock(&m);
	for (;;) {
		if (tokens) {
			tokens--;
			consumed++;
			continue;
		}
		if (__atomic_load_n(&stop, __ATOMIC_ACQUIRE) == 2)
			break;
		/* 5..100 us */
		struct timespec ts = after_ns(CLOCK_MONOTONIC, 5000 + rand_r(&seed) % 95000);
		int r = pthread_cond_clockwait(&c, &m, CLOCK_MONOTONIC, &ts);
		CHECK(r == 0 || r == ETIMEDOUT);
		waits++;
		if (r == ETIMEDOUT)
			timeouts++;
		else if (!tokens)
			empty_returns++; /* spurious, or a barger took it */
	}
	pthread_mutex_unlock(&m);
	return 0;
}

static void *signaler(void *arg)
{
	int broadcaster = (int)(long)arg;
	unsigned seed = 77 + broadcaster;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&m);
		int k = broadcaster ? 1 + rand_r(&seed) % 4 : 1;
		tokens += k;
		produced += k;
		if (broadcaster)
			pthread_cond_broadcast(&c);
		else
			pthread_cond_signal(&c);
		/* half of the signals outside the mutex */
		pthread_mutex_unlock(&m);
		if (rand_r(&seed) & 1)
			pthread_cond_signal(&c);
		usleep(rand_r(&seed) % 50);
	}
	return 0;
}

int main(void)
{
	pthread_t w[WAITERS], s[SIGNALERS];
	st_check_interposed("pthread_cond_clockwait");
	for (long i = 0; i < WAITERS; i++)
		CHECK_EQ(pthread_create(&w[i], 0, waiter, (void *)i), 0);
	for (long i = 0; i < SIGNALERS; i++)
		CHECK_EQ(pthread_create(&s[i], 0, signaler, (void *)i), 0);
	struct timespec d = { RUN_NS / 1000000000LL, RUN_NS % 1000000000LL };
	nanosleep(&d, 0);
	/* On a busy machine (or with fault injection's delays) RUN_NS may see
	 * few tokens: run on until MIN_TOKENS went through (the ctest timeout
	 * bounds it). */
	for (;;) {
		pthread_mutex_lock(&m);
		long p = produced;
		pthread_mutex_unlock(&m);
		if (p > MIN_TOKENS)
			break;
		usleep(10000);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < SIGNALERS; i++)
		CHECK_EQ(pthread_join(s[i], 0), 0);
	pthread_mutex_lock(&m);
	__atomic_store_n(&stop, 2, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	for (int i = 0; i < WAITERS; i++) {
		struct timespec ts = after_ns(CLOCK_REALTIME, 10000000000LL);
		CHECK_EQ(pthread_timedjoin_np(w[i], 0, &ts), 0);
	}
	CHECK_EQ(tokens, 0);
	CHECK_EQ(consumed, produced);
	/* free mutex: glibc's __owner is 0, and synctrace's waiter count there
	 * too (every requeue hand-off dropped its count) */
	CHECK_EQ(m.__data.__owner, 0);
	printf("%s: produced %ld waits %ld timeouts %ld empty-returns %ld\n", st_test_mode(),
	       produced, waits, timeouts, empty_returns);
	return 0;
}
