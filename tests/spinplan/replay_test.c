/* The what-if spin replay (analysis/model/sa_spin_replay.h) on synthetic
 * event streams: the predictions of each setting, exactly.
 * usage: test_spinplan_replay [CASE]   (tests/common/cases.h)
 * Every loop here spins 10 ns per pause, so a count of N is N x 10 ns
 * (hand-off waits: x 10 more). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "check.h"
#include "sa_model.h"
#include "sa_report.h"
#include "sa_spin_replay.h"

static struct sa_model *m;

/* Each case on a model of its own (all of them run in one process when
 * no case is named). */
static void fresh(void)
{
	sa_model_free(m);
	m = sa_model_new();
	CHECK(m);
}

#include "sa_feed.h"
#define feed(...) sa_test_feed(m, __VA_ARGS__)

#define A 0x1000
#define S 0x2000
#define P 100 /* the process; thread 100 releases, 101.. wait */

/* Setting s: bail:N is rung k of N = 25 << k. */
#define BAIL(n) (SA_SR_BAIL0 + rung(n))
#define FULL(n) (SA_SR_FULL0 + rung(n))
static unsigned rung(int n)
{
	for (unsigned k = 0; k < SA_SR_RUNGS; k++)
		if (SA_SR_COUNT0 << k == n)
			return k;
	CHECK(0);
	return 0;
}

/* The process, started with SYNCTRACE_SPIN unset (bail:100, adaptive
 * mutexes only), and an adaptive mutex A. */
static void start(void)
{
	fresh();
	feed(SA_EV_meta_start, 1, P, P, "format_major", I(2), "format_minor", I(0), "level", I(1),
	     "spin_mode", I(ST_SPIN_MODE_BAIL), "spin_limit", I(100), NULL);
	feed(SA_EV_meta_config, 2, P, P, "sem_max_mode", I(0), "sem_max", I(-1),
	     "all_mutexes_spin", I(0), NULL);
	feed(SA_EV_mutex_init, 3, P, P, "obj", I(A), "caller", I(0x400), "kind", I(3), NULL);
}

static void requested(int64_t ts, int tid)
{
	feed(SA_EV_mutex_requested, ts, P, tid, "obj", I(A), "caller", I(0x500), "owner", I(P),
	     "waiters", I(0), NULL);
}

static void loop(int64_t ts, int tid, uint64_t obj, int iterations, int outcome)
{
	feed(SA_EV_spin_loop, ts, P, tid, "obj", I(obj), "iterations", I(iterations), "outcome",
	     I(outcome), "mode", I(ST_SPIN_MODE_BAIL), "spin_ns", I(iterations * 10), NULL);
}

static void wake(int64_t ts, int tid, uint64_t obj)
{
	feed(SA_EV_futex_wake, ts, P, tid, "obj", I(obj), "uaddr", I(obj), "requested", I(1),
	     "woken", I(1), NULL);
}

static void slept(int64_t ts, int tid, uint64_t obj, int64_t ns)
{
	feed(SA_EV_futex_wait, ts, P, tid, "obj", I(obj), "uaddr", I(obj), "expected", I(1),
	     "result", I(0), "slept_ns", I(ns), NULL);
}

static void acquired(int64_t ts, int tid, int how, int sleeps, int64_t wait)
{
	feed(SA_EV_mutex_acquired, ts, P, tid, "obj", I(A), "caller", I(0x500), "how", I(how),
	     "spins", I(0), "sleeps", I(sleeps), "wait_ns", I(wait), "acquisitions", I(1),
	     "contended", I(1), NULL);
}

static struct sa_sr_eval ev;

static void eval(void)
{
	sa_spin_replay_eval(m, NULL, NULL, &ev);
}

#define PRED(set, sp, sl, cpu, w)                                                              \
	do {                                                                                   \
		CHECK_EQ(ev.s[set].spun, sp);                                                  \
		CHECK_EQ(ev.s[set].sleeps, sl);                                                \
		CHECK_EQ(ev.s[set].spin_ns, cpu);                                              \
		CHECK_EQ(ev.s[set].wait_ns, w);                                                \
	} while (0)

