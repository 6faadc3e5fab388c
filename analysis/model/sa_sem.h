/* The semaphore model: one struct sa_sem per semaphore (sa_object.ext).
 * `how` codes: tracepoints/events/sem.def (acquired). */
#ifndef SA_SEM_H
#define SA_SEM_H

#include <stdint.h>

#include "sa_dist.h"
#include "st_codes.h"

struct sa_sem {
	int init_seen, pshared, initial;
	uint64_t acquired, how[ST_SEM_HOW_N];
	uint64_t wait_begins, sleeps, timeouts, interrupted, trywait_failed;
	uint64_t posts, post_wakes, post_wasted, overflows;
	struct sa_dist wait;  /* wait_ns of acquisitions that waited (how 1, 2) */
	uint64_t timeout_wait_ns;
	int destroy_nwaiters; /* misuse: destroyed with sleepers */
	/* SYNCTRACE_SEM_MAX: posts that left the count above the limit
	 * (sem:misuse), the highest such count and its limit. */
	uint64_t over_limit;
	int over_value, over_limit_value;
};

#endif
