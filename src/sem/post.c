/* sem_post. The state machine is in sem.h. */
#include <errno.h>

#include "internal/futex.h"
#include "sem/sem.h"

int st_sem_post(struct st_sem *s, const void *caller)
{
	/* Read before the CAS: after it a waiter may have destroyed s. */
	int shared = s->private != 0;
	uint64_t d = __atomic_load_n(&s->data, __ATOMIC_RELAXED);

	do {
		if (st_sem_tokens(d) >= SEM_VALUE_MAX) {
			st_set_caller(caller);
			ST_TRACE(sem, post, s, caller, EOVERFLOW, (int)st_sem_tokens(d),
				 (int)(d >> 32), -1);
			return EOVERFLOW;
		}
		/* Release: what the poster wrote is visible to the taker
		 * (glibc 14532 had acquire here). */
	} while (!__atomic_compare_exchange_n(&s->data, &d, d + 1, 1,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));

	/* d is the word before our increment; s may be gone now: only its
	 * address is used. WAITED → HANDOVER: wake one registered sleeper. */
	int nwaiters = (int)(d >> 32), woken = -1;
	if (nwaiters) {
		st_set_caller(caller);
		woken = st_futex_wake(&s->value, 1, shared, s);
		ST_TRACE(sem, post, s, caller, 0, (int)st_sem_tokens(d) + 1, nwaiters, woken);
	} else {
		ST_TRACE_FULL(caller, sem, post, s, caller, 0, (int)st_sem_tokens(d) + 1,
			      0, -1);
	}
	return 0;
}
