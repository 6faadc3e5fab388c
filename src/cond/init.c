/* pthread_cond_init / pthread_cond_destroy. */
#include <errno.h>
#include <string.h>

#include "cond/cond.h"

_Static_assert(sizeof(struct st_cond) == sizeof(pthread_cond_t), "cond size");
_Static_assert(_Alignof(struct st_cond) <= _Alignof(pthread_cond_t), "cond alignment");
_Static_assert(__builtin_offsetof(struct st_cond, signals) == 44, "cond layout");
_Static_assert(CLOCK_REALTIME == 0, "an all-zero condvar must use CLOCK_REALTIME");

void st_cond_misuse(struct st_cond *c, const void *caller, int what, const void *mutex,
		    const void *other)
{
	st_cond_ev_misuse(c, caller, what, mutex, other);
}

int st_cond_init(pthread_cond_t *pc, const pthread_condattr_t *a, const void *caller)
{
	struct st_cond *c = st_cond(pc);
	clockid_t clk = CLOCK_REALTIME;
	int pshared = PTHREAD_PROCESS_PRIVATE;

	if (a) {
		/* glibc's getters: the attribute object stays glibc's. */
		pthread_condattr_getclock(a, &clk);
		pthread_condattr_getpshared(a, &pshared);
	}
	memset(c, 0, sizeof(*c));
	c->attr = (clk & ST_COND_CLOCK_MASK) | ST_COND_INITED |
		  (pshared == PTHREAD_PROCESS_SHARED ? ST_COND_PSHARED : 0);
	st_set_caller(caller);
	st_cond_ev_init(c, caller, (int)clk, pshared == PTHREAD_PROCESS_SHARED);
	return 0;
}

/* Set DESTROYING in *count and sleep until the count drains: whoever
 * drops the last one sees DESTROYING and wakes us. */
static void drain(struct st_cond *c, volatile int *count, int shared)
{
	int v;
	do
		v = st_load_relaxed(count);
	while (!st_cas_acq_rel(count, v, v | ST_COND_DESTROYING));
	while ((v = st_load_acquire(count)) & ~ST_COND_DESTROYING)
		st_futex_wait(count, v, shared, CLOCK_REALTIME, 0, c);
}

int st_cond_destroy(pthread_cond_t *pc, const void *caller)
{
	struct st_cond *c = st_cond(pc);

	st_set_caller(caller);
	if (c->attr & ST_COND_PSHARED) {
		/* Waiters already woken may still be counted: wait until the
		 * last has left. */
		drain(c, &c->waiters, 1);
	} else {
		/* Nodes still queued: threads are blocked on c (POSIX:
		 * undefined). glibc's destroy sleeps until they leave, which
		 * only a timeout, a cancel or a signal racing the destroy can
		 * bring; we answer EBUSY and leave c as it was, so a program
		 * that checks can signal them and destroy again (README,
		 * Compatibility with glibc). Only a read of head: a queued
		 * waiter keeps c alive. */
		struct st_cond_waiter *h = st_load_acquire(&c->head);
		if (h) {
			st_cond_misuse(c, caller, ST_COND_MISUSE_DESTROY_WAITERS, 0, h);
			return EBUSY;
		}
		/* Signalers wait for the LEAVING waiters they met. Waiters a
		 * single signal took from their sleep hold a ref until they no
		 * longer use c (cond.h: CANCELLED AND SIGNALED): wait for them;
		 * none needs the mutex to let go, so holding it is fine. */
		/* refs grows only inside a signal, which may not overlap a
		 * destroy: 0 now stays 0. */
		if (st_load_acquire(&c->refs))
			drain(c, &c->refs, 0);
	}
	st_cond_ev_destroy(c, caller, c->waits, c->signals);
	return 0;
}
