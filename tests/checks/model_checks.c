/* The checks on synthetic sequences: lock-order cycles of two and three
 * mutexes (and none for a consistent order), misuse events, the level
 * gate; the HTML timeline's window (busiest second, cap). Exact numbers.
 * usage: test_checks_model CASE */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sa_checks.h"
#include "sa_model.h"
#include "sa_report.h"
#include "sa_timeline.h"

static struct sa_model *m;
static struct sa_checks *c;

#include "sa_feed.h"
/* An event: id, time, pid, tid, then name/value pairs ended by NULL. */
#define feed(...) sa_test_feed(m, __VA_ARGS__)
#define START(ts, pid, level) \
	feed(SA_EV_meta_start, ts, pid, pid, "format_major", I(1), "format_minor", I(0), \
	     "level", I(level), "spin_mode", I(1), "spin_limit", I(100), NULL)
/* A full-level uncontended hold of mutex `a` by tid over [from, to]. */
#define HOLD(tid, a, from, to) \
	feed(SA_EV_mutex_released, to, 1, tid, "obj", I(a), "caller", I(0x400000 + (a)), \
	     "waiters", I(0), "woken", I(-1), "acquisitions", I(1), "hold_ns", I((to) - (from)), NULL)

static unsigned count(enum sa_check k)
{
	sa_checks_finish(c, m);
	unsigned n = 0;
	for (uint32_t i = 0; i < c->nfindings; i++)
		n += c->findings[i].check == k;
	return n;
}

static void setup(int level)
{
	m = sa_model_new();
	CHECK(m);
	c = sa_checks_attach(m);
	CHECK(c);
	START(1, 1, level);
}

/* T1: A then B (nested); T2: B then A, later: one cycle of two. */
static void order_two(void)
{
	setup(2);
	HOLD(11, 0xB0, 200, 300);
	HOLD(11, 0xA0, 100, 400);
	HOLD(12, 0xA0, 1200, 1300);
	HOLD(12, 0xB0, 1100, 1400);
	CHECK_EQ(count(SA_CHK_LOCK_ORDER), 1);
	CHECK_EQ(c->nedges, 2);
	const struct sa_finding *f = &c->findings[0];
	CHECK_EQ(f->nobj, 2);
	CHECK_EQ(f->ntid, 2);
	CHECK_EQ(f->ncaller, 4);
	CHECK(strstr(f->detail, "; A waits for") && strstr(f->detail, ", B waits for"));
}

/* A→B, B→C, C→A by three threads: one cycle of three; A→B, A→C alone: none. */
static void order_three(void)
{
	setup(2);
	HOLD(11, 0xB0, 20, 30);
	HOLD(11, 0xA0, 10, 40);
	HOLD(12, 0xC0, 120, 130);
	HOLD(12, 0xB0, 110, 140);
	CHECK_EQ(count(SA_CHK_LOCK_ORDER), 0);
	c->cycles_done = 0;
	HOLD(13, 0xA0, 220, 230);
	HOLD(13, 0xC0, 210, 240);
	CHECK_EQ(count(SA_CHK_LOCK_ORDER), 1);
	CHECK_EQ(c->findings[0].nobj, 3);
}

/* The same nesting everywhere, and a lock released before the next is
 * taken (no overlap): no edge back, no cycle. */
static void order_consistent(void)
{
	setup(2);
	for (int i = 0; i < 100; i++) {
		int64_t t = 1000 * i;
		HOLD(11 + i % 3, 0xB0, t + 20, t + 30);
		HOLD(11 + i % 3, 0xA0, t + 10, t + 40);
		HOLD(11 + i % 3, 0xC0, t + 50, t + 60); /* after A: no edge */
	}
	CHECK_EQ(count(SA_CHK_LOCK_ORDER), 0);
	CHECK_EQ(c->nedges, 1);
}

/* Contention level: holds are not known, nothing is checked. */
static void order_needs_full(void)
{
	setup(1);
	HOLD(11, 0xB0, 200, 300);
	HOLD(11, 0xA0, 100, 400);
	HOLD(12, 0xA0, 1200, 1300);
	HOLD(12, 0xB0, 1100, 1400);
	CHECK_EQ(count(SA_CHK_LOCK_ORDER), 0);
	CHECK_EQ(c->nedges, 0);
}

