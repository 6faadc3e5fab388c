/* Spin, then sleep: the one waiting routine every primitive uses.
 *
 * st_spin() is the first half: it calls try_acquire(ctx) until it succeeds,
 * the budget runs out, or (strategy `bail`) a sleeper is seen in *waiters,
 * and emits one synctrace_spin:loop event for the loop (never one per
 * iteration). st_wait() is the whole routine for "sleep until *addr is no
 * longer val" (musl's __wait): spin, announce in *waiters, futex-wait.
 *
 * Strategy (SYNCTRACE_SPIN, see config.c):
 *   none  no spinning: sleep at once
 *   bail  spin up to the budget, stop early once *waiters != 0 (musl's)
 *   full  spin the whole budget whatever the sleepers */
#ifndef ST_WAIT_H
#define ST_WAIT_H

#include "config.h"
#include "internal/futex.h"
#include "internal/trace.h"

/* Outcomes, as in the spin event's `outcome` field. */
enum st_spin_outcome {
	ST_SPUN_ACQUIRED = 0,    /* try_acquire succeeded while spinning */
	ST_SPUN_GAVE_UP = 1,     /* the budget ran out */
	ST_SPUN_SAW_WAITERS = 2, /* bail strategy: sleepers already queued */
	ST_SPUN_NOT = 3,         /* strategy none: no loop, no event */
};

/* Returns an st_spin_outcome; *iterations gets the loop count. try_acquire
 * is called when the caller's word looks free (it re-checks itself). */
static inline int st_spin(const void *obj, volatile int *waiters,
			  int (*try_acquire)(void *), void *ctx, int *iterations)
{
	int mode = st_spin_mode, limit = st_spin_limit, i, outcome;
	unsigned long long t0 = 0;

	*iterations = 0;
	if (mode == ST_SPIN_NONE || limit <= 0)
		return ST_SPUN_NOT;
	if (st_tracing())
		t0 = st_now_ns();
	for (i = 0;; i++) {
		if (try_acquire(ctx)) {
			outcome = ST_SPUN_ACQUIRED;
			break;
		}
		if (i >= limit) {
			outcome = ST_SPUN_GAVE_UP;
			break;
		}
		if (mode == ST_SPIN_BAIL && waiters && st_load_relaxed(waiters)) {
			outcome = ST_SPUN_SAW_WAITERS;
			break;
		}
		st_cpu_relax();
	}
	*iterations = i;
	if (t0)
		ST_TRACE(spin, loop, obj, i, outcome, mode, st_now_ns() - t0);
	return outcome;
}

/* Sleep until *addr != val (or timeout: ETIMEDOUT; a signal: EINTR when
 * interruptible, else the wait resumes). Spins first; counts itself in
 * *waiters (if non-NULL) while it sleeps. Returns 0, ETIMEDOUT or EINTR. */
int st_wait(const void *obj, volatile int *addr, int val, volatile int *waiters,
	    int shared, clockid_t clk, const struct timespec *abs, int interruptible);

#endif
