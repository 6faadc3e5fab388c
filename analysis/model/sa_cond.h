/* The condvar model: one struct sa_cond per condvar (sa_object.ext).
 * Node states and events: src/cond/cond.h, tracepoints/events/cond.def. */
#ifndef SA_COND_H
#define SA_COND_H

#include <stdint.h>

#include "sa_dist.h"
#include "st_codes.h"

struct sa_cond {
	int init_seen, clock, pshared;
	uint64_t waits, timed_waits;       /* enqueued events */
	uint64_t signals, broadcasts;      /* signal events that found waiters */
	uint64_t moved;                    /* waiters moved WAITING→SIGNALED */
	uint64_t leaving, leaving_timeout, leaving_cancel; /* WAITING→LEAVING */
	uint64_t met_leaving;              /* the race: a signaler met a LEAVING node */
	uint64_t ref_waits, ref_wait_ns;   /* signalers waiting for leaving waiters */
	uint64_t woke[ST_COND_WOKE_N], spurious;
	struct sa_dist wait;               /* waiters: enqueue → woke */
	struct sa_dist herd;               /* broadcasts: waiters moved */
	uint64_t relocked, relock_contended, relock_ns;
	uint64_t handoff_requeue, handoff_wake;
	uint64_t misuse;
};

#endif