/* Each misuse event maps to its check; repeats from one call site count. */
static void misuse(void)
{
	setup(1);
	for (int what = 1; what <= 5; what++)
		for (int k = 0; k < 2; k++)
			feed(SA_EV_mutex_misuse, 10 + what, 1, 11, "obj", I(0x100 * what),
			     "caller", I(0x500), "what", I(what), "owner", I(12), NULL);
	feed(SA_EV_cond_misuse, 20, 1, 11, "cond", I(0x900), "caller", I(0x501), "what", I(1),
	     "mutex", I(0xA0), "other", I(0xB0), NULL);
	feed(SA_EV_cond_misuse, 21, 1, 11, "cond", I(0x900), "caller", I(0x502), "what", I(2),
	     "mutex", I(0), "other", I(0x7000), NULL);
	feed(SA_EV_sem_destroy, 22, 1, 11, "obj", I(0x980), "caller", I(0x503), "value", I(0),
	     "nwaiters", I(2), NULL);
	feed(SA_EV_sem_destroy, 23, 1, 11, "obj", I(0x990), "caller", I(0x503), "value", I(0),
	     "nwaiters", I(0), NULL);
	CHECK_EQ(count(SA_CHK_UNLOCK_NOT_OWNER), 1);
	CHECK_EQ(c->findings[0].count, 2);
	CHECK_EQ(count(SA_CHK_UNLOCK_UNLOCKED), 1);
	CHECK_EQ(count(SA_CHK_DESTROY_LOCKED), 1);
	CHECK_EQ(count(SA_CHK_SELF_DEADLOCK), 1);
	CHECK_EQ(count(SA_CHK_USE_DESTROYED), 1);
	CHECK_EQ(count(SA_CHK_COND_TWO_MUTEXES), 1);
	CHECK_EQ(count(SA_CHK_DESTROY_WAITED), 2);
	CHECK_EQ(count(SA_CHK_EXIT_HOLDING), 0); /* owner 12 never exited */
	CHECK_EQ(c->nfindings, 8);
}

/* A waiter that read the owner word before its owner unlocked and ended,
 * but whose requested event is stamped after the owner's exit, then gets
 * the mutex: no finding (the owner did release it). A waiter that never
 * gets it: the owner ended holding it. */
static void exit_holding_stale_owner(void)
{
	setup(2);
	feed(SA_EV_thread_start, 5, 1, 12, "creator", I(1), "start_routine", I(0x10), NULL);
	feed(SA_EV_mutex_released, 10, 1, 12, "obj", I(0xA0), "caller", I(0x400), "waiters",
	     I(1), "woken", I(1), "acquisitions", I(1), NULL);
	feed(SA_EV_thread_exit, 11, 1, 12, "cancelled", I(0), NULL);
	feed(SA_EV_mutex_requested, 12, 1, 11, "obj", I(0xA0), "caller", I(0x500), "owner",
	     I(12), "waiters", I(0), NULL);
	feed(SA_EV_mutex_acquired, 13, 1, 11, "obj", I(0xA0), "caller", I(0x500), "how", I(2),
	     "wait_ns", I(3), "acquisitions", I(2), "contended", I(1), NULL);
	CHECK_EQ(count(SA_CHK_EXIT_HOLDING), 0);
	sa_checks_free(c);
	sa_model_free(m);

	setup(2);
	feed(SA_EV_thread_start, 5, 1, 12, "creator", I(1), "start_routine", I(0x10), NULL);
	feed(SA_EV_thread_exit, 11, 1, 12, "cancelled", I(0), NULL);
	feed(SA_EV_mutex_requested, 12, 1, 11, "obj", I(0xA0), "caller", I(0x500), "owner",
	     I(12), "waiters", I(0), NULL);
	CHECK_EQ(count(SA_CHK_EXIT_HOLDING), 1);
}

/* An unlock emits its event after the swap and the futex wake, so the next
 * owner's events can be stamped first: thread 11's release comes after
 * thread 12 took the mutex, released it and destroyed it (and the address
 * was reused). A mutex has one owner: no finding. Then a thread that did
 * end holding one, which nobody took after it: one. */