/* Two waits on an adaptive mutex. W1 spins 400 ns and takes it (begun at
 * 1000, loop 1100-1500, acquired 1520): F 500, grace 100, it needs 400 ns
 * of spinning. W2 spins 300 ns and runs out (2000, loop 2000-2300), sleeps
 * from 2400, the release's wake is at 2900, it has the lock at 3050: F
 * 900, grace 100, needs 800; its wake latency 1050 - 900 = 150 is L. */
static void two_waits(void)
{
	start();
	requested(1000, 101);
	loop(1500, 101, A, 40, ST_SPIN_OUTCOME_ACQUIRED);
	acquired(1520, 101, ST_MUTEX_HOW_SPIN, 0, 520);
	requested(2000, 102);
	loop(2300, 102, A, 30, ST_SPIN_OUTCOME_GAVE_UP);
	wake(2900, P, A);
	slept(3000, 102, A, 600);
	acquired(3050, 102, ST_MUTEX_HOW_SLEEP, 1, 1050);
}

static void spin_or_sleep_per_budget(void)
{
	two_waits();
	eval();
	CHECK_EQ(ev.waits, 2);
	CHECK_EQ(ev.rec_spun, 1);
	CHECK_EQ(ev.rec_sleeps, 1);
	CHECK_EQ(ev.rec_spin_ns, 700);
	CHECK_EQ(ev.rec_wait_ns, 1570);
	CHECK_EQ(ev.wake_ns, 150);
	CHECK_EQ(ev.wake_assumed, 0);
	CHECK_EQ(ev.free_max_ns, 900);
	CHECK(sa_spin_replay_pause_ns(m) == 10.0);
	/* none: both sleep; W1 waits F + L = 650, W2 as recorded. */
	PRED(SA_SR_NONE, 0, 2, 0, 650 + 1050);
	/* 250 ns: neither reaches its release; both spin it out. */
	PRED(BAIL(25), 0, 2, 500, 650 + 1050);
	/* 500 ns: W1 takes it spinning (400), W2 spins 500 and sleeps. */
	PRED(BAIL(50), 1, 1, 900, 500 + 1050);
	/* 1000 ns: both; W2 waits F = 900, not 1050. */
	PRED(BAIL(100), 2, 0, 1200, 1400);
	PRED(FULL(102400), 2, 0, 1200, 1400);
	PRED(SA_SR_DEFAULT, 2, 0, 1200, 1400); /* adaptive: the default spins */
	/* Score wait + spin: none 1700 is best; the default 2600. */
	CHECK_EQ(ev.best, SA_SR_NONE);
	CHECK_EQ(ev.rec, SA_SR_NONE);
	CHECK(ev.gain > 0.346 && ev.gain < 0.347); /* 1 - 1700 / 2600 */
	CHECK_EQ(ev.second, BAIL(25));           /* 2200: predicts the same waits, spins */
	CHECK_EQ(ev.last_rung, rung(100));
	CHECK_EQ(ev.recorded, SA_SR_DEFAULT);
	CHECK_EQ(ev.reproduces, 1); /* the default replayed: 0 futex waits, 1 recorded */
	CHECK(!strcmp(ev.confidence, "low")); /* 2 waits */
}

/* A normal mutex does not spin unset: the default is none for its lock
 * waits. */
static void default_normal_mutex(void)
{
	fresh();
	feed(SA_EV_meta_start, 1, P, P, "format_major", I(2), "format_minor", I(0), "level", I(1),
	     "spin_mode", I(ST_SPIN_MODE_BAIL), "spin_limit", I(100), NULL);
	feed(SA_EV_mutex_init, 3, P, P, "obj", I(A), "caller", I(0x400), "kind", I(0), NULL);
	requested(1000, 101);
	loop(1500, 101, A, 40, ST_SPIN_OUTCOME_ACQUIRED);
	acquired(1520, 101, ST_MUTEX_HOW_SPIN, 0, 520);
	eval();
	PRED(SA_SR_DEFAULT, 0, 1, 0, 500 + SA_SR_WAKE_NS);
	CHECK_EQ(ev.wake_assumed, 1); /* nothing slept once: L assumed */
	PRED(BAIL(100), 1, 0, 400, 500);
}

