/* Two condvar waits whose advice in the report's findings differs by
 * what their wakers do between wakes (analysis/report/findings.c,
 * wakers_busy):
 *   results_cv: main waits for ITEMS results, each computed by "cruncher"
 *     in CRUNCH_NS of its own CPU time, during which it waits on nothing:
 *     the waker is busy, the wait is for its work;
 *   work_cv: "idler" waits for ITEMS items, each posted by "feeder" after
 *     a timed wait of FEED_NS on tick_cv that nothing signals: the waker
 *     itself waits nearly all its life, the idler waits for work.
 * The two run one after the other. usage: wakers_busy */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "check.h"

#define ITEMS 6
#define CRUNCH_NS 15000000LL
#define FEED_NS 15000000LL

static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER,
		       m3 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t results_cv = PTHREAD_COND_INITIALIZER, work_cv = PTHREAD_COND_INITIALIZER,
		      tick_cv = PTHREAD_COND_INITIALIZER;
static int ready, posted;

static int64_t now_ns(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *cruncher(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "cruncher");
	for (int i = 0; i < ITEMS; i++) {
		/* CPU time, not wall time: a loaded machine stretches it, the
		 * thread still waits on nothing meanwhile. */
		int64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + CRUNCH_NS;
		volatile uint64_t x = 0;
		while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
			for (int k = 0; k < 1000; k++)
				x += (uint64_t)k;
		CHECK_EQ(pthread_mutex_lock(&m1), 0);
		ready++;
		CHECK_EQ(pthread_cond_signal(&results_cv), 0);
		CHECK_EQ(pthread_mutex_unlock(&m1), 0);
	}
	return 0;
}

static void *idler(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "idler");
	CHECK_EQ(pthread_mutex_lock(&m2), 0);
	for (int i = 0; i < ITEMS; i++)
		while (posted <= i)
			CHECK_EQ(pthread_cond_wait(&work_cv, &m2), 0);
	CHECK_EQ(pthread_mutex_unlock(&m2), 0);
	return 0;
}

static void *feeder(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "feeder");
	for (int i = 0; i < ITEMS; i++) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += FEED_NS;
		if (until.tv_nsec >= 1000000000L)
			until.tv_sec++, until.tv_nsec -= 1000000000L;
		CHECK_EQ(pthread_mutex_lock(&m3), 0);
		int r;
		do /* (nothing signals tick_cv: only a spurious return comes early) */
			r = pthread_cond_timedwait(&tick_cv, &m3, &until);
		while (r == 0);
		CHECK_EQ(r, ETIMEDOUT);
		CHECK_EQ(pthread_mutex_unlock(&m3), 0);
		CHECK_EQ(pthread_mutex_lock(&m2), 0);
		posted++;
		CHECK_EQ(pthread_cond_signal(&work_cv), 0);
		CHECK_EQ(pthread_mutex_unlock(&m2), 0);
	}
	return 0;
}

int main(void)
{
	pthread_t t1, t2;
	CHECK_EQ(pthread_create(&t1, 0, cruncher, 0), 0);
	CHECK_EQ(pthread_mutex_lock(&m1), 0);
	for (int got = 0; got < ITEMS; got++)
		while (ready <= got)
			CHECK_EQ(pthread_cond_wait(&results_cv, &m1), 0);
	CHECK_EQ(pthread_mutex_unlock(&m1), 0);
	CHECK_EQ(pthread_join(t1, 0), 0);

	CHECK_EQ(pthread_create(&t1, 0, idler, 0), 0);
	CHECK_EQ(pthread_create(&t2, 0, feeder, 0), 0);
	CHECK_EQ(pthread_join(t1, 0), 0);
	CHECK_EQ(pthread_join(t2, 0), 0);
	printf("wakers_busy: %d results, %d items\n", ready, posted);
	return 0;
}
