/* The crowded-machine hint of the spinners (src/wait/crowd.h) and its use
 * by st_spin_for (src/wait/wait.h), with a fake clock and a fake sampler:
 * when a sample is taken, what it decides, what a descheduled spin
 * decides, and that a crowded verdict means no spin at all.
 * usage: test_spin_crowd */
#include "check.h"
#include "wait/wait.h"

/* What st_spin_for links against in the library (config.c, trace). */
int st_spin_mode = ST_SPIN_MODE_BAIL, st_spin_limit = 100, st_spin_all_mutexes, st_spin_crowd = 1;
int st_trace_flags;
struct st_code_range st_tracer_code[ST_MAX_TRACER_RANGES];
int st_tracer_code_n;
const struct st_probes *st_probes_in;
/* The summary level's aggregator (src/trace/summary.c) is not linked: the
 * trace flags above keep every emission site off. */
void st_summary_defer(unsigned evi, unsigned n, const uint64_t *w, int caller)
{
	(void)evi, (void)n, (void)w, (void)caller;
}
int st_summary_step(void)
{
	return 0; /* st_tls.sum_pending is never set here */
}
__thread struct st_tls st_tls __attribute__((tls_model("initial-exec")));

enum { MS = 1000000 };

static int samples, fake_runnable, fake_online, fake_allowed, fake_fails;

static int fake_sample(int *runnable, int *online, int *allowed)
{
	samples++;
	if (fake_fails)
		return -1;
	*runnable = fake_runnable;
	if (*online <= 0)
		*online = fake_online;
	*allowed = fake_allowed;
	return 0;
}

static void parses_loadavg(void)
{
	CHECK_EQ(st_crowd_parse_loadavg("0.02 0.52 1.06 3/95 1234\n"), 3);
	CHECK_EQ(st_crowd_parse_loadavg("10.50 9.00 8.25 17/1203 99"), 17);
	CHECK_EQ(st_crowd_parse_loadavg("0.02 0.52 1.06 x/95 1"), -1);
	CHECK_EQ(st_crowd_parse_loadavg("0.02 0.52"), -1);
	CHECK_EQ(st_crowd_parse_loadavg("0.02 0.52 1.06 3 1"), -1);
	CHECK_EQ(st_crowd_parse_loadavg(""), -1);
}

static void verdicts(void)
{
	CHECK_EQ(st_crowd_verdict(2, 2, 2), 0); /* both CPUs busy, nobody queued */
	CHECK_EQ(st_crowd_verdict(3, 2, 2), 1); /* one queued */
	CHECK_EQ(st_crowd_verdict(1, 2, 1), 1); /* pinned to one CPU */
	CHECK_EQ(st_crowd_verdict(9, 16, 4), 0); /* machine-wide count, online CPUs */
}

/* One sample per interval, by whoever finds it stale: ST_CROWD_SAMPLE_NS
 * after a verdict of not crowded, ST_CROWD_RECHECK_NS after a crowded one
 * or a suspect count; a count above the CPUs is believed when the next
 * sample confirms it. */
