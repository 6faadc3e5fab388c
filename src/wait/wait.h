/* Spin, then sleep: the one waiting routine every primitive uses.
 *
 * st_spin() is the first half: it calls try_acquire(ctx), with backoff,
 * until it succeeds, the budget runs out, or (strategy `bail`)
 * a sleeper is seen in *waiters, and emits one synctrace_spin:loop event
 * for the loop (never one per iteration). st_spin_for() takes the budget;
 * st_spin_handoff() is the longer, adaptive spin of hand-off waits
 * (semaphores, barriers; below). st_wait() is the whole routine for "sleep
 * until *addr is no longer val" (musl's __wait): spin, announce in
 * *waiters, futex-wait; st_wait_handoff() the same as a hand-off wait.
 *
 * Strategy (SYNCTRACE_SPIN, see config.c):
 *   none  no spinning: sleep at once
 *   bail  spin up to the budget, stop early once *waiters != 0 (musl's)
 *   full  spin the whole budget whatever the sleepers
 * By default no spin while the machine is crowded (crowd.h, st_spin_crowd
 * in config.h: an explicit strategy spins anyway), but a mutex's lock spin
 * (st_spin_lock) and a semaphore's hand-off spin (sem/wait.c). */
#ifndef ST_WAIT_H
#define ST_WAIT_H

#include <limits.h>

#include "config.h"
#include "internal/futex.h"
#include "internal/trace.h"
#include "wait/crowd.h"

/* Outcomes: enum st_spin_outcome (tracepoints/events/spin.def). */

/* Probes back off: 1, 2, 4 … ST_SPIN_GAP_MAX pauses between two calls of
 * try_acquire. A probe reads the object's line; while a spinner keeps
 * re-reading a word its owner keeps writing, every write of the owner
 * must first take the line back. The largest gap is the most latency a
 * hand-off pays for it (doc/spin.md). */
#define ST_SPIN_GAP_MAX 16

/* A gated spin (the crowd hint stops it: crowd.h) that has run
 * ST_SPIN_YIELD_FROM pauses (~5 us here) without its release yields the
 * CPU (sched_yield), and again every ST_SPIN_YIELD_EVERY pauses. The
 * thread it waits for is then often queued behind it on this CPU (a
 * crowd the sampled hint has not seen yet, or too short for it: the
 * tracer's consumer daemon, a burst of wake-ups): the yield lets it run
 * now instead of after the whole budget (a hand-off spin ~19 us, the
 * long one after a wake ~95 us). With nobody else runnable here the
 * yield returns at once (~1 us). The default budget (100 pauses) never
 * gets there; ungated spins (a mutex's lock, a semaphore's hand-off:
 * crowds measured better spun through) do not yield. Measured: bench/
 * README.md, "One clock read for two uses, session 20". */
#define ST_SPIN_YIELD_FROM 256
#define ST_SPIN_YIELD_EVERY 256

/* Returns an st_spin_outcome; *iterations gets the pauses spun. try_acquire
 * (non-zero: acquired) is called when the caller's word may have changed
 * (it re-checks itself); limit is the budget in pauses; gated: no spin
 * while the machine is crowded (crowd.h; st_spin_lock says when not). */
