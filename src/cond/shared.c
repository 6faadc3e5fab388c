/* Process-shared condvars: a sequence counter (see cond.h). */
#include <stdint.h>

#include "cond/cond.h"

int st_cond_signal_shared(struct st_cond *c, int n)
{
	/* A waiter reads seq before it releases the mutex: any increment
	 * after that read ends its wait (or keeps it from starting). */
	st_fetch_add(&c->seq, 1);
	return st_futex_wake(&c->seq, n, 1, c);
}