static void samples_once_per_interval(void)
{
	struct st_crowd c = { 0 };
	samples = 0, fake_runnable = 3, fake_online = 2, fake_allowed = 2, fake_fails = 0;
	uint64_t t = 100 * MS;
	/* a first count above the CPUs: a suspicion, not yet a verdict */
	CHECK_EQ(st_crowd_check(&c, t, fake_sample), 0);
	CHECK_EQ(samples, 1);
	CHECK_EQ(c.suspect, 1);
	CHECK_EQ(c.cpus, 2);
	CHECK_EQ(st_crowd_check(&c, t + ST_CROWD_RECHECK_NS - 1, fake_sample), 0);
	CHECK_EQ(samples, 1);
	/* confirmed by the next sample: crowded */
	t += ST_CROWD_RECHECK_NS;
	CHECK_EQ(st_crowd_check(&c, t, fake_sample), 1);
	CHECK_EQ(samples, 2);
	CHECK_EQ(c.suspect, 0);
	/* a crowded verdict stands for the shorter interval; still crowded:
	 * no new suspicion needed */
	CHECK_EQ(st_crowd_check(&c, t + ST_CROWD_RECHECK_NS - 1, fake_sample), 1);
	CHECK_EQ(samples, 2);
	t += ST_CROWD_RECHECK_NS;
	CHECK_EQ(st_crowd_check(&c, t, fake_sample), 1);
	CHECK_EQ(samples, 3);
	fake_runnable = 1;
	t += ST_CROWD_RECHECK_NS;
	CHECK_EQ(st_crowd_check(&c, t, fake_sample), 0);
	CHECK_EQ(samples, 4);
	/* not crowded: the full interval; the online count is read once, a
	 * later sample gets it passed in */
	fake_online = 64, fake_runnable = 3;
	CHECK_EQ(st_crowd_check(&c, t + ST_CROWD_SAMPLE_NS - 1, fake_sample), 0);
	CHECK_EQ(samples, 4);
	t += ST_CROWD_SAMPLE_NS;
	CHECK_EQ(st_crowd_check(&c, t, fake_sample), 0); /* suspect */
	CHECK_EQ(samples, 5);
	CHECK_EQ(c.cpus, 2);
	/* a blip: the next sample counts within the CPUs, and the verdict
	 * never was crowded; the full interval again */
	fake_runnable = 2;
	t += ST_CROWD_RECHECK_NS;
	CHECK_EQ(st_crowd_check(&c, t, fake_sample), 0);
	CHECK_EQ(samples, 6);
	CHECK_EQ(c.suspect, 0);
	CHECK_EQ(st_crowd_check(&c, t + ST_CROWD_SAMPLE_NS - 1, fake_sample), 0);
	CHECK_EQ(samples, 6);
	t += ST_CROWD_SAMPLE_NS;
	/* a sample that cannot read: not crowded (spin as without the hint),
	 * and no suspicion left over */
	fake_runnable = 3;
	CHECK_EQ(st_crowd_check(&c, t, fake_sample), 0);
	CHECK_EQ(c.suspect, 1);
	fake_fails = 1;
	t += ST_CROWD_RECHECK_NS;
	CHECK_EQ(st_crowd_check(&c, t, fake_sample), 0);
	CHECK_EQ(samples, 8);
	CHECK_EQ(c.suspect, 0);
	fake_fails = 0;
	t += ST_CROWD_SAMPLE_NS;
	/* allowed one CPU: crowded at once, and lone; two again: neither */
	fake_runnable = 1, fake_allowed = 1;
	CHECK_EQ(st_crowd_check(&c, t, fake_sample), 1);
	CHECK_EQ(c.lone, 1);
	t += ST_CROWD_RECHECK_NS;
	fake_allowed = 2;
	CHECK_EQ(st_crowd_check(&c, t, fake_sample), 0);
	CHECK_EQ(c.lone, 0);
	CHECK_EQ(samples, 10);
}

/* A spin that ran out over more than a tick was descheduled: crowded
 * until the next sample says otherwise, ST_CROWD_RECHECK_NS away. */
static void descheduled_spin_marks_crowded(void)
{
	struct st_crowd c = { 0 };
	uint64_t tick = MS, t = 100 * MS; /* HZ=1000 */
	samples = 0, fake_runnable = 1, fake_online = 2, fake_allowed = 2;
	CHECK_EQ(st_crowd_check(&c, t, fake_sample), 0);
	CHECK_EQ(st_crowd_spin_ended(&c, t, t + tick, tick), 0); /* one tick: may be chance */
	CHECK_EQ(st_crowd_check(&c, t + tick, fake_sample), 0);
	CHECK_EQ(st_crowd_spin_ended(&c, t, t + 2 * tick, tick), 1);
	CHECK_EQ(st_crowd_check(&c, t + 2 * tick, fake_sample), 1);
	CHECK_EQ(samples, 1);
	/* looked at again ST_CROWD_RECHECK_NS after the spin, not at the
	 * sampled verdict's ST_CROWD_SAMPLE_NS */
	CHECK_EQ(st_crowd_check(&c, t + 2 * tick + ST_CROWD_RECHECK_NS - 1, fake_sample), 1);
	CHECK_EQ(samples, 1);
	CHECK_EQ(st_crowd_check(&c, t + 2 * tick + ST_CROWD_RECHECK_NS, fake_sample), 0);
	CHECK_EQ(samples, 2);
}

