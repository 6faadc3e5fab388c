/* The condvar's own lock (private condvars): held only to link, unlink and
 * split waiter nodes, so a short spin usually takes it. */
#include "cond/cond.h"
#include "wait/wait.h"

static int take(void *p)
{
	struct st_cond *c = p;
	return st_load_relaxed(&c->lock) == 0 && st_cas_acquire(&c->lock, 0, 1);
}

void st_cond_lock_slow(struct st_cond *c)
{
	int spins;
	if (st_spin(c, 0, take, c, &spins) == ST_SPIN_OUTCOME_ACQUIRED)
		return;
	/* 0/1/2 lock: whoever sleeps leaves 2, so the unlock wakes. */
	while (st_swap_acq_rel(&c->lock, 2) != 0)
		st_futex_wait(&c->lock, 2, 0, CLOCK_REALTIME, 0, c);
}