/* bail: another thread already waiting when a wait begins stops its spin
 * at once. Wa (101) begins at 1000, runs out at 1250 (25 pauses), sleeps
 * from 1300, woken by the release at 1900, acquires at 2010 (F 900, grace
 * 50, needs 850, L 110). Wb (102) begins at 1100 while Wa waits, spins
 * 200 ns and takes it at 1310 (F 200, grace 0, needs 200). */
static void bail_sees_sleepers(void)
{
	start();
	requested(1000, 101);
	requested(1100, 102);
	loop(1250, 101, A, 25, ST_SPIN_OUTCOME_GAVE_UP);
	loop(1300, 102, A, 20, ST_SPIN_OUTCOME_ACQUIRED);
	acquired(1310, 102, ST_MUTEX_HOW_SPIN, 0, 210);
	wake(1900, 103, A);
	slept(2000, 101, A, 700);
	acquired(2010, 101, ST_MUTEX_HOW_SLEEP, 1, 1010);
	eval();
	CHECK_EQ(ev.wake_ns, 110);
	/* bail:100 (1000 ns): Wa takes it spinning (850), Wb bails and sleeps
	 * (F + L = 310). full:100: both spin. */
	PRED(BAIL(100), 1, 1, 850, 900 + 310);
	PRED(FULL(100), 2, 0, 1050, 900 + 200);
	/* full:25 (250 ns): only Wb. */
	PRED(FULL(25), 1, 1, 250 + 200, 1010 + 200);
}

/* Semaphore waits are hand-off waits: count x 10 pauses, and after two
 * spins in a row that ran out, no spin but probes (the runtime's
 * adaptation, replayed). Four waits, each begun at base, a 1000 ns spin
 * that runs out, asleep from base + 1200, the post's wake at base +
 * 20200, the token at base + 20600: F 20200, grace 200, needs 20000. */
static void handoff_adapts(void)
{
	start();
	for (int i = 0; i < 4; i++) {
		int64_t b = 100000 * (i + 1);
		feed(SA_EV_sem_wait_begin, b, P, 101, "obj", I(S), "caller", I(0x600), "value", I(0),
		     "nwaiters", I(0), NULL);
		loop(b + 1100, 101, S, 100, ST_SPIN_OUTCOME_GAVE_UP);
		wake(b + 20200, P, S);
		slept(b + 20500, 101, S, 19300);
		feed(SA_EV_sem_acquired, b + 20600, P, 101, "obj", I(S), "caller", I(0x600), "how",
		     I(ST_SEM_HOW_SLEEP), "spins", I(100), "sleeps", I(1), "wait_ns", I(20600), NULL);
	}
	eval();
	CHECK_EQ(ev.waits, 4);
	CHECK_EQ(ev.wake_ns, 400);
	CHECK_EQ(ev.ran_out, 4);
	CHECK_EQ(ev.ran_out_near, 0);
	/* Unset: 10,000 ns twice, then no spin (misses 2). */
	PRED(SA_SR_DEFAULT, 0, 4, 20000, 4 * 20600);
	/* bail:200 is 20,000 ns: every wait takes its token spinning. */
	PRED(BAIL(200), 4, 0, 80000, 4 * 20200);
	PRED(SA_SR_NONE, 0, 4, 0, 4 * 20600);
	CHECK_EQ(ev.rec, SA_SR_NONE);
}

/* Spins that ran out and were released right after (within 2 us): from
 * the second on, a spin is replayed as holding the releaser off. Three
 * waits at base: a 400 ns spin runs out at base + 500, asleep from base +
 * 600, the wake at base + 700, the lock at base + 950 (F 700, needs 500). */