static int tries;
static int acquire_third(void *p)
{
	(void)p;
	return ++tries == 3;
}

/* st_spin_for under each verdict: crowded, no try at all. */
static void crowded_means_no_spin(void)
{
	int it;
	st_crowd.due = UINT64_MAX; /* the verdict set below stands */
	st_crowd.crowded = 1;
	tries = 0;
	CHECK_EQ(st_spin_for(0, 0, acquire_third, 0, 100, &it), ST_SPIN_OUTCOME_NOT);
	CHECK_EQ(tries, 0);
	CHECK_EQ(it, 0);
	st_spin_crowd = 0; /* SYNCTRACE_SPIN_CROWD=off */
	CHECK_EQ(st_spin_for(0, 0, acquire_third, 0, 100, &it), ST_SPIN_OUTCOME_ACQUIRED);
	CHECK_EQ(tries, 3);
	st_spin_crowd = 1;
	st_crowd.crowded = 0;
	tries = 0;
	CHECK_EQ(st_spin_for(0, 0, acquire_third, 0, 100, &it), ST_SPIN_OUTCOME_ACQUIRED);
	CHECK_EQ(tries, 3);
	CHECK_EQ(it, 1 + 2); /* pauses: gaps 1, 2 */
}

static int never(void *p)
{
	(void)p;
	tries++;
	return 0;
}

/* A lock spin (st_spin_lock) that keeps running out stops after
 * ST_RELOCK_MISSES in a row, then probes (tests/spin/adaptive.c has the
 * probe schedule); one that acquires resets the streak. */
