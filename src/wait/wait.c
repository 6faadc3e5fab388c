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

int st_wait(const void *obj, volatile int *addr, int val, volatile int *waiters,
	    int shared, clockid_t clk, const struct timespec *abs, int interruptible)
{
	struct changed_ctx c = { addr, val };
	int spins, r = 0;

	if (st_spin(obj, waiters, changed, &c, &spins) == ST_SPUN_ACQUIRED)
		return 0;
	if (waiters)
		st_inc(waiters);
	while (st_load_acquire(addr) == val) {
		r = st_futex_wait(addr, val, shared, clk, abs, obj);
		if (r == ETIMEDOUT || (r == EINTR && interruptible))
			break;
		r = 0;
	}
	if (waiters)
		st_dec(waiters);
	return r;
}
