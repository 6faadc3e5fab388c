/* Signals that meet a waiter already leaving (cancelled): one goes on to
 * the next waiter, one finds nobody else and is lost.
 * White-box (synctrace's private condvar, src/cond/cond.h): main holds the
 * condvar's own lock (offset 16) while it cancels the oldest waiter, so
 * that waiter turns LEAVING and then sleeps on that lock, unable to unlink
 * itself; main drops the lock without a wake and signals: the signal meets
 * the LEAVING node (and, in the first round, signals the next waiter). A
 * helper wakes the leaver once the signal has split the queue (tail
 * NULL), so it unlinks itself and lets the signaler return.
 * Ledger (check-wakes.sh): the condvar: 2 calls, 2 met leaving, 1 went on,
 * 1 woke nobody, 1 woken, 1 won. */
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "wl_util.h"

static pthread_mutex_t mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int flag;
static atomic_int leaver_tid;

#define COND_TAIL(c) ((void *volatile *)((char *)(c) + 8))
#define COND_LOCK(c) ((int *)((char *)(c) + 16))
#define COND_WAITS(c) ((uint32_t *)((char *)(c) + 40))

static void unlock_mx(void *p)
{
	pthread_mutex_unlock(p);
}

static void *leaver(void *arg)
{
	(void)arg;
	atomic_store(&leaver_tid, wl_gettid());
	pthread_mutex_lock(&mx);
	pthread_cleanup_push(unlock_mx, &mx);
	while (!flag)
		pthread_cond_wait(&cv, &mx);
	pthread_cleanup_pop(1);
	return NULL;
}

static void *stayer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mx);
	while (!flag)
		pthread_cond_wait(&cv, &mx);
	pthread_mutex_unlock(&mx);
	return NULL;
}

/* Wake the leaver asleep on the condvar's lock once the signal has taken
 * the queue (any wake of it is fine: it retries the lock). */
static void *waker(void *arg)
{
	(void)arg;
	while (__atomic_load_n(COND_TAIL(&cv), __ATOMIC_ACQUIRE))
		usleep(100);
	syscall(SYS_futex, COND_LOCK(&cv), FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	return NULL;
}

static void wait_waits(uint32_t n)
{
	while (__atomic_load_n(COND_WAITS(&cv), __ATOMIC_ACQUIRE) != n)
		usleep(100);
}

__attribute__((noinline)) static void signal_one(void)
{
	pthread_cond_signal(&cv);
}

static void round_(int with_next, uint32_t *waits)
{
	pthread_t l, s, w;
	atomic_store(&leaver_tid, 0);
	CHECK(pthread_create(&l, NULL, leaver, NULL) == 0);
	wait_waits(++*waits);
	if (with_next) {
		CHECK(pthread_create(&s, NULL, stayer, NULL) == 0);
		wait_waits(++*waits);
	}
	int zero = 0;
	while (!__atomic_compare_exchange_n(COND_LOCK(&cv), &zero, 1, 0, __ATOMIC_ACQUIRE,
					    __ATOMIC_RELAXED))
		zero = 0;
	CHECK(pthread_cancel(l) == 0);
	wl_wait_asleep_on(atomic_load(&leaver_tid), COND_LOCK(&cv));
	__atomic_store_n(COND_LOCK(&cv), 0, __ATOMIC_RELEASE); /* no wake: it sleeps on */
	CHECK(pthread_create(&w, NULL, waker, NULL) == 0);
	pthread_mutex_lock(&mx);
	flag = with_next;
	signal_one();
	pthread_mutex_unlock(&mx);
	void *ret;
	CHECK(pthread_join(l, &ret) == 0);
	CHECK(ret == PTHREAD_CANCELED);
	if (with_next)
		CHECK(pthread_join(s, NULL) == 0);
	CHECK(pthread_join(w, NULL) == 0);
	pthread_mutex_lock(&mx);
	flag = 0;
	pthread_mutex_unlock(&mx);
}

int main(void)
{
	uint32_t waits = 0;
	round_(1, &waits);
	round_(0, &waits);
	printf("signal_leaving: done\n");
	return 0;
}