static void lock_spin_streak(void)
{
	int it;
	st_crowd.due = UINT64_MAX;
	st_crowd.crowded = 0;
	st_tls.lock_misses = 0;
	/* (crowded cleared before each spin: one that ran out while this test
	 * was descheduled sets it, as it should) */
	for (int i = 0; i < ST_RELOCK_MISSES; i++) {
		st_crowd.crowded = 0;
		CHECK_EQ(st_spin_lock(0, 0, never, 0, 100, &it, 1), ST_SPIN_OUTCOME_GAVE_UP);
	}
	CHECK_EQ(st_tls.lock_misses, ST_RELOCK_MISSES);
	st_crowd.crowded = 0;
	tries = 0;
	CHECK_EQ(st_spin_lock(0, 0, never, 0, 100, &it, 1), ST_SPIN_OUTCOME_NOT);
	CHECK_EQ(tries, 0);
	st_tls.lock_misses = 3;
	tries = 0;
	CHECK_EQ(st_spin_lock(0, 0, acquire_third, 0, 100, &it, 1), ST_SPIN_OUTCOME_ACQUIRED);
	CHECK_EQ(st_tls.lock_misses, 0);
	/* crowded: no try, and the streak is left as it was */
	st_crowd.crowded = 1;
	st_tls.lock_misses = 3;
	CHECK_EQ(st_spin_lock(0, 0, never, 0, 100, &it, 1), ST_SPIN_OUTCOME_NOT);
	CHECK_EQ(st_tls.lock_misses, 3);
	/* a mutex's spin (not gated): it spins while crowded, on its streak */
	tries = 0;
	CHECK_EQ(st_spin_lock(0, 0, never, 0, 100, &it, 0), ST_SPIN_OUTCOME_GAVE_UP);
	CHECK(tries > 0);
	CHECK_EQ(st_tls.lock_misses, 4);
	tries = 0;
	CHECK_EQ(st_spin_lock(0, 0, acquire_third, 0, 100, &it, 0), ST_SPIN_OUTCOME_ACQUIRED);
	CHECK_EQ(tries, 3);
	CHECK_EQ(st_tls.lock_misses, 0);
	st_tls.lock_misses = ST_RELOCK_MISSES;
	tries = 0;
	CHECK_EQ(st_spin_lock(0, 0, never, 0, 100, &it, 0), ST_SPIN_OUTCOME_NOT);
	CHECK_EQ(tries, 0);
	/* allowed one CPU (lone): not even the ungated spin tries */
	st_tls.lock_misses = 0;
	st_crowd.lone = 1;
	CHECK_EQ(st_spin_lock(0, 0, acquire_third, 0, 100, &it, 0), ST_SPIN_OUTCOME_NOT);
	CHECK_EQ(tries, 0);
	CHECK_EQ(st_tls.lock_misses, 0);
	st_crowd.lone = 0;
	/* a semaphore's hand-off spin (not gated) spins while crowded; the
	 * gated one (barriers, st_spin_handoff) does not try */
	int misses = 0;
	tries = 0;
	CHECK_EQ(st_spin_handoff_gated(0, 0, acquire_third, 0, &misses, &it, 0),
		 ST_SPIN_OUTCOME_ACQUIRED);
	CHECK_EQ(tries, 3);
	tries = 0;
	CHECK_EQ(st_spin_handoff(0, 0, acquire_third, 0, &misses, &it), ST_SPIN_OUTCOME_NOT);
	CHECK_EQ(tries, 0);
	CHECK_EQ(misses, 0);
	st_crowd.crowded = 0;
}

/* After a wake (wait.h: AFTER A WAKE): the next hand-off wait of a thread
 * that woke a sleeper spins the long budget whatever its object's hint,
 * within ST_WOKE_OPS calls, not while crowded, and stops after
 * ST_SPIN_MISSES long spins in a row ran out; a thread whose hand-off
 * wait slept and whose next post found nobody asleep probes once. */