static void exit_holding_late_release(void)
{
	setup(2);
	feed(SA_EV_thread_start, 5, 1, 11, "creator", I(1), "start_routine", I(0x10), NULL);
	feed(SA_EV_thread_start, 6, 1, 12, "creator", I(1), "start_routine", I(0x10), NULL);
	feed(SA_EV_mutex_init, 8, 1, 1, "obj", I(0xA0), "caller", I(0x300), "kind", I(0), NULL);
	feed(SA_EV_mutex_acquired, 20, 1, 11, "obj", I(0xA0), "caller", I(0x500), "how", I(2),
	     "wait_ns", I(3), "acquisitions", I(1), "contended", I(1), NULL);
	feed(SA_EV_mutex_released, 22, 1, 12, "obj", I(0xA0), "caller", I(0x600), "waiters",
	     I(0), "woken", I(-1), "acquisitions", I(2), "hold_ns", I(1), NULL);
	feed(SA_EV_mutex_destroy, 23, 1, 12, "obj", I(0xA0), "caller", I(0x700), "result", I(0),
	     "acquisitions", I(2), "contended", I(1), NULL);
	feed(SA_EV_mutex_released, 24, 1, 11, "obj", I(0xA0), "caller", I(0x600), "waiters",
	     I(0), "woken", I(0), "acquisitions", I(1), "hold_ns", I(4), NULL);
	feed(SA_EV_mutex_init, 30, 1, 1, "obj", I(0xA0), "caller", I(0x300), "kind", I(0), NULL);
	feed(SA_EV_thread_exit, 40, 1, 11, "cancelled", I(0), NULL);
	CHECK_EQ(count(SA_CHK_EXIT_HOLDING), 0);
	sa_checks_free(c);
	sa_model_free(m);

	/* The next owner's contended acquisition, its own release not seen. */
	setup(2);
	feed(SA_EV_thread_start, 5, 1, 11, "creator", I(1), "start_routine", I(0x10), NULL);
	feed(SA_EV_mutex_acquired, 20, 1, 11, "obj", I(0xA0), "caller", I(0x500), "how", I(2),
	     "wait_ns", I(3), "acquisitions", I(1), "contended", I(1), NULL);
	feed(SA_EV_mutex_acquired, 22, 1, 12, "obj", I(0xA0), "caller", I(0x500), "how", I(1),
	     "wait_ns", I(3), "acquisitions", I(2), "contended", I(2), NULL);
	feed(SA_EV_thread_exit, 40, 1, 11, "cancelled", I(0), NULL);
	CHECK_EQ(count(SA_CHK_EXIT_HOLDING), 0);
	sa_checks_free(c);
	sa_model_free(m);

	/* Nobody took it after thread 11: it ended holding it. */
	setup(2);
	feed(SA_EV_thread_start, 5, 1, 11, "creator", I(1), "start_routine", I(0x10), NULL);
	feed(SA_EV_mutex_acquired, 20, 1, 11, "obj", I(0xA0), "caller", I(0x500), "how", I(2),
	     "wait_ns", I(3), "acquisitions", I(1), "contended", I(1), NULL);
	feed(SA_EV_mutex_released, 22, 1, 12, "obj", I(0xB0), "caller", I(0x600), "waiters",
	     I(0), "woken", I(-1), "acquisitions", I(1), "hold_ns", I(1), NULL);
	feed(SA_EV_thread_exit, 40, 1, 11, "cancelled", I(0), NULL);
	CHECK_EQ(count(SA_CHK_EXIT_HOLDING), 1);
}

/* SYNCTRACE_SEM_MAX: sem:misuse findings, one per (semaphore, call site),
 * counted; the note says where the check ran. */
