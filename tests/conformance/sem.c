/* Semaphore calls made with a cancellation already pending (POSIX: sem_wait
 * and sem_timedwait are cancellation points, which "shall occur" even when
 * they need not block; Austin Group 1076). The thread disables
 * cancellation, is cancelled, enables it again (deferred: nothing acts
 * yet) and makes one call. Expectations are glibc 2.36's, function by
 * function: sem_wait and sem_timedwait act on the cancel before anything
 * else but the timeout's validity; sem_clockwait acts on it only where it
 * would sleep (not when a token is there, nor for a time before the epoch,
 * which times out at once); sem_trywait is no cancellation point. */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>

#include "check.h"
#include "conformance.h"

struct call {
	int (*op)(sem_t *, const struct timespec *);
	struct timespec abs;
	sem_t sem;
	volatile int ready, cancelled;
	int ret, err;
};

static void *caller(void *p)
{
	struct call *c = p;
	CHECK_EQ(pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, 0), 0);
	__atomic_store_n(&c->ready, 1, __ATOMIC_RELEASE);
	conf_wait_flag(&c->cancelled);
	CHECK_EQ(pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, 0), 0);
	c->ret = c->op(&c->sem, &c->abs);
	c->err = c->ret ? errno : 0;
	return (void *)1;
}

/* Run op with a cancel pending on a semaphore holding `tokens`; returns
 * 1 if the thread was cancelled, else 0 with c->ret/c->err set.
 * *value: the semaphore's value afterwards. */
static int call_cancelled(struct call *c, unsigned tokens, int *value)
{
	pthread_t t;
	void *r;
	CHECK_EQ(sem_init(&c->sem, 0, tokens), 0);
	CHECK_EQ(pthread_create(&t, 0, caller, c), 0);
	conf_wait_flag(&c->ready);
	CHECK_EQ(pthread_cancel(t), 0);
	__atomic_store_n(&c->cancelled, 1, __ATOMIC_RELEASE);
	CHECK_EQ(pthread_join(t, &r), 0);
	CHECK(r == PTHREAD_CANCELED || r == (void *)1);
	CHECK_EQ(sem_getvalue(&c->sem, value), 0);
	CHECK_EQ(sem_destroy(&c->sem), 0);
	return r == PTHREAD_CANCELED;
}

static int op_wait(sem_t *s, const struct timespec *abs)
{
	(void)abs;
	return sem_wait(s);
}

static int op_timedwait(sem_t *s, const struct timespec *abs)
{
	return sem_timedwait(s, abs);
}

static int op_clockwait(sem_t *s, const struct timespec *abs)
{
	return sem_clockwait(s, CLOCK_MONOTONIC, abs);
}

static int op_trywait(sem_t *s, const struct timespec *abs)
{
	(void)abs;
	return sem_trywait(s);
}

static const struct timespec far = { 1L << 40, 0 }; /* never reached */
static const struct timespec past = { 1, 0 };        /* long gone */
static const struct timespec before_epoch = { -1, 0 };
static const struct timespec bad_nsec = { 1, 1000000000L };

/* One call with a cancel pending on a semaphore holding `tokens`: either
 * cancelled, or it returned `ret` with errno `err`; the semaphore then
 * holds `value`. */
enum { RETURNED = 0, CANCELLED = 1 };

static void expect(int (*op)(sem_t *, const struct timespec *), const struct timespec *abs,
		   unsigned tokens, int cancelled, int ret, int err, int value)
{
	struct call c = { .op = op };
	int v;
	if (abs)
		c.abs = *abs;
	CHECK_EQ(call_cancelled(&c, tokens, &v), cancelled);
	if (!cancelled) {
		CHECK_EQ(c.ret, ret);
		CHECK_EQ(c.err, err);
	}
	CHECK_EQ(v, value);
}

/* With a token there: cancelled, the token left. */
void sem_wait_token_cancelled(void)
{
	expect(op_wait, 0, 1, CANCELLED, 0, 0, 1);
}

void sem_timedwait_token_cancelled(void)
{
	expect(op_timedwait, &far, 1, CANCELLED, 0, 0, 1);
}

/* The timeout is checked first: EINVAL, not cancelled, token left. */
void sem_timedwait_einval_not_cancelled(void)
{
	expect(op_timedwait, &bad_nsec, 1, RETURNED, -1, EINVAL, 1);
}

/* A time before the epoch with no token: the cancel acts first. */
void sem_timedwait_expired_cancelled(void)
{
	expect(op_timedwait, &before_epoch, 0, CANCELLED, 0, 0, 0);
}

/* sem_clockwait takes a token there without looking at the cancel. */
void sem_clockwait_token_not_cancelled(void)
{
	expect(op_clockwait, &far, 1, RETURNED, 0, 0, 0);
}

/* With no token, it would sleep: cancelled there (a past time too: the
 * sleep is tried, the kernel would time it out). */
void sem_clockwait_empty_cancelled(void)
{
	expect(op_clockwait, &past, 0, CANCELLED, 0, 0, 0);
}

/* A time before the epoch times out without a sleep: not cancelled. */
void sem_clockwait_expired_not_cancelled(void)
{
	expect(op_clockwait, &before_epoch, 0, RETURNED, -1, ETIMEDOUT, 0);
}

/* No cancellation point, with or without a token. */
void sem_trywait_not_cancelled(void)
{
	expect(op_trywait, 0, 1, RETURNED, 0, 0, 0);
	expect(op_trywait, 0, 0, RETURNED, -1, EAGAIN, 0);
}