static inline int st_spin_gated(const void *obj, volatile int *waiters,
				int (*try_acquire)(void *), void *ctx, int limit,
				int *iterations, int gated)
{
	int mode = st_spin_mode, i = 0, gap = 1, outcome;
	unsigned long long t0 = 0, given = st_tls.spin_t0;
	uint64_t c0 = 0;

	if (given) /* (st_spin_from_folded) only this spin's; untraced, 0 */
		st_tls.spin_t0 = 0;
	*iterations = 0;
	if (mode == ST_SPIN_MODE_NONE || limit <= 0)
		return ST_SPIN_OUTCOME_NOT;
	/* Not while the one we wait for is likely queued behind us. */
	if (st_spin_crowd && st_crowded(c0 = st_crowd_now()) &&
	    (gated || st_load_relaxed(&st_crowd.lone)))
		return ST_SPIN_OUTCOME_NOT;
	if (limit > INT_MAX - ST_SPIN_GAP_MAX) /* i may pass limit by a gap */
		limit = INT_MAX - ST_SPIN_GAP_MAX;
	if (st_tracing())
		t0 = given ? given : st_now_ns();
	/* Up to stop pauses, then (gated, with budget left) a yield and
	 * ST_SPIN_YIELD_EVERY more: the probes' loop stays as it was. */
	int stop = gated && limit > ST_SPIN_YIELD_FROM ? ST_SPIN_YIELD_FROM : limit;
	for (;;) {
		if (try_acquire(ctx)) {
			outcome = ST_SPIN_OUTCOME_ACQUIRED;
			break;
		}
		if (i >= stop) {
			if (stop >= limit) {
				outcome = ST_SPIN_OUTCOME_GAVE_UP;
				break;
			}
			st_crowd_yield();
			stop = limit - i > ST_SPIN_YIELD_EVERY ? i + ST_SPIN_YIELD_EVERY : limit;
			continue;
		}
		if (mode == ST_SPIN_MODE_BAIL && waiters && st_load_relaxed(waiters)) {
			outcome = ST_SPIN_OUTCOME_SAW_WAITERS;
			break;
		}
		/* The summary level's queued events are aggregated here, one
		 * between two looks, instead of before the spin: a release
		 * is seen an item after it came, not a whole queue after
		 * (trace/summary.c, st_summary_step). Not an iteration; it
		 * touches the thread's own table only (objects are keys
		 * there, never read), so what obj and ctx may be by then
		 * does not matter to it. */
		if (st_unlikely(t0) && st_tls.sum_pending && st_summary_step())
			continue;
		for (int k = 0; k < gap; k++)
			st_cpu_relax();
		i += gap;
		if (gap < ST_SPIN_GAP_MAX)
			gap <<= 1;
	}
	*iterations = i;
	/* Ran out over more than a tick: we were descheduled meanwhile. */
	if (c0 && outcome == ST_SPIN_OUTCOME_GAVE_UP)
		st_crowd_spin_ended(&st_crowd, c0, st_crowd_now(), st_crowd_tick());
	if (t0) {
		unsigned long long t1 = st_now_ns();
		st_tls.spin_end_ns = t1;
		if (!(outcome == ST_SPIN_OUTCOME_ACQUIRED && given && st_tls.spin_fold))
			st_spin_ev_loop(obj, i, outcome, mode, t1 - t0);
	}
	return outcome;
}

/* A traced wait that read its start t0 just before its spin: the spin
 * called next takes t0 for its own start instead of reading the clock
 * again (one read less a wait: ~25 ns on CLOCK_MONOTONIC, ~11 on the
 * counter, src/internal/clock.h). Every spin takes and clears
 * it at its top, so no later spin sees it. The wait's events are emitted
 * before t0 is read, so neither duration includes them (but a condvar's
 * enqueued, written after it: src/cond/wait.c).
 *
 * Every such wait's own last event, when its spin acquires, also
 * says all that the spin's loop event would (a semaphore's, mutex's or
 * rwlock's acquired with how SPIN, a barrier's departure with spins >= 0:
 * the loop's iterations, and wait_ns its spin_ns, as the spin began at t0
 * and the wait ended with it; a condvar's woke with spins >= 0 and the
 * spin's own spin_ns; outcome ACQUIRED; mode meta:start's): where
 * st_spin_folds (trace format 4, the summary level) that loop is not
 * written, and readers and aggregators take it from the wait's event
 * (EVENTS.md, "Spins folded into acquisitions"). One record less a spun
 * wait. A spin that does not acquire writes its loop as before. Its
 * callers are the only emitters of those events (tests/trace/spin_fold.sh
 * checks the counts agree at every format). */
static inline void st_spin_from_folded(unsigned long long t0)
{
	if (t0) {
		st_tls.spin_t0 = t0;
		st_tls.spin_fold = st_load_relaxed(&st_spin_folds);
	}
}

/* The same start for a spin whose wait has no event that stands for its
 * loop (a condvar's counted relock): the loop is written as always. */
static inline void st_spin_from(unsigned long long t0)
{
	if (t0) {
		st_tls.spin_t0 = t0;
		st_tls.spin_fold = 0;
	}
}

/* When a wait that began at t0 ended (its duration: that minus t0), for
 * its event; spun: a spin ended it. The acquisition is then the spin's last
 * moment, so the clock is not read again: with st_spin_from_folded, a spun wait
 * reads it twice (its start, its spin's end) where it read it four times
 * (~25 ns each, a quarter of a sub-microsecond hand-off). A spin that read
 * no clock (tracing began meanwhile) left an older time: then it is read.
 * The end is also the event's record time where the clocks agree
 * (st_rec_at). */