static void held_off_waits(int n)
{
	for (int i = 0; i < n; i++) {
		int64_t b = 10000 * (i + 1);
		requested(b, 101);
		loop(b + 500, 101, A, 40, ST_SPIN_OUTCOME_GAVE_UP);
		wake(b + 700, P, A);
		slept(b + 900, 101, A, 300);
		acquired(b + 950, 101, ST_MUTEX_HOW_SLEEP, 1, 950);
	}
}

static void held_off_after_two(void)
{
	start();
	held_off_waits(3);
	eval();
	CHECK_EQ(ev.ran_out, 3);
	CHECK_EQ(ev.ran_out_near, 3);
	CHECK_EQ(ev.held_off, 2);
	/* bail:50 (500 ns): the first takes it spinning; the others spin 500,
	 * sleep, and the release comes 100 ns later than recorded. */
	PRED(BAIL(50), 1, 2, 1500, 700 + 2 * 1050);
	PRED(SA_SR_NONE, 0, 3, 0, 3 * 950);
}

/* The evidence counts trace-wide: after two waits on A held their
 * releaser off, a wait on mutex B (spin 400 ns, acquired: F 400, grace 0)
 * is replayed held off too: bail:50 (500 ns) spins it out and sleeps,
 * waiting F + 500 and then its wake latency. */
#define B 0x3000
static void held_off_anywhere(void)
{
	start();
	feed(SA_EV_mutex_init, 4, P, P, "obj", I(B), "caller", I(0x410), "kind", I(3), NULL);
	held_off_waits(2);
	feed(SA_EV_mutex_requested, 50000, P, 102, "obj", I(B), "caller", I(0x510), "owner", I(P),
	     "waiters", I(0), NULL);
	loop(50400, 102, B, 40, ST_SPIN_OUTCOME_ACQUIRED);
	feed(SA_EV_mutex_acquired, 50420, P, 102, "obj", I(B), "caller", I(0x510), "how",
	     I(ST_MUTEX_HOW_SPIN), "spins", I(40), "sleeps", I(0), "wait_ns", I(420),
	     "acquisitions", I(1), "contended", I(1), NULL);
	const struct sa_sr_acc *a = NULL;
	for (uint32_t i = 0; i < m->nobjs && !a; i++)
		if (m->objs[i].addr == B)
			a = sa_spin_replay_accs(m, i);
	CHECK(a);
	CHECK_EQ(a->waits, 1);
	CHECK_EQ(a->ran_out, 0);
	CHECK_EQ(a->held_off, 1);
	const struct sa_sr_pred *p = &a->p[0][BAIL(50)];
	CHECK_EQ(p->spun, 0);
	CHECK_EQ(p->sleeps, 1);
	CHECK_EQ(p->spin_ns, 500);
	CHECK_EQ(p->wait_ns, 900);
	CHECK_EQ(p->added, 1);
	/* none does not spin: nothing to hold off; it sleeps, F + L. */
	CHECK_EQ(a->p[0][SA_SR_NONE].spin_ns, 0);
	CHECK_EQ(a->p[0][SA_SR_NONE].wait_ns, 400);
}

/* A wake latency of 200 us: woken threads waited for a CPU; the replay
 * says its gains are optimistic, and its confidence is low. */
static void overload_lowers_confidence(void)
{
	start();
	requested(1000, 101);
	loop(1300, 101, A, 30, ST_SPIN_OUTCOME_GAVE_UP);
	wake(2000, P, A);
	slept(202000, 101, A, 200600);
	acquired(202100, 101, ST_MUTEX_HOW_SLEEP, 1, 201100);
	eval();
	CHECK_EQ(ev.wake_ns, 200100);
	CHECK_EQ(ev.overloaded, 1);
	CHECK(!strcmp(ev.confidence, "low"));
	/* F 1000, grace 100: bail:100 (1000 ns) takes it spinning for 900,
	 * as the default does; longer budgets spin no more, but none spins
	 * less and waits F + ... as recorded: the choice is among those
	 * spinning no more than the default. */
	CHECK(ev.s[ev.rec].spin_ns <= ev.s[SA_SR_DEFAULT].spin_ns);
	PRED(SA_SR_DEFAULT, 1, 0, 900, 1000);
}

