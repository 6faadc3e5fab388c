/* Is the machine crowded? A spin pays only while the thread it waits for
 * runs on another CPU. When more threads are runnable than there are
 * CPUs, the one we wait for is often queued behind us (or behind someone
 * else), and every pause we spin is a pause it does not run: the spin can
 * only fail and burn the CPU it needs. So st_spin_for (wait.h) does not
 * spin while the process sees the machine crowded (doc/spin.md has the
 * signals measured and why these two).
 *
 * Two signals set the verdict:
 *   sample   at most once per ST_CROWD_SAMPLE_NS, the spinner that finds
 *            the verdict stale reads the kernel's count of runnable
 *            threads (/proc/loadavg, 4th field) and the CPUs: crowded when
 *            runnable > online CPUs, or when the process may run on one
 *            CPU only (its threads then wait behind each other); a
 *            crowded verdict is stale after ST_CROWD_RECHECK_NS. A count
 *            above the CPUs is believed when the next sample, taken
 *            ST_CROWD_RECHECK_NS later, says so too: one alone is often a
 *            blip (a kworker, the tracer's consumer daemon for a
 *            sub-buffer), and a crowded verdict stops every gated spin
 *            for a whole interval
 *   preempt  a spin whose loop spanned more than ST_CROWD_PREEMPT_TICKS
 *            ticks of the coarse clock was descheduled meanwhile: crowded
 *            until the next sample, at most ST_CROWD_RECHECK_NS away
 *
 * STATE (one per process, st_crowd; hints, relaxed atomics: a lost update
 * costs one extra sample or one spin more or less)
 *   due      coarse-clock ns at which the verdict is stale; the sampler
 *            claims a sample by a CAS of due to now + ST_CROWD_SAMPLE_NS,
 *            so one thread samples per interval
 *   crowded  the verdict: 0 spin, 1 do not
 *   suspect  the last sample counted more runnable threads than CPUs
 *            and the verdict was not crowded: the next sample, due
 *            ST_CROWD_RECHECK_NS later, decides
 *   lone     the last sample found the process allowed one CPU only: no
 *            spin can end while its thread runs, so even the spins the
 *            crowd does not stop (wait.h, st_spin_lock) stop then
 *   cpus     online CPUs (read once; 0 until the first sample)
 *
 *   not crowded --count above the CPUs--> suspect --again--> crowded
 *        ^   ^------------not again---------'                 |
 *        '-----------------------a count within the CPUs------'
 *   (a process allowed one CPU, or a descheduled spin: crowded at once)
 *
 * The decisions are pure functions of (state, now, sample) so that they
 * are tested with a fake clock and a fake sampler (tests/spin/crowd.c). */
#ifndef ST_CROWD_H
#define ST_CROWD_H

#include <stdint.h>

#include "internal/atomic.h"

#define ST_CROWD_SAMPLE_NS 8000000ull /* 8 ms: ~5 us per sample, 0.06 % */
/* A crowded verdict (sampled, or a descheduled spin) is looked at again
 * sooner: a crowd is often a burst (a daemon's turn, a kworker, the
 * tracer's consumer), and each ms of a crowded verdict is a ms of no
 * spins, whose waits sleep. 1 ms: ~5 us per sample, 0.5 % of a CPU, and
 * only while crowded. */
#define ST_CROWD_RECHECK_NS 1000000ull
#define ST_CROWD_PREEMPT_TICKS 1      /* a spin of <= 19 us crosses at most one */

struct st_crowd {
	volatile uint64_t due;
	volatile int crowded;
	volatile int suspect;
	volatile int lone;
	volatile int cpus;
};

extern struct st_crowd st_crowd;

/* What a sample reads: runnable threads, online CPUs, the CPUs the calling
 * thread may use. Returns 0, or -1 when it could not read them. */
typedef int (*st_crowd_sampler)(int *runnable, int *online, int *allowed);

int st_crowd_sample_proc(int *runnable, int *online, int *allowed);

/* The verdict of one sample. */
static inline int st_crowd_verdict(int runnable, int online, int allowed)
{
	return allowed == 1 || runnable > online;
}

/* The runnable count of a /proc/loadavg line ("0.5 0.4 0.3 3/95 1234"),
 * -1 if the line is not one. */
int st_crowd_parse_loadavg(const char *line);

/* The stale case of st_crowd_check: claim the sample, take it. */
int st_crowd_resample(struct st_crowd *c, uint64_t now, st_crowd_sampler sample);

/* The verdict at now (coarse-clock ns), sampled with sample when stale. */
static inline int st_crowd_check(struct st_crowd *c, uint64_t now, st_crowd_sampler sample)
{
	if (now < st_load_relaxed(&c->due))
		return st_load_relaxed(&c->crowded);
	return st_crowd_resample(c, now, sample);
}

/* A spin on c that started at coarse-clock ns t0 ended at now, having
 * run out (gave up): if it spanned more than ST_CROWD_PREEMPT_TICKS ticks
 * of tick ns, it was descheduled; returns 1 and marks c crowded. */
int st_crowd_spin_ended(struct st_crowd *c, uint64_t t0, uint64_t now, uint64_t tick);

/* The coarse clock (vDSO, ~5 ns) and its tick. */
uint64_t st_crowd_now(void);
uint64_t st_crowd_tick(void);

/* A long gated spin gives the CPU to whoever is queued on it (wait.h,
 * ST_SPIN_YIELD_FROM): sched_yield, out of line (the spin loop stays
 * small) and raw (a program's interposed sched_yield must not run inside
 * our wait). */
void st_crowd_yield(void);

/* For the spinners: the process's verdict now. */
static inline int st_crowded(uint64_t now)
{
	return st_crowd_check(&st_crowd, now, st_crowd_sample_proc);
}

#endif