static inline unsigned long long st_waited_end(int spun, unsigned long long t0)
{
	unsigned long long e = st_tls.spin_end_ns;
	return spun && e >= t0 ? e : st_now_ns();
}

/* A spin gated by the crowd hint (crowd.h). */
static inline int st_spin_for(const void *obj, volatile int *waiters,
			      int (*try_acquire)(void *), void *ctx, int limit,
			      int *iterations)
{
	return st_spin_gated(obj, waiters, try_acquire, ctx, limit, iterations, 1);
}

/* The default budget: SYNCTRACE_SPIN's count. */
static inline int st_spin(const void *obj, volatile int *waiters,
			  int (*try_acquire)(void *), void *ctx, int *iterations)
{
	return st_spin_for(obj, waiters, try_acquire, ctx, st_spin_limit, iterations);
}

/* Hand-off waits (a semaphore token, a barrier's round) are ended by
 * another thread's action, not by a release of a lock that is held for a
 * short while. If that thread was asleep, the wait lasts as long as its
 * wake-up; a budget that covers a wake-up lets a ping-pong that slept once
 * settle into both sides spinning, with no system call at all, where the
 * default budget falls short of it and both sides would sleep forever
 * after. The budget is ST_SPIN_HANDOFF times SYNCTRACE_SPIN's count
 * (doc/spin.md has the figures).
 *
 * Spinning only pays while the other thread runs on another CPU. On a
 * loaded machine the scheduler often queues it behind the spinner, and
 * the spin can only fail. So it adapts, per object: after ST_SPIN_MISSES
 * straight loops that ran out, waits on that object stop spinning; then
 * waits probe again, the first after ST_SPIN_PROBE waits, each next one
 * after twice as many, up to one in ST_SPIN_PROBE_MAX (a failed probe
 * costs its whole budget), and a loop that succeeds restores spinning.
 * *misses is a hint read and written with relaxed atomics: a lost update
 * only shifts when spinning resumes. */
#define ST_SPIN_HANDOFF 10
#define ST_SPIN_MISSES 2
#define ST_SPIN_PROBE 128
#define ST_SPIN_PROBE_MAX 4096
/* The same scheme for the relock after a condvar wait (mutex/lock.c), per
 * thread, after more misses in a row: its spins are short (the default
 * budget) and succeed now and then on a busy mutex, while on a loaded
 * machine they fail every time (a cond ping-pong). The lock spins of
 * mutexes and rwlocks use it too, with a hint of their own per thread
 * (the objects have no room for one): st_spin_lock. */
#define ST_RELOCK_MISSES 8

/* budget, adapted by the hint in *misses: after max loops in a row ran
 * out, 0 (sleep at once) except for the probes. *misses - max counts the
 * calls since: a call probes when that count is ST_SPIN_PROBE times a
 * power of two, and from ST_SPIN_PROBE_MAX on at every multiple of it. */
static inline int st_spin_adaptive_budget(volatile int *misses, int budget, int max)
{
	int m = st_load_relaxed(misses);
	if (m >= max) {
		unsigned k = (unsigned)(m - max);
		st_store_relaxed(misses, k >= (1u << 24) ? max + ST_SPIN_PROBE_MAX : m + 1);
		if (k < ST_SPIN_PROBE || (k < ST_SPIN_PROBE_MAX ? k & (k - 1)
								: k & (ST_SPIN_PROBE_MAX - 1)))
			return 0;
	}
	return budget;
}

/* A hand-off wait's full budget: ST_SPIN_HANDOFF times SYNCTRACE_SPIN's. */
static inline int st_spin_handoff_limit(void)
{
	return st_spin_limit > INT_MAX / ST_SPIN_HANDOFF ? INT_MAX
							 : st_spin_limit * ST_SPIN_HANDOFF;
}

/* The budget for this hand-off wait, 0 to sleep at once. */
static inline int st_spin_handoff_budget(volatile int *misses)
{
	return st_spin_adaptive_budget(misses, st_spin_handoff_limit(), ST_SPIN_MISSES);
}

