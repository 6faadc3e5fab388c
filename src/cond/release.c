/* Releasing a waiter's barrier: the one routine the signaler (for the
 * first of a batch) and every batch member (for the next) use.
 *
 * barrier: 2 held, waiter running (spinning, or on its way to sleep);
 *          3 held, waiter may be asleep on it (it CASed 2→3 first);
 *          0 released.
 * A running waiter needs no system call: one CAS 2→0 and it sees the 0,
 * and it never enters its cancellable sleep. A sleeping one released by a
 * single signal is counted in the condvar's refs and woken (cond.h:
 * CANCELLED AND SIGNALED); one released in a broadcast batch is requeued
 * onto the mutex word when the releaser holds that mutex (counted in its
 * waiters, SLEEPERS set: see cond.h), else woken. `counted` and `ref` are
 * written before the release and read by the waiter after it sees 0, so
 * they are never stale. */
#include "cond/cond.h"
#include "mutex/mutex.h"

int st_cond_release(struct st_cond *c, struct st_cond_waiter *n, pthread_mutex_t *held,
		    int single, int *result)
{
	*result = 0;
	if (st_cond_release_running(n))
		return ST_COND_RELEASE_RUNNING;
	return st_cond_release_sleeper(c, n, held, single, result);
}

int st_cond_release_sleeper(struct st_cond *c, struct st_cond_waiter *n, pthread_mutex_t *held,
			    int single, int *result)
{
	*result = 0;
	/* 3: it may sleep. Only we change it from here. */
	int requeue = 0;
	if (single) {
		/* c is alive: we are inside pthread_cond_signal. The ref is
		 * visible before the release that lets n act on it. */
		st_fetch_add(&c->refs, 1);
		n->ref = 1;
	} else {
		requeue = held && st_mutex_cond_handoff(held);
	}
	n->counted = requeue;
	st_store_release(&n->barrier, 0);
	ST_FAULT_POINT(cond_release_before_wake);
	/* n may return from now on: only its address is used. */
	if (requeue) {
		*result = st_futex_requeue(&n->barrier, 0, 0, 1, &st_mutex(held)->lock, 0, c);
		return ST_COND_RELEASE_REQUEUED;
	}
	*result = st_futex_wake(&n->barrier, 1, 0, c);
	return ST_COND_RELEASE_WOKEN;
}