static void after_a_wake(void)
{
	const int skip = ST_SPIN_MISSES + 1; /* the object's hint: sleep at once */
	const int lng = 100 * ST_SPIN_WAKEUP, normal = 100 * ST_SPIN_HANDOFF;
	int it, misses;
	st_crowd.due = UINT64_MAX;
	st_tls.wake_misses = 0;

	/* a wake, then at once: the long spin, on both hints */
	misses = skip;
	st_crowd.crowded = 0;
	st_spin_note_wake(1);
	CHECK_EQ(st_spin_handoff_gated(0, 0, never, 0, &misses, &it, 0), ST_SPIN_OUTCOME_GAVE_UP);
	CHECK(it >= lng && it < lng + ST_SPIN_GAP_MAX);
	CHECK_EQ(st_tls.wake_misses, 1);
	/* the note is spent: the object's hint again */
	misses = skip;
	tries = 0;
	CHECK_EQ(st_spin_handoff_gated(0, 0, never, 0, &misses, &it, 0), ST_SPIN_OUTCOME_NOT);
	CHECK_EQ(tries, 0);
	/* a wake that acquires resets both hints */
	misses = skip;
	st_crowd.crowded = 0;
	st_spin_note_wake(2);
	tries = 0;
	CHECK_EQ(st_spin_handoff_gated(0, 0, acquire_third, 0, &misses, &it, 0),
		 ST_SPIN_OUTCOME_ACQUIRED);
	CHECK_EQ(tries, 3);
	CHECK_EQ(st_tls.wake_misses, 0);
	CHECK_EQ(misses, 0);
	/* too many calls since the wake: the object's hint */
	misses = skip;
	st_spin_note_wake(1);
	st_tls.ops += ST_WOKE_OPS + 1;
	tries = 0;
	CHECK_EQ(st_spin_handoff_gated(0, 0, never, 0, &misses, &it, 0), ST_SPIN_OUTCOME_NOT);
	CHECK_EQ(tries, 0);
	/* ... but ST_WOKE_OPS are still close enough */
	misses = skip;
	st_crowd.crowded = 0;
	st_spin_note_wake(1);
	st_tls.ops += ST_WOKE_OPS;
	CHECK_EQ(st_spin_handoff_gated(0, 0, never, 0, &misses, &it, 0), ST_SPIN_OUTCOME_GAVE_UP);
	CHECK(it >= lng);
	/* a wake that woke nobody is no wake */
	misses = skip;
	st_spin_note_wake(0);
	st_spin_note_wake(-1);
	tries = 0;
	CHECK_EQ(st_spin_handoff_gated(0, 0, never, 0, &misses, &it, 0), ST_SPIN_OUTCOME_NOT);
	CHECK_EQ(tries, 0);
	/* a second long spin that ran out: this thread stops them (the
	 * probes of tests/spin/adaptive.c aside) */
	st_tls.wake_misses = 0;
	for (int i = 0; i < ST_SPIN_MISSES; i++) {
		misses = skip;
		st_crowd.crowded = 0;
		st_spin_note_wake(1);
		CHECK_EQ(st_spin_handoff_gated(0, 0, never, 0, &misses, &it, 0),
			 ST_SPIN_OUTCOME_GAVE_UP);
		CHECK(it >= lng);
	}
	misses = skip;
	st_spin_note_wake(1);
	tries = 0;
	CHECK_EQ(st_spin_handoff_gated(0, 0, never, 0, &misses, &it, 0), ST_SPIN_OUTCOME_NOT);
	CHECK_EQ(tries, 0);
	/* crowded: no long spin; an ungated object's own budget still spins */
	st_tls.wake_misses = 0;
	misses = 0;
	st_crowd.crowded = 1;
	st_spin_note_wake(1);
	CHECK_EQ(st_spin_handoff_gated(0, 0, never, 0, &misses, &it, 0), ST_SPIN_OUTCOME_GAVE_UP);
	CHECK(it >= normal && it < normal + ST_SPIN_GAP_MAX);
	CHECK_EQ(st_tls.wake_misses, 0);
	st_crowd.crowded = 0;

	/* slept, then a post that found nobody asleep: one probe */
	misses = skip;
	st_spin_note_slept(1);
	st_spin_note_wake(0);
	CHECK_EQ(st_spin_handoff_gated(0, 0, never, 0, &misses, &it, 0), ST_SPIN_OUTCOME_GAVE_UP);
	CHECK(it >= normal && it < normal + ST_SPIN_GAP_MAX);
	misses = skip;
	tries = 0;
	CHECK_EQ(st_spin_handoff_gated(0, 0, never, 0, &misses, &it, 0), ST_SPIN_OUTCOME_NOT);
	CHECK_EQ(tries, 0);
	/* not slept: no probe */
	st_spin_note_slept(0);
	st_spin_note_wake(0);
	CHECK_EQ(st_spin_handoff_gated(0, 0, never, 0, &misses, &it, 0), ST_SPIN_OUTCOME_NOT);
	/* slept, then a post that woke somebody: the long spin, no probe left */
	st_spin_note_slept(1);
	st_spin_note_wake(1);
	CHECK_EQ(st_tls.handoff_slept, 0);
	CHECK_EQ(st_tls.handoff_probe, 0);
	st_tls.handoff_woke = 0;
	st_tls.wake_misses = 0;
}

int main(void)
{
	parses_loadavg();
	verdicts();
	samples_once_per_interval();
	descheduled_spin_marks_crowded();
	crowded_means_no_spin();
	lock_spin_streak();
	after_a_wake();
	puts("spin_crowd: ok");
	return 0;
}