/* AFTER A WAKE. A thread whose post, signal or barrier opening woke a
 * sleeper usually waits next for that sleeper's answer, and the sleeper
 * first needs a wake-up: under 10 us when the scheduler runs it on the
 * waker's CPU, 20-100 us on this VM when it wakes a halted vCPU. The
 * hand-off budget (~19 us) runs out before the answer comes, the waker
 * sleeps too, its partner's answer then needs a wake-up as well, and
 * after ST_SPIN_MISSES of those both sides stop spinning: the sleeping
 * regime of bench/README ("Summary level, session 12"), which lasts until
 * both sides probe at the same moment. Tracing makes it more likely (a
 * batch written out, the consumer daemon's turn), untraced runs enter it
 * when the host stalls a vCPU.
 *
 * So two per-thread notes (st_tls) break it from both sides:
 *   - woke: the next hand-off wait of a thread that woke a sleeper, if it
 *     comes within ST_WOKE_OPS slow-path calls, spins ST_SPIN_WAKEUP times
 *     the default budget (~95 us), whatever its object's hint says: the
 *     answer then finds it spinning and needs no wake. Not while the
 *     machine is crowded (the sleeper may be queued behind the spinner),
 *     and adapted per thread in st_tls.wake_misses by the same scheme as
 *     the objects' hints: a thread whose long spins run out (its sleepers
 *     answer later, or not to it) stops them, but for the probes.
 *   - slept, then probe: a thread whose hand-off wait slept, and whose
 *     next post or signal finds its waiter awake (spinning, so it needs
 *     no wake), spins its next hand-off wait with the full hand-off
 *     budget even if its object's hint says sleep: its partner is
 *     spinning now, the probe that ends the regime. Not while crowded
 *     (the semaphore's wait spins ungated: its probe would not heed it).
 * Both are thread-local: the objects involved may be gone by the time
 * the note is read, and only the calling thread reads or writes it. */
#define ST_SPIN_WAKEUP 50
#define ST_WOKE_OPS 3

/* A post, signal or barrier opening of this thread woke woken (> 0:
 * somebody) or found nobody asleep (0 or less). */
static inline void st_spin_note_wake(int woken)
{
	if (woken > 0) {
		st_tls.handoff_woke = 1;
		st_tls.handoff_woke_ops = st_tls.ops;
		st_tls.handoff_slept = 0;
	} else if (st_unlikely(st_tls.handoff_slept)) {
		st_tls.handoff_slept = 0;
		st_tls.handoff_probe = 1;
	}
}

/* This thread's hand-off wait ended: slept (1) or not (0). */
static inline void st_spin_note_slept(int slept)
{
	st_tls.handoff_slept = slept;
}

/* The machine is crowded (crowd.h), and the spins heed it. */
static inline int st_spin_crowded(void)
{
	return st_spin_crowd && st_crowded(st_crowd_now());
}

/* The long budget after a wake: ST_SPIN_WAKEUP times SYNCTRACE_SPIN's. */
static inline int st_spin_wakeup_limit(void)
{
	return st_spin_limit > INT_MAX / ST_SPIN_WAKEUP ? INT_MAX
							: st_spin_limit * ST_SPIN_WAKEUP;
}

/* This hand-off wait's budget (0: sleep at once), from the notes above
 * and the object's hint *misses; *after_wake = 1 if it is the long one,
 * whose outcome st_spin_wake_done then also gives the thread's own hint. */
static inline int st_spin_handoff_pick(volatile int *misses, int *after_wake)
{
	*after_wake = 0;
	if (st_unlikely(st_tls.handoff_woke)) {
		st_tls.handoff_woke = 0;
		if (st_tls.ops - st_tls.handoff_woke_ops <= ST_WOKE_OPS &&
		    st_spin_mode != ST_SPIN_MODE_NONE && !st_spin_crowded()) {
			int b = st_spin_adaptive_budget(&st_tls.wake_misses, st_spin_wakeup_limit(),
							ST_SPIN_MISSES);
			if (b) {
				*after_wake = 1;
				return b;
			}
		}
	}
	int b = st_spin_handoff_budget(misses);
	if (st_unlikely(st_tls.handoff_probe)) {
		st_tls.handoff_probe = 0;
		/* not while crowded either: an ungated wait's probe would spin
		 * where its object's hint says sleep (under bench_load
		 * churn:3+spin:1, 1 sem ping-pong hand-off in 10 probed, and
		 * the rate halved) */
		if (!b && !st_spin_crowded())
			b = st_spin_handoff_limit();
	}
	return b;
}

/* Account a spin's outcome in the hint *misses (max as above). */
static inline void st_spin_adaptive_done(volatile int *misses, int outcome, int max)
{
	int m = st_load_relaxed(misses);
	if (outcome == ST_SPIN_OUTCOME_ACQUIRED) {
		if (m)
			st_store_relaxed(misses, 0);
	} else if (outcome == ST_SPIN_OUTCOME_GAVE_UP && m < max) {
		st_store_relaxed(misses, m + 1);
	}
}

