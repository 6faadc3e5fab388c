/* The timed-wait race (seed 000's open question): waiters wait on one
 * condvar with timeouts of 10-100 us while signalers keep signalling it,
 * so signals meet waiters that are just timing out. The trace shows how
 * often that happens and what it costs the signalers. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "demo.h"

struct race {
	pthread_mutex_t lock;
	pthread_cond_t cond;     /* CLOCK_MONOTONIC */
	double deadline;
	long waits, timeouts, signals;
};

double demo_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void busy_us(double us)
{
	double end = demo_now() + us / 1e6;
	while (demo_now() < end)
		;
}

static void *waiter(void *arg)
{
	struct race *r = arg;
	unsigned seed = (unsigned)(size_t)&seed;
	long waits = 0, timeouts = 0;
	while (demo_now() < r->deadline) {
		struct timespec abs;
		clock_gettime(CLOCK_MONOTONIC, &abs);
		abs.tv_nsec += (10 + rand_r(&seed) % 91) * 1000L;
		if (abs.tv_nsec >= 1000000000L) {
			abs.tv_sec++;
			abs.tv_nsec -= 1000000000L;
		}
		pthread_mutex_lock(&r->lock);
		if (pthread_cond_timedwait(&r->cond, &r->lock, &abs) == ETIMEDOUT)
			timeouts++;
		waits++;
		pthread_mutex_unlock(&r->lock);
		busy_us(5);
	}
	pthread_mutex_lock(&r->lock);
	r->waits += waits;
	r->timeouts += timeouts;
	pthread_mutex_unlock(&r->lock);
	return 0;
}

static void *signaler(void *arg)
{
	struct race *r = arg;
	long signals = 0;
	while (demo_now() < r->deadline) {
		pthread_mutex_lock(&r->lock);
		pthread_cond_signal(&r->cond);
		pthread_mutex_unlock(&r->lock);
		signals++;
		busy_us(40);
	}
	pthread_mutex_lock(&r->lock);
	r->signals += signals;
	pthread_mutex_unlock(&r->lock);
	return 0;
}

int timedrace_run(int waiters, int signalers, long ms, struct timedrace_result *res)
{
	struct race r = { .deadline = demo_now() + ms / 1e3 };
	pthread_condattr_t ca;
	pthread_t t[64];
	int n = 0;
	if (waiters + signalers > 64)
		return -1;
	pthread_mutex_init(&r.lock, 0);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r.cond, &ca);
	pthread_condattr_destroy(&ca);
	for (int i = 0; i < waiters; i++)
		pthread_create(&t[n++], 0, waiter, &r);
	for (int i = 0; i < signalers; i++)
		pthread_create(&t[n++], 0, signaler, &r);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], 0);
	pthread_cond_destroy(&r.cond);
	pthread_mutex_destroy(&r.lock);
	res->waits = r.waits;
	res->timeouts = r.timeouts;
	res->signaled = r.waits - r.timeouts;
	res->signals = r.signals;
	return 0;
}
