/* The mutex model: one struct sa_mutex per mutex object (sa_object.ext).
 * `how` and `what` codes: enum st_mutex_how, st_mutex_misuse (st_codes.h,
 * generated from tracepoints/events/mutex.def). */
#ifndef SA_MUTEX_H
#define SA_MUTEX_H

#include <stdint.h>

#include "sa_dist.h"
#include "st_codes.h"

struct sa_mutex {
	int init_seen, kind;
	/* Per-object counters (acquired/released/destroy/counters events).
	 * base: the counter value when the trace started seeing this mutex
	 * (0 when its init or its process's start is in the trace). */
	int have_acq, have_cont;
	uint64_t acq_base, acq_last;
	uint64_t cont_base, cont_last;
	/* Acquisitions of lives folded into it whose destroy no record
	 * carries (the summary level kept it back: LIFE b 3), on top. */
	uint64_t acq_more;
	/* Observed. */
	uint64_t acquired_events, releases, how[ST_MUTEX_HOW_N];
	uint64_t requested, trylock_failed, timeouts, misuse[ST_MUTEX_MISUSE_N];
	uint64_t wakes_released, wasted_released; /* released events with a wake */
	struct sa_dist wait;   /* wait_ns of contended acquisitions (how 1, 2) */
	uint64_t timeout_wait_ns;
	struct sa_dist hold;   /* full level: released.hold_ns */
	int32_t holder;        /* vtid holding it as far as the trace shows, 0 none */
	int64_t hold_since;
	int first_seen_held;   /* first event was a release: it was held at first sight */
	int32_t last_owner;
	uint64_t handoffs;     /* ownership seen passing to another thread */
	int destroy_result;
	int counts_final;      /* a destroy or counters event gave the final counters */
	int full;              /* its process traced at the full level */
};

struct sa_model;
struct sa_object;
/* o's mutex state, made (and o typed a mutex) if it has none; NULL if o is
 * another family's object or on out of memory. */
struct sa_mutex *sa_mutex_of(struct sa_model *m, struct sa_object *o);
uint64_t sa_mutex_acquisitions(const struct sa_mutex *x);
/* Is sa_mutex_acquisitions the true count (1), or only a lower bound (0:
 * no final counters in the trace: a heap mutex never destroyed while
 * traced, whose uncontended acquisitions no event counted)? */
int sa_mutex_acquisitions_known(const struct sa_mutex *x);
uint64_t sa_mutex_contended(const struct sa_mutex *x);

#endif
