#include "wait/wait.h"

#include <errno.h>

struct changed_ctx {
	volatile int *addr;
	int val;
};

static int changed(void *p)
{
	struct changed_ctx *c = p;
	return st_load_acquire(c->addr) != c->val;
}

/* Spin (misses NULL: the default budget; else a hand-off wait, wait.h),
 * then the sleep loop. */
static int spin_then_sleep(const void *obj, volatile int *addr, int val,
			   volatile int *waiters, volatile int *misses, int shared,
			   clockid_t clk, const struct timespec *abs, int interruptible)
{
	struct changed_ctx c = { addr, val };
	int spins, r = 0;

	if ((misses ? st_spin_handoff(obj, waiters, changed, &c, misses, &spins)
		    : st_spin(obj, waiters, changed, &c, &spins)) == ST_SPIN_OUTCOME_ACQUIRED)
		return 0;
	/* Counted before the word is looked at again, both seq_cst: a waker
	 * that changes the word, then finds *waiters 0 (seq_cst too), may skip
	 * its wake (the barrier does). */
	if (waiters)
		__atomic_fetch_add(waiters, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(addr, __ATOMIC_SEQ_CST) == val) {
		r = st_futex_wait(addr, val, shared, clk, abs, obj);
		if (r == ETIMEDOUT || (r == EINTR && interruptible))
			break;
		r = 0;
	}
	if (waiters)
		st_dec(waiters);
	return r;
}

int st_wait(const void *obj, volatile int *addr, int val, volatile int *waiters,
	    int shared, clockid_t clk, const struct timespec *abs, int interruptible)
{
	return spin_then_sleep(obj, addr, val, waiters, 0, shared, clk, abs, interruptible);
}

int st_wait_handoff(const void *obj, volatile int *addr, int val, volatile int *waiters,
		    volatile int *misses, int shared, clockid_t clk,
		    const struct timespec *abs, int interruptible)
{
	return spin_then_sleep(obj, addr, val, waiters, misses, shared, clk, abs, interruptible);
}
