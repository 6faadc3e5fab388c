/* Cancellation of waiters at random points (deferred, glibc's
 * pthread_cancel): a cancelled waiter runs its cleanup handler with the
 * mutex held (error-checking: only the holder can unlock it), no token is
 * lost, nobody hangs. Signals and broadcasts race the cancellations. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "cases.h"
#include "check.h"
#include "util.h"

#define WAITERS 4
#define ROUNDS 150

static pthread_mutex_t m;
static pthread_cond_t c;
static int tokens, consumed, handler_held, handler_runs;
static volatile int stop;

static void cleanup(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&handler_runs, 1, __ATOMIC_ACQ_REL);
	if (pthread_mutex_unlock(&m) == 0)
		__atomic_fetch_add(&handler_held, 1, __ATOMIC_ACQ_REL);
}

static void *waiter(void *arg)
{
	unsigned seed = (unsigned)(long)arg;
	pthread_mutex_lock(&m);
	pthread_cleanup_push(cleanup, 0);
	while (!stop) {
		if (tokens) {
			tokens--;
			consumed++;
			continue;
		}
		if (rand_r(&seed) & 1) {
			pthread_cond_wait(&c, &m);
		} else {
			struct timespec ts = after_ns(CLOCK_REALTIME, 10000 + rand_r(&seed) % 300000);
			pthread_cond_timedwait(&c, &m, &ts);
		}
	}
	pthread_cleanup_pop(1);
	return 0;
}

/* One pass over a private or a process-shared condvar. */
static void run(int pshared)
{
	pthread_mutexattr_t a;
	pthread_condattr_t ca;
	pthread_t t[WAITERS];
	unsigned seed = 12345;
	int cancelled = 0, produced = 0;

	tokens = consumed = handler_held = handler_runs = 0;
	stop = 0;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&m, &a);
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, pshared ? PTHREAD_PROCESS_SHARED : PTHREAD_PROCESS_PRIVATE);
	pthread_cond_init(&c, &ca);
	for (long i = 0; i < WAITERS; i++)
		CHECK_EQ(pthread_create(&t[i], 0, waiter, (void *)i), 0);
	for (int r = 0; r < ROUNDS; r++) {
		int k = rand_r(&seed) % WAITERS;
		usleep(rand_r(&seed) % 400);
		pthread_mutex_lock(&m);
		tokens++;
		produced++;
		if (rand_r(&seed) % 3)
			pthread_cond_signal(&c);
		else
			pthread_cond_broadcast(&c);
		/* cancel with the mutex held (the victim cannot be past its
		 * re-acquisition) or released */
		int held = rand_r(&seed) & 1;
		if (!held)
			pthread_mutex_unlock(&m);
		CHECK_EQ(pthread_cancel(t[k]), 0);
		if (held)
			pthread_mutex_unlock(&m);
		void *ret;
		struct timespec ts = after_ns(CLOCK_REALTIME, 5000000000LL);
		CHECK_EQ(pthread_timedjoin_np(t[k], &ret, &ts), 0);
		CHECK(ret == PTHREAD_CANCELED);
		cancelled++;
		CHECK_EQ(pthread_create(&t[k], 0, waiter, (void *)(long)(r + 100)), 0);
	}
	pthread_mutex_lock(&m);
	stop = 1;
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	for (int i = 0; i < WAITERS; i++) {
		struct timespec ts = after_ns(CLOCK_REALTIME, 5000000000LL);
		CHECK_EQ(pthread_timedjoin_np(t[i], 0, &ts), 0);
	}
	CHECK_EQ(handler_runs, cancelled + WAITERS);
	CHECK_EQ(handler_held, handler_runs);
	CHECK_EQ(consumed + tokens, produced);
	CHECK_EQ(pthread_mutex_trylock(&m), 0);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	CHECK_EQ(m.__data.__owner, 0); /* see stress_timeouts.c */
	CHECK_EQ(pthread_cond_destroy(&c), 0);
	CHECK_EQ(pthread_mutex_destroy(&m), 0);
}

static void cancel_waiters_private(void)
{
	run(0);
}

static void cancel_waiters_process_shared(void)
{
	run(1);
}

static const struct st_case st_cases[] = {
	ST_CASE(cancel_waiters_private),
	ST_CASE(cancel_waiters_process_shared),
};

ST_MAIN(st_check_interposed("pthread_cond_wait"))