/* Account a hand-off spin's outcome in *misses. */
static inline void st_spin_handoff_done(volatile int *misses, int outcome)
{
	st_spin_adaptive_done(misses, outcome, ST_SPIN_MISSES);
}

/* A hand-off spin's outcome in the thread's own hint, if it was the long
 * one after a wake (st_spin_handoff_pick's *after_wake). */
static inline void st_spin_wake_done(int after_wake, int outcome)
{
	if (after_wake)
		st_spin_adaptive_done(&st_tls.wake_misses, outcome, ST_SPIN_MISSES);
}

/* A spin of budget pauses (0: none), adapted by the streak in the hint
 * *misses (max as above), which it then accounts; gated (1) by the crowd
 * hint or not (0). Returns an st_spin_outcome. */
static inline int st_spin_streak(const void *obj, volatile int *waiters,
				 int (*try_acquire)(void *), void *ctx, volatile int *misses,
				 int budget, int max, int *iterations, int gated)
{
	int outcome = st_spin_gated(obj, waiters, try_acquire, ctx,
				    budget ? st_spin_adaptive_budget(misses, budget, max) : 0,
				    iterations, gated);
	st_spin_adaptive_done(misses, outcome, max);
	return outcome;
}

/* The same, gated. */
static inline int st_spin_adaptive(const void *obj, volatile int *waiters,
				   int (*try_acquire)(void *), void *ctx, volatile int *misses,
				   int budget, int max, int *iterations)
{
	return st_spin_streak(obj, waiters, try_acquire, ctx, misses, budget, max, iterations, 1);
}

/* A hand-off spin, for the adaptive budget kept in *misses, gated (1) by
 * the crowd hint or not (0). Returns an st_spin_outcome. */
static inline int st_spin_handoff_gated(const void *obj, volatile int *waiters,
					int (*try_acquire)(void *), void *ctx,
					volatile int *misses, int *iterations, int gated)
{
	int after_wake, outcome = st_spin_gated(obj, waiters, try_acquire, ctx,
						st_spin_handoff_pick(misses, &after_wake),
						iterations, gated);
	st_spin_handoff_done(misses, outcome);
	st_spin_wake_done(after_wake, outcome);
	return outcome;
}

/* The same, gated. */
static inline int st_spin_handoff(const void *obj, volatile int *waiters,
				  int (*try_acquire)(void *), void *ctx,
				  volatile int *misses, int *iterations)
{
	return st_spin_handoff_gated(obj, waiters, try_acquire, ctx, misses, iterations, 1);
}

/* A lock's spin (mutex, rwlock) of budget pauses, adapted by the calling
 * thread's streak of spins that ran out (st_tls.lock_misses). gated: 1
 * to skip it while the machine is crowded, as every other spin does; 0
 * for a mutex. A mutex's spin ends when its holder releases, and a holder
 * of a short critical section is almost always on a CPU, crowded or not:
 * measured, gating it lost 0.4–0.6x glibc on a channel of 4 threads on 2
 * CPUs (the program crowds the machine itself) and skipping the gate
 * cost nothing under load; a holder that does get descheduled shows as a
 * streak of spins that ran out, which stops them. The rwlock's spin stays
 * gated: ungated, 4–8 threads on 2 CPUs fell to 0.4x (doc/spin.md). A
 * spin that ran out over a tick still marks the machine crowded for the
 * others. */
static inline int st_spin_lock(const void *obj, volatile int *waiters,
			       int (*try_acquire)(void *), void *ctx, int budget,
			       int *iterations, int gated)
{
	return st_spin_streak(obj, waiters, try_acquire, ctx, &st_tls.lock_misses, budget,
			      ST_RELOCK_MISSES, iterations, gated);
}

/* Sleep until *addr != val (or timeout: ETIMEDOUT; a signal: EINTR when
 * interruptible, else the wait resumes). Spins first; counts itself in
 * *waiters (if non-NULL) while it sleeps. Returns 0, ETIMEDOUT or EINTR. */
int st_wait(const void *obj, volatile int *addr, int val, volatile int *waiters,
	    int shared, clockid_t clk, const struct timespec *abs, int interruptible);

/* The same, as a hand-off wait: adaptive budget in *misses (above). */
int st_wait_handoff(const void *obj, volatile int *addr, int val, volatile int *waiters,
		    volatile int *misses, int shared, clockid_t clk,
		    const struct timespec *abs, int interruptible);

#endif
