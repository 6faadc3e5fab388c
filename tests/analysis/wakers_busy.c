/* Condvar waits whose advice in the report's findings differs by what
 * their wakers do between wakes (analysis/report/findings.c, wakers_life):
 * usage: wakers_busy busy|busy-joined|idle
 *   busy: input_cv: main waits for ITEMS inputs, each posted by "napper"
 *     after a nanosleep of NAP_NS: the waker is blocked outside any
 *     object, the wait is for its input; then
 *     results_cv: main waits for ITEMS results, each computed by
 *     "cruncher" in CRUNCH_NS of its own CPU time, during which it waits on
 *     nothing: the waker is on a CPU, the wait is for its work (the
 *     cruncher then sleeps until the process ends, at once, unjoined: its
 *     times come at the exit, thread:times, not with a thread:exit, and at
 *     the summary level its aggregates come from the exiting thread, naming
 *     it; busy-joined joins it);
 *   idle: work_cv: "idler" waits for ITEMS items, each posted by "feeder"
 *     after a timed wait of FEED_NS on tick_cv that nothing signals: the
 *     waker itself waits nearly all its life, the idler waits for work.
 * Each mode's waits run one after the other. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define ITEMS 6
#define CRUNCH_NS 15000000LL
#define FEED_NS 15000000LL
#define NAP_NS 15000000LL

static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER,
		       m3 = PTHREAD_MUTEX_INITIALIZER, m4 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t results_cv = PTHREAD_COND_INITIALIZER, work_cv = PTHREAD_COND_INITIALIZER,
		      tick_cv = PTHREAD_COND_INITIALIZER, input_cv = PTHREAD_COND_INITIALIZER;
static int ready, posted, napped, quit_after;

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
	while (!quit_after) /* alive at the process's exit */
		pause();
	return 0;
}

static void *napper(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "napper");
	for (int i = 0; i < ITEMS; i++) {
		struct timespec nap = { 0, NAP_NS };
		while (nanosleep(&nap, &nap) && errno == EINTR)
			;
		CHECK_EQ(pthread_mutex_lock(&m4), 0);
		napped++;
		CHECK_EQ(pthread_cond_signal(&input_cv), 0);
		CHECK_EQ(pthread_mutex_unlock(&m4), 0);
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

/* main waits for ITEMS counts of *n under m on cv, made by fn's thread
 * (joined if join). */
static void main_waits_for(void *(*fn)(void *), pthread_mutex_t *m, pthread_cond_t *cv, int *n,
			   int join)
{
	pthread_t t;
	CHECK_EQ(pthread_create(&t, 0, fn, 0), 0);
	CHECK_EQ(pthread_mutex_lock(m), 0);
	for (int got = 0; got < ITEMS; got++)
		while (*n <= got)
			CHECK_EQ(pthread_cond_wait(cv, m), 0);
	CHECK_EQ(pthread_mutex_unlock(m), 0);
	if (join)
		CHECK_EQ(pthread_join(t, 0), 0);
}

int main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "busy") || !strcmp(argv[1], "busy-joined"))) {
		quit_after = !strcmp(argv[1], "busy-joined");
		main_waits_for(napper, &m4, &input_cv, &napped, 1);
		main_waits_for(cruncher, &m1, &results_cv, &ready, quit_after);
		printf("wakers_busy busy: %d results, %d inputs\n", ready, napped);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "idle")) {
		pthread_t t1, t2;
		CHECK_EQ(pthread_create(&t1, 0, idler, 0), 0);
		CHECK_EQ(pthread_create(&t2, 0, feeder, 0), 0);
		CHECK_EQ(pthread_join(t1, 0), 0);
		CHECK_EQ(pthread_join(t2, 0), 0);
		printf("wakers_busy idle: %d items\n", posted);
		return 0;
	}
	fprintf(stderr, "usage: wakers_busy busy|idle\n");
	return 2;
}
