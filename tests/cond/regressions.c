/* Condvar bugs other implementations had (glibc 13165, musl 2014, 2015,
 * 2020) and a misuse, each forced in a loop. A hang is turned into a
 * failure by timed joins. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "cases.h"
#include "check.h"
#include "util.h"

static void join_within(pthread_t t, int seconds, void **ret)
{
	struct timespec ts = after_ns(CLOCK_REALTIME, seconds * 1000000000LL);
	int r = pthread_timedjoin_np(t, ret, &ts);
	if (r) {
		fprintf(stderr, "a thread did not finish within %d s: lost wakeup\n", seconds);
		exit(1);
	}
}

/* ---- glibc 13165: W1 blocks, signal, W2 starts waiting, W1 must wake. */
static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c1 = PTHREAD_COND_INITIALIZER;
static volatile int blocked1, w1_returned;

static void *w1(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m1);
	__atomic_store_n(&blocked1, 1, __ATOMIC_RELEASE);
	CHECK_EQ(pthread_cond_wait(&c1, &m1), 0); /* one signal is for us */
	w1_returned = 1;
	pthread_mutex_unlock(&m1);
	return 0;
}

static void *w2(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m1); /* blocks until the signaler unlocks */
	struct timespec ts = after_ns(CLOCK_REALTIME, 50000000);
	pthread_cond_timedwait(&c1, &m1, &ts);
	pthread_mutex_unlock(&m1);
	return 0;
}

static void later_waiter_does_not_steal_signal_13165(void)
{
	for (int i = 0; i < 20; i++) {
		pthread_t a, b;
		blocked1 = w1_returned = 0;
		CHECK_EQ(pthread_create(&a, 0, w1, 0), 0);
		wait_for(&blocked1, 1);
		pthread_mutex_lock(&m1); /* W1 is inside the wait now */
		CHECK_EQ(pthread_create(&b, 0, w2, 0), 0);
		usleep(2000); /* W2 queues on the mutex */
		CHECK_EQ(pthread_cond_signal(&c1), 0);
		pthread_mutex_unlock(&m1);
		join_within(a, 5, 0);
		join_within(b, 5, 0);
		CHECK(w1_returned);
	}
}

/* ---- musl 2014: the condvar reused with a different mutex each phase. */
#define PHASE_THREADS 10
static pthread_cond_t c2 = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t pm[2] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER };
static volatile int phase_go, phase_waiting;

static void *phase_waiter(void *arg)
{
	int p = (int)(long)arg;
	pthread_mutex_t *m = &pm[p & 1];
	pthread_mutex_lock(m);
	__atomic_fetch_add(&phase_waiting, 1, __ATOMIC_ACQ_REL);
	while (phase_go != p) {
		struct timespec ts = after_ns(CLOCK_REALTIME, 3000000000LL);
		CHECK(pthread_cond_timedwait(&c2, m, &ts) != ETIMEDOUT);
	}
	pthread_mutex_unlock(m);
	return 0;
}

static void cond_reused_with_new_mutex_each_phase_musl2014(void)
{
	for (int p = 1; p <= 20; p++) {
		pthread_t t[PHASE_THREADS];
		phase_waiting = 0;
		for (int i = 0; i < PHASE_THREADS; i++)
			CHECK_EQ(pthread_create(&t[i], 0, phase_waiter, (void *)(long)p), 0);
		wait_for(&phase_waiting, PHASE_THREADS);
		pthread_mutex_lock(&pm[p & 1]);
		phase_go = p;
		CHECK_EQ(pthread_cond_broadcast(&c2), 0);
		pthread_mutex_unlock(&pm[p & 1]);
		/* no join barrier before the next phase's waiters start on the
		 * other mutex: late returners of this phase overlap with them */
		for (int i = 0; i < PHASE_THREADS; i++)
			join_within(t[i], 5, 0);
	}
}

/* ---- musl 2020: broadcast to 2 waiters while the signaler holds the
 * mutex and an unrelated thread sleeps on that mutex too. */
static pthread_mutex_t m3 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c3 = PTHREAD_COND_INITIALIZER;
static volatile int go3, waiting3, locker_in;

static void *waiter3(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m3);
	__atomic_fetch_add(&waiting3, 1, __ATOMIC_ACQ_REL);
	while (!go3)
		pthread_cond_wait(&c3, &m3);
	pthread_mutex_unlock(&m3);
	return 0;
}

static void *locker3(void *arg)
{
	(void)arg;
	__atomic_store_n(&locker_in, 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&m3); /* an unrelated mutex sleeper */
	usleep(100);
	pthread_mutex_unlock(&m3);
	return 0;
}

static void broadcast_two_waiters_signaler_holds_mutex_musl2020(void)
{
	for (int i = 0; i < 100; i++) {
		pthread_t a, b, l;
		go3 = waiting3 = locker_in = 0;
		CHECK_EQ(pthread_create(&a, 0, waiter3, 0), 0);
		CHECK_EQ(pthread_create(&b, 0, waiter3, 0), 0);
		wait_for(&waiting3, 2);
		pthread_mutex_lock(&m3); /* both are inside the wait now */
		CHECK_EQ(pthread_create(&l, 0, locker3, 0), 0);
		wait_for(&locker_in, 1);
		usleep(i % 3 ? 500 : 0);
		go3 = 1;
		CHECK_EQ(pthread_cond_broadcast(&c3), 0);
		usleep(i % 2 ? 300 : 0); /* waiters time their barrier waits */
		pthread_mutex_unlock(&m3);
		join_within(a, 5, 0);
		join_within(b, 5, 0);
		join_within(l, 5, 0);
	}
	CHECK_EQ(m3.__data.__owner, 0); /* see two_mutexes_at_once_proceeds */
}