/* A timed-out wait is counted, not replayed. */
static void timeout_not_replayed(void)
{
	start();
	requested(1000, 101);
	slept(1900, 101, A, 800);
	feed(SA_EV_mutex_timeout, 2000, P, 101, "obj", I(A), "caller", I(0x500), "sleeps", I(1),
	     "wait_ns", I(1000), NULL);
	eval();
	CHECK_EQ(ev.waits, 0);
	CHECK_EQ(ev.timeouts, 1);
}

/* A wait that slept, whose release's wake is stamped a little before the
 * futex wait began by the waiter's clock (two CPUs' times a few µs apart;
 * seen once in a loaded CI run): it was released after it slept, so no
 * setting that does not spin takes it without sleeping, and the recorded
 * setting (none here) gives back what was recorded. W (101) begins at
 * 1000, sleeps from 1100 (the wait's end at 2000 less its 900 ns), the
 * wake is stamped at 1050, it has the lock at 2050. */
static void wake_before_sleep(void)
{
	fresh();
	feed(SA_EV_meta_start, 1, P, P, "format_major", I(2), "format_minor", I(0), "level", I(1),
	     "spin_mode", I(ST_SPIN_MODE_NONE), "spin_limit", I(0), NULL);
	feed(SA_EV_mutex_init, 3, P, P, "obj", I(A), "caller", I(0x400), "kind", I(3), NULL);
	requested(1000, 101);
	wake(1050, P, A);
	slept(2000, 101, A, 900);
	acquired(2050, 101, ST_MUTEX_HOW_SLEEP, 1, 1050);
	eval();
	CHECK_EQ(ev.waits, 1);
	CHECK_EQ(ev.rec_sleeps, 1);
	CHECK_EQ(ev.recorded, SA_SR_NONE);
	PRED(SA_SR_NONE, 0, 1, 0, 1050);
	CHECK_EQ(ev.reproduces, 1);
	/* the least spin takes it (the release was there) */
	PRED(BAIL(25), 1, 0, 1, 50);
}

/* Destroyed objects fold into their class: so do their accumulators. */
static void folds_into_class(void)
{
	two_waits();
	feed(SA_EV_mutex_destroy, 4000, P, P, "obj", I(A), "caller", I(0x700), "result", I(0),
	     "acquisitions", I(2), "contended", I(2), NULL);
	eval();
	CHECK_EQ(ev.waits, 2);
	PRED(BAIL(50), 1, 1, 900, 500 + 1050);
}

/* The finding and the table say it: the recommendation as `try`, the
 * ladder as data. */
static void report_says_it(void)
{
	two_waits();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sa_report_opts o = { .format = SA_FMT_JSON, .sort = SA_SORT_WAIT };
	sa_report_render(m, &o, f);
	fclose(f);
	CHECK(strstr(buf, "\"kind\": \"spin\""));
	CHECK(strstr(buf, "\"try\": \"SYNCTRACE_SPIN=none\""));
	CHECK(strstr(buf, "\"name\": \"spin.plan\""));
	CHECK(strstr(buf, "\"setting\": \"bail:50\", \"recommended\": false, \"waits\": 2, "
			  "\"spun\": 1, \"futex_waits\": 1, \"futex_waits_change\": 0, "
			  "\"spin_ns\": 900, \"wait_ns\": 1550"));
	CHECK(strstr(buf, "\"setting\": \"none\", \"recommended\": true"));
	free(buf);
}

static const struct st_case st_cases[] = {
	ST_CASE(spin_or_sleep_per_budget),
	ST_CASE(default_normal_mutex),
	ST_CASE(bail_sees_sleepers),
	ST_CASE(handoff_adapts),
	ST_CASE(held_off_after_two),
	ST_CASE(held_off_anywhere),
	ST_CASE(overload_lowers_confidence),
	ST_CASE(timeout_not_replayed),
	ST_CASE(wake_before_sleep),
	ST_CASE(folds_into_class),
	ST_CASE(report_says_it),
};

ST_MAIN()
