/* Destroying a barrier or a condvar while threads are blocked on it
 * (POSIX: undefined). Each case runs the destroy in a thread of its own and
 * sees whether it returns or sleeps while the waiter is still blocked. */
#include <errno.h>
#include <pthread.h>

#include "check.h"
#include "conformance.h"

struct destroyer {
	int (*destroy)(void *);
	void *obj;
	volatile int tid, calling, done;
	int ret;
};

static void *destroy_thread(void *p)
{
	struct destroyer *d = p;
	d->tid = conf_gettid();
	__atomic_store_n(&d->calling, 1, __ATOMIC_RELEASE);
	d->ret = d->destroy(d->obj);
	__atomic_store_n(&d->done, 1, __ATOMIC_RELEASE);
	return 0;
}

/* Start the destroy; returns 1 if it sleeps, 0 if it returned. */
static int start_destroy(pthread_t *t, struct destroyer *d)
{
	CHECK_EQ(pthread_create(t, 0, destroy_thread, d), 0);
	conf_wait_flag(&d->calling);
	return conf_wait_asleep(d->tid, &d->done);
}

/* ---- barrier: glibc's destroy sleeps until another arrival completes the
 * round, then returns 0; so does ours. But glibc's destroy resets the
 * barrier once the completing thread has left, and a thread of that round
 * that was not yet awake then finds the round number back at 0 and sleeps
 * for ever (most runs here): glibc mode does not wait for it. Ours waits
 * for every thread of the round to leave, and each returns. The completing
 * (last) arrival is the serial thread in both. */
static pthread_barrier_t bar;
static volatile int bar_tid, bar_done;
static int bar_ret;

static void *bar_waiter(void *p)
{
	(void)p;
	bar_tid = conf_gettid();
	bar_ret = pthread_barrier_wait(&bar);
	__atomic_store_n(&bar_done, 1, __ATOMIC_RELEASE);
	return 0;
}

static int destroy_barrier(void *b)
{
	return pthread_barrier_destroy(b);
}

void barrier_destroy_waits_for_round(void)
{
	pthread_t w, dt;
	struct destroyer d = { .destroy = destroy_barrier, .obj = &bar };
	CHECK_EQ(pthread_barrier_init(&bar, 0, 2), 0);
	CHECK_EQ(pthread_create(&w, 0, bar_waiter, 0), 0);
	conf_wait_flag(&bar_tid);
	CHECK(conf_wait_asleep(bar_tid, &bar_done)); /* blocked in the round */
	CHECK_EQ(start_destroy(&dt, &d), 1);       /* destroy sleeps */
	CHECK(!__atomic_load_n(&bar_done, __ATOMIC_ACQUIRE));
	/* The second arrival completes the round: everybody returns. */
	CHECK_EQ(pthread_barrier_wait(&bar), PTHREAD_BARRIER_SERIAL_THREAD);
	CHECK_EQ(pthread_join(dt, 0), 0);
	CHECK_EQ(d.ret, 0);
	if (!st_test_preloaded())
		return; /* the waiter may never return (above) */
	CHECK_EQ(pthread_join(w, 0), 0);
	CHECK_EQ(bar_ret, 0);
}

/* ---- condvars: a waiter blocked in pthread_cond_wait; it leaves by
 * cancellation (glibc forbids a signal concurrent with the destroy). */
struct cwait {
	pthread_cond_t c;
	pthread_mutex_t m;
	volatile int tid, go;
};

static void unlock(void *m)
{
	pthread_mutex_unlock(m);
}

static void *cond_waiter(void *p)
{
	struct cwait *w = p;
	CHECK_EQ(pthread_mutex_lock(&w->m), 0);
	w->tid = conf_gettid();
	pthread_cleanup_push(unlock, &w->m);
	while (!w->go)
		CHECK_EQ(pthread_cond_wait(&w->c, &w->m), 0);
	pthread_cleanup_pop(1);
	return (void *)1;
}

static int destroy_cond(void *c)
{
	return pthread_cond_destroy(c);
}

/* The waiter is blocked (asleep, the mutex released). */
static void start_waiter(struct cwait *w, pthread_t *t, int pshared)
{
	pthread_condattr_t ca;
	pthread_mutexattr_t ma;
	volatile int never = 0;
	CHECK_EQ(pthread_condattr_init(&ca), 0);
	CHECK_EQ(pthread_mutexattr_init(&ma), 0);
	if (pshared) {
		CHECK_EQ(pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED), 0);
		CHECK_EQ(pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED), 0);
	}
	CHECK_EQ(pthread_cond_init(&w->c, &ca), 0);
	CHECK_EQ(pthread_mutex_init(&w->m, &ma), 0);
	CHECK_EQ(pthread_create(t, 0, cond_waiter, w), 0);
	conf_wait_flag(&w->tid);
	CHECK(conf_wait_asleep(w->tid, &never));
	/* Asleep in the wait, so the mutex is free again. */
	CHECK_EQ(pthread_mutex_lock(&w->m), 0);
	CHECK_EQ(pthread_mutex_unlock(&w->m), 0);
}

/* Cancel the blocked waiter; it leaves through its cleanup handler. */
static void cancel_waiter(struct cwait *w, pthread_t t)
{
	void *r;
	(void)w;
	CHECK_EQ(pthread_cancel(t), 0);
	CHECK_EQ(pthread_join(t, &r), 0);
	CHECK(r == PTHREAD_CANCELED);
}

/* Private condvar. glibc: destroy sleeps until the waiter has left, then
 * returns 0. synctrace: EBUSY at once, the condvar left as it was (the
 * waiter is still queued: a signal wakes it), then 0. */
void cond_destroy_waiter_busy(void)
{
	static struct cwait w;
	pthread_t t, dt;
	struct destroyer d = { .destroy = destroy_cond, .obj = &w.c };
	start_waiter(&w, &t, 0);
	if (!st_test_preloaded()) {
		CHECK_EQ(start_destroy(&dt, &d), 1);
		cancel_waiter(&w, t);
		CHECK_EQ(pthread_join(dt, 0), 0);
		CHECK_EQ(d.ret, 0);
		return;
	}
	CHECK_EQ(start_destroy(&dt, &d), 0);
	CHECK_EQ(pthread_join(dt, 0), 0);
	CHECK_EQ(d.ret, EBUSY);
	void *r;
	CHECK_EQ(pthread_mutex_lock(&w.m), 0);
	w.go = 1;
	CHECK_EQ(pthread_cond_signal(&w.c), 0);
	CHECK_EQ(pthread_mutex_unlock(&w.m), 0);
	CHECK_EQ(pthread_join(t, &r), 0);
	CHECK(r == (void *)1);
	CHECK_EQ(pthread_cond_destroy(&w.c), 0);
}

/* Process-shared condvar: destroy sleeps until the waiter has left, then
 * returns 0, in glibc and in synctrace. */
void cond_destroy_pshared_waits(void)
{
	static struct cwait w;
	pthread_t t, dt;
	struct destroyer d = { .destroy = destroy_cond, .obj = &w.c };
	start_waiter(&w, &t, 1);
	CHECK_EQ(start_destroy(&dt, &d), 1);
	cancel_waiter(&w, t);
	CHECK_EQ(pthread_join(dt, 0), 0);
	CHECK_EQ(d.ret, 0);
}