/* ---- musl 2015: cancel and signal the same waiter: the signal must not
 * be swallowed by the cancelled thread. */
static pthread_mutex_t m4;
static pthread_cond_t c4 = PTHREAD_COND_INITIALIZER;
static volatile int tokens4, waiting4, cancelled_held;

static void unlock_held(void *arg)
{
	(void)arg;
	/* The mutex is re-acquired before the first cleanup handler runs:
	 * for an error-checking mutex only its holder may unlock it. */
	if (pthread_mutex_unlock(&m4) == 0)
		__atomic_fetch_add(&cancelled_held, 1, __ATOMIC_ACQ_REL);
}

static void *waiter4(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m4);
	__atomic_fetch_add(&waiting4, 1, __ATOMIC_ACQ_REL);
	pthread_cleanup_push(unlock_held, 0);
	while (!tokens4)
		pthread_cond_wait(&c4, &m4);
	tokens4--;
	pthread_cleanup_pop(0);
	pthread_mutex_unlock(&m4);
	return 0;
}

static void cancel_and_signal_same_waiter_musl2015(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&m4, &a);
	int cancelled = 0;
	for (int i = 0; i < 60; i++) {
		pthread_t t1, t2;
		void *r1, *r2;
		tokens4 = waiting4 = 0;
		CHECK_EQ(pthread_create(&t1, 0, waiter4, 0), 0);
		wait_for(&waiting4, 1);
		CHECK_EQ(pthread_create(&t2, 0, waiter4, 0), 0);
		wait_for(&waiting4, 2);
		pthread_mutex_lock(&m4);
		tokens4 = 1;
		if (i & 1) {
			CHECK_EQ(pthread_cond_signal(&c4), 0);
			CHECK_EQ(pthread_cancel(t1), 0);
		} else {
			CHECK_EQ(pthread_cancel(t1), 0);
			CHECK_EQ(pthread_cond_signal(&c4), 0);
		}
		pthread_mutex_unlock(&m4);
		join_within(t1, 5, &r1);
		if (r1 == PTHREAD_CANCELED) {
			cancelled++;
			/* the token is still there: W2 must get it */
			join_within(t2, 5, &r2);
			CHECK(r2 != PTHREAD_CANCELED);
		} else {
			/* W1 took the token; W2 waits for a second one */
			pthread_mutex_lock(&m4);
			tokens4 = 1;
			pthread_cond_signal(&c4);
			pthread_mutex_unlock(&m4);
			join_within(t2, 5, &r2);
		}
		CHECK_EQ(tokens4, 0);
	}
	CHECK_EQ(cancelled_held, cancelled);
	CHECK(cancelled > 0);
	CHECK_EQ(pthread_mutex_trylock(&m4), 0);
	pthread_mutex_unlock(&m4);
}

/* ---- misuse: two mutexes on one condvar at once. glibc proceeds; so
 * must we, without corrupting either mutex (broadcast hands the batch on
 * across the two). */
static pthread_mutex_t mm[2] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER };
static pthread_cond_t c5 = PTHREAD_COND_INITIALIZER;
static volatile int go5, waiting5;

static void *waiter5(void *arg)
{
	pthread_mutex_t *m = &mm[(long)arg & 1];
	pthread_mutex_lock(m);
	__atomic_fetch_add(&waiting5, 1, __ATOMIC_ACQ_REL);
	while (!__atomic_load_n(&go5, __ATOMIC_ACQUIRE))
		pthread_cond_wait(&c5, m);
	pthread_mutex_unlock(m);
	return 0;
}

static void two_mutexes_at_once_proceeds(void)
{
	for (int i = 0; i < 50; i++) {
		pthread_t t[4];
		go5 = waiting5 = 0;
		for (long k = 0; k < 4; k++)
			CHECK_EQ(pthread_create(&t[k], 0, waiter5, (void *)k), 0);
		wait_for(&waiting5, 4);
		pthread_mutex_lock(&mm[i & 1]);
		pthread_mutex_lock(&mm[(i + 1) & 1]);
		__atomic_store_n(&go5, 1, __ATOMIC_RELEASE);
		CHECK_EQ(pthread_cond_broadcast(&c5), 0);
		pthread_mutex_unlock(&mm[i & 1]);
		usleep(100);
		pthread_mutex_unlock(&mm[(i + 1) & 1]);
		for (int k = 0; k < 4; k++)
			join_within(t[k], 5, 0);
	}
	/* both mutexes still work, uncontended; the word at __owner is 0 for
	 * both libraries when free (synctrace keeps its waiter count there:
	 * every requeue hand-off's count was dropped again) */
	for (int k = 0; k < 2; k++) {
		CHECK_EQ(mm[k].__data.__owner, 0);
		CHECK_EQ(pthread_mutex_trylock(&mm[k]), 0);
		CHECK_EQ(pthread_mutex_unlock(&mm[k]), 0);
	}
}

static const struct st_case st_cases[] = {
	ST_CASE(later_waiter_does_not_steal_signal_13165),
	ST_CASE(cond_reused_with_new_mutex_each_phase_musl2014),
	ST_CASE(broadcast_two_waiters_signaler_holds_mutex_musl2020),
	ST_CASE(cancel_and_signal_same_waiter_musl2015),
	ST_CASE(two_mutexes_at_once_proceeds),
};

ST_MAIN(st_check_interposed("pthread_cond_wait"))
