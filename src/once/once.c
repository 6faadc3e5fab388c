/* pthread_once / call_once past the DONE check. State machine in once.h. */
#include <limits.h>
#include <pthread.h>

#include "internal/futex.h"
#include "once/once.h"

static void finish(volatile int *once, int to, unsigned long long t0, const void *caller)
{
	int old = st_swap_acq_rel(once, to);
	int woken = -1;
	/* Only the address from here: the word may belong to a freed object. */
	if (old == ST_ONCE_WAITED)
		woken = st_futex_wake(once, INT_MAX, 0, (const void *)once);
	st_set_caller(caller);
	if (t0)
		ST_TRACE(once, finished, (const void *)once, caller, to == ST_ONCE_NEVER,
			 woken, st_now_ns() - t0);
}

struct undo {
	volatile int *once;
	unsigned long long t0;
	const void *caller;
};

/* The routine was cancelled, or threw (a landing pad: -fexceptions):
 * RUNNING/WAITED → NEVER, the next caller runs it. */
static void cancelled(void *p)
{
	struct undo *u = p;
	finish(u->once, ST_ONCE_NEVER, u->t0, u->caller);
}

int st_once_slow(volatile int *once, void (*fn)(void), const void *caller)
{
	st_set_caller(caller);
	for (;;) {
		int v = st_load_acquire(once);
		if (v == ST_ONCE_DONE)
			return 0;
		if (v == ST_ONCE_NEVER) {
			if (!st_cas_acquire(once, ST_ONCE_NEVER, ST_ONCE_RUNNING))
				continue;
			struct undo u = { once, st_tracing() ? st_now_ns() : 0, caller };
			ST_TRACE(once, run, (const void *)once, caller, (const void *)fn);
			pthread_cleanup_push(cancelled, &u);
			fn();
			pthread_cleanup_pop(0);
			finish(once, ST_ONCE_DONE, u.t0, caller);
			return 0;
		}
		if (v == ST_ONCE_RUNNING &&
		    !st_cas_acq_rel(once, ST_ONCE_RUNNING, ST_ONCE_WAITED))
			continue;
		/* WAITED: sleep until the runner finishes or is cancelled. The
		 * futex is private: process-shared once objects are not a thing. */
		unsigned long long t0 = st_tracing() ? st_now_ns() : 0;
		ST_TRACE(once, wait, (const void *)once, caller);
		st_futex_wait(once, ST_ONCE_WAITED, 0, CLOCK_REALTIME, 0, (const void *)once);
		if (t0) {
			st_set_caller(caller);
			ST_TRACE(once, waited, (const void *)once, caller, st_now_ns() - t0);
		}
	}
}