static void sem_over_max(void)
{
	setup(1);
	feed(SA_EV_meta_config, 1, 1, 1, "sem_max_mode", I(1), "sem_max", I(-1), NULL);
	feed(SA_EV_sem_init, 2, 1, 11, "obj", I(0x980), "caller", I(0x500), "value", I(1),
	     "pshared", I(0), NULL);
	for (int k = 0; k < 3; k++)
		feed(SA_EV_sem_misuse, 10 + k, 1, 11, "obj", I(0x980), "caller", I(0x501),
		     "what", I(1), "value", I(2 + k), "limit", I(1), NULL);
	feed(SA_EV_sem_misuse, 20, 1, 12, "obj", I(0x980), "caller", I(0x502), "what", I(1),
	     "value", I(2), "limit", I(1), NULL);
	feed(SA_EV_sem_misuse, 21, 1, 12, "obj", I(0x990), "caller", I(0x502), "what", I(2),
	     "value", I(9), "limit", I(8), NULL);
	CHECK_EQ(count(SA_CHK_SEM_OVER_MAX), 3);
	CHECK_EQ(c->nfindings, 3);
	CHECK_EQ(c->findings[0].count, 3);
	CHECK_EQ(c->findings[0].ts, 10);
	CHECK_EQ(c->findings[0].tid[0], 11);
	CHECK_EQ(c->findings[0].caller[0], 0x501);
	/* The sentence gives the highest count of its repeats. */
	CHECK(!strcmp(c->findings[0].detail, "thread 11 posted semaphore 0x980 up to 4, above its "
					     "initial value 1 (SYNCTRACE_SEM_MAX=init)"));
	CHECK(!strcmp(c->findings[2].detail, "thread 12 posted semaphore 0x990 up to 9, above the "
					     "limit 8 (SYNCTRACE_SEM_MAX=N)"));
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sa_report_opts o = { .format = SA_FMT_JSON, .checks = c };
	sa_report_render(m, &o, f);
	fclose(f);
	CHECK(strstr(buf, "{\"check\": \"sem_over_max\", \"vpid\": 1, \"procname\": \"prog\", "
			  "\"time_ns\": 10, "));
	CHECK(strstr(buf, "\"count\": 3, \"objects\": \"sem 0x980\", \"threads\": \"11\", "
			  "\"callers\": \"0x501\", "));
	CHECK(strstr(buf, "sem_over_max checked in 1 process(es) (pid=SYNCTRACE_SEM_MAX: 1=init); "
			  "not asked for in 0, unknown in 0"));
	free(buf);
	sa_checks_free(c);
	sa_model_free(m);
	/* Not asked for: the note says so. */
	setup(1);
	feed(SA_EV_meta_config, 1, 1, 1, "sem_max_mode", I(0), "sem_max", I(-1), NULL);
	o.checks = c;
	buf = NULL;
	f = open_memstream(&buf, &len);
	sa_report_render(m, &o, f);
	fclose(f);
	CHECK(strstr(buf, "sem_over_max not checked: no process was run with SYNCTRACE_SEM_MAX"));
	free(buf);
}

/* Busiest second: 10 events in second 0, 50 in second 2, 20 in second 3;
 * the window is second 2 narrowed to its events. */
static void timeline_busiest(void)
{
	m = sa_model_new();
	struct sa_timeline *t = sa_timeline_attach(m, 0, 0, 0);
	CHECK(t);
	START(0, 1, 2);
	int64_t s = 1000000000;
	for (int i = 1; i < 10; i++)
		HOLD(11, 0xA0, i * 1000, i * 1000 + 500);
	for (int i = 0; i < 50; i++)
		HOLD(11, 0xA0, 2 * s + 100 + i * 1000, 2 * s + 100 + i * 1000 + 500);
	for (int i = 0; i < 20; i++)
		HOLD(12, 0xA0, 3 * s + i * 1000, 3 * s + i * 1000 + 500);
	const struct sa_tl_window *w = sa_timeline_window(t);
	CHECK_EQ(w->events, 50);
	CHECK_EQ(w->nspans, 50);
	CHECK_EQ(w->start, 2 * s + 600);
	CHECK_EQ(w->end, 2 * s + 100 + 49 * 1000 + 500);
	CHECK(sa_timeline_window(t) == w); /* chosen once */
	sa_timeline_free(t);
}

/* A window past the cap: SA_TL_MAX_SPANS kept, the rest counted, the
 * window shortened to the cap. */
static void timeline_cap(void)
{
	m = sa_model_new();
	struct sa_timeline *t = sa_timeline_attach(m, 1, 0, 10);
	CHECK(t);
	START(0, 1, 2);
	for (int i = 0; i < SA_TL_MAX_SPANS + 500; i++)
		HOLD(11, 0xA0, 1000 + i * 100, 1000 + i * 100 + 50);
	const struct sa_tl_window *w = sa_timeline_window(t);
	CHECK_EQ(w->nspans, SA_TL_MAX_SPANS);
	CHECK_EQ(w->spans_capped, 500);
	CHECK_EQ(w->end, 1000 + SA_TL_MAX_SPANS * 100 + 50);
	sa_timeline_free(t);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} cases[] = {
		{ "order_two", order_two }, { "order_three", order_three },
		{ "order_consistent", order_consistent }, { "order_needs_full", order_needs_full },
		{ "misuse", misuse }, { "timeline_busiest", timeline_busiest },
		{ "timeline_cap", timeline_cap }, { "sem_over_max", sem_over_max },
		{ "exit_holding_stale_owner", exit_holding_stale_owner },
		{ "exit_holding_late_release", exit_holding_late_release },
	};
	int ran = 0;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (argc < 2 || !strcmp(argv[1], cases[i].name)) {
			cases[i].fn();
			sa_checks_free(c);
			c = NULL;
			sa_model_free(m);
			m = NULL;
			ran++;
		}
	if (!ran) {
		fprintf(stderr, "unknown case %s\n", argv[1]);
		return 2;
	}
	return 0;
}
