/* The wait-for graph (analysis/model/waitfor.c) on synthetic events: the
 * shapes a program cannot reach deterministically, with the stuck set,
 * each thread's state and the report's hang finding asserted exactly.
 * usage: test_hang_waitfor CASE */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "check.h"
#include "sa_hangs.h"
#include "sa_model.h"
#include "sa_report.h"
#include "sa_waitfor.h"

static struct sa_model *m;

/* Every case starts with a model of its own. */
static void fresh(void)
{
	sa_model_free(m);
	m = sa_model_new();
	CHECK(m);
}

static void last(void)
{
	sa_model_free(m);
}

#include "sa_feed.h"
#define feed(...) sa_test_feed(m, __VA_ARGS__)
#define P 100
#define START(ts) \
	feed(SA_EV_meta_start, ts, P, P, "format_major", I(2), "format_minor", I(2), \
	     "level", I(1), "spin_mode", I(1), "spin_limit", I(100), NULL)
#define MA 0x1000 /* mutexes */
#define MB 0x1100
#define CV 0x2000
#define SEM 0x3000
#define RW 0x4000
#define ONCE 0x5000
#define BAR 0x6000

static void requested(int64_t ts, int tid, uint64_t obj, int owner)
{
	feed(SA_EV_mutex_requested, ts, P, tid, "obj", I(obj), "caller", I(0x500), "owner",
	     I(owner), "waiters", I(0), NULL);
}

static void acquired(int64_t ts, int tid, uint64_t obj)
{
	feed(SA_EV_mutex_acquired, ts, P, tid, "obj", I(obj), "caller", I(0x500), "how", I(2),
	     "spins", I(0), "sleeps", I(1), "wait_ns", I(5), "acquisitions", I(1),
	     "contended", I(1), NULL);
}

/* Model thread index of tid (which must exist). */
static uint32_t ti(int tid)
{
	for (uint32_t i = 0; i < m->nthreads; i++)
		if (m->threads[i].vtid == tid)
			return i;
	CHECK(!"no such thread");
	return 0;
}

static const char *state(int tid)
{
	const struct sa_waitfor *w = sa_waitfor_solve(m);
	CHECK(w);
	return sa_hang_state(m, w, ti(tid));
}

/* The report's JSON: how many hang findings, and the first one's verdict. */
static void hang_findings(unsigned want, const char *verdict)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sa_report_opts o = { .format = SA_FMT_JSON };
	CHECK(f && !sa_report_render(m, &o, f));
	fclose(f);
	unsigned n = 0;
	for (const char *p = buf; (p = strstr(p, "\"kind\": \"hang\"")); p++)
		n++;
	CHECK_EQ(n, want);
	if (verdict) {
		char v[64];
		snprintf(v, sizeof(v), "\"verdict\": \"%s\"", verdict);
		CHECK(strstr(strstr(buf, "\"kind\": \"hang\""), v));
	}
	free(buf);
}

/* 101 took A after waiting and exited holding it; 102 sleeps on A. */
static void holder_exited(void)
{
	fresh();
	START(1);
	requested(2, 101, MA, 103);
	acquired(3, 101, MA);
	feed(SA_EV_thread_exit, 4, P, 101, "cancelled", I(0), NULL);
	requested(5, 102, MA, 101);
	CHECK_EQ(sa_waitfor_solve(m)->stuck, 1);
	CHECK(!strcmp(state(102), "stuck"));
	hang_findings(1, "no_waker");
}

/* A normal mutex relocked by its owner sleeps on itself. */
static void self_relock(void)
{
	fresh();
	START(1);
	feed(SA_EV_mutex_misuse, 2, P, 101, "obj", I(MA), "caller", I(0x500), "what",
	     I(ST_MUTEX_MISUSE_RELOCK_OWNER), "owner", I(101), NULL);
	CHECK(!strcmp(state(101), "stuck"));
	hang_findings(1, "cycle");
}

/* 102 sleeps on A, whose owner word said 0 (just released): unknown. */
static void unknown_holder(void)
{
	fresh();
	START(1);
	requested(2, 102, MA, 0);
	CHECK_EQ(sa_waitfor_solve(m)->blocked, 1);
	CHECK(!strcmp(state(102), "unknown"));
	hang_findings(0, NULL);
}

/* The cond_cycle shape, but the condvar wait is timed: it ends. */
/* 101 waits on CV (from ts), 102 signals it (ts + 1), 101 wakes (ts + 2). */
static void cond_round1(int64_t ts)
{
	feed(SA_EV_cond_enqueued, ts, P, 101, "cond", I(CV), "caller", I(0x600), "mutex", I(MB),
	     "node", I(0x7000), "timed", I(0), NULL);
	feed(SA_EV_cond_signal, ts + 1, P, 102, "cond", I(CV), "caller", I(0x610), "moved", I(1),
	     NULL);
	feed(SA_EV_cond_woke, ts + 2, P, 101, "cond", I(CV), "node", I(0x7000), "how", I(0), NULL);
}

/* Then 101 has MB back, takes MA, waits on CV again (ts...); 102 sleeps on MA. */
static void cond_round2(int64_t ts, int timed)
{
	feed(SA_EV_cond_relocked, ts, P, 101, "cond", I(CV), "mutex", I(MB), "node", I(0x7000),
	     "result", I(0), NULL);
	acquired(ts + 1, 101, MA);
	feed(SA_EV_cond_enqueued, ts + 2, P, 101, "cond", I(CV), "caller", I(0x600), "mutex", I(MB),
	     "node", I(0x7000), "timed", I(timed), NULL);
	requested(ts + 3, 102, MA, 101);
}

static void timed_cond(void)
{
	fresh();
	START(1);
	cond_round1(2);
	cond_round2(5, 1);
	CHECK(!strcmp(state(101), "timed"));
	CHECK(!strcmp(state(102), "waker_runs"));
	CHECK_EQ(sa_waitfor_solve(m)->stuck, 0);
	hang_findings(0, NULL);
}

/* The same untimed: a cycle; and --at before it formed: nothing. */
static void cond_cycle_at(void)
{
	fresh();
	CHECK(!sa_waitfor_at(m, 0.000000007)); /* 7 ns after the first event (ts 1) */
	START(1);
	acquired(2, 103, MB); /* MB known to the model (the enqueue releases it) */
	cond_round1(2);
	/* at 8: 101 re-acquiring MB, whose holder is unknown */
	cond_round2(9, 0);
	const struct sa_waitfor *w = sa_waitfor_solve(m);
	CHECK_EQ(w->end, 8);
	CHECK_EQ(w->blocked, 1);
	CHECK(!strcmp(state(101), "unknown"));
	CHECK_EQ(w->t[ti(101)].kind, SA_WAIT_COND_RELOCK);
	hang_findings(0, NULL);
}

/* 101 reads RW and waits on SEM, posted only by 102, which waits to write RW. */
static void rwlock_sem_cycle(void)
{
	fresh();
	START(1);
	feed(SA_EV_sem_wait_begin, 2, P, 101, "obj", I(SEM), "caller", I(0x700), "value", I(0), NULL);
	feed(SA_EV_sem_post, 3, P, 102, "obj", I(SEM), "caller", I(0x710), "value", I(1),
	     "nwaiters", I(1), "woken", I(1), NULL);
	feed(SA_EV_sem_acquired, 4, P, 101, "obj", I(SEM), "caller", I(0x700), "how", I(2), NULL);
	feed(SA_EV_rwlock_requested, 5, P, 101, "obj", I(RW), "caller", I(0x720), "write", I(0),
	     "readers", I(0), "writer", I(103), NULL);
	feed(SA_EV_rwlock_acquired, 6, P, 101, "obj", I(RW), "caller", I(0x720), "write", I(0),
	     "how", I(2), "readers", I(1), NULL);
	feed(SA_EV_sem_wait_begin, 7, P, 101, "obj", I(SEM), "caller", I(0x700), "value", I(0), NULL);
	feed(SA_EV_rwlock_requested, 8, P, 102, "obj", I(RW), "caller", I(0x730), "write", I(1),
	     "readers", I(1), "writer", I(0), NULL);
	CHECK_EQ(sa_waitfor_solve(m)->stuck, 2);
	CHECK(!strcmp(state(102), "stuck"));
	hang_findings(1, "cycle");
}

/* 101 runs ONCE's routine and sleeps on A, held by 102, which waits on ONCE. */
static void once_cycle(void)
{
	fresh();
	START(1);
	requested(2, 103, MA, 102);
	feed(SA_EV_once_run, 3, P, 101, "obj", I(ONCE), "caller", I(0x800), "routine", I(0x900), NULL);
	requested(4, 101, MA, 102);
	feed(SA_EV_once_wait, 5, P, 102, "obj", I(ONCE), "caller", I(0x810), NULL);
	/* 103 waits on A too, longest: its chain reaches the cycle, one finding */
	CHECK_EQ(sa_waitfor_solve(m)->stuck, 3);
	hang_findings(1, "cycle");
}

/* A stopped process's threads wait for nothing; a barrier's first round
 * has no known missing thread. */
static void stopped_and_first_round(void)
{
	fresh();
	START(1);
	feed(SA_EV_barrier_arrival, 2, P, 101, "obj", I(BAR), "caller", I(0xa00), "round", I(0),
	     "arrived", I(1), "count", I(2), NULL);
	feed(SA_EV_mutex_misuse, 3, P, 102, "obj", I(MA), "caller", I(0x500), "what",
	     I(ST_MUTEX_MISUSE_RELOCK_OWNER), "owner", I(102), NULL);
	CHECK(!strcmp(state(101), "unknown"));
	CHECK(!strcmp(state(102), "stuck"));
	/* the same trace, now with the process's stop */
	fresh();
	START(1);
	feed(SA_EV_mutex_misuse, 3, P, 102, "obj", I(MA), "caller", I(0x500), "what",
	     I(ST_MUTEX_MISUSE_RELOCK_OWNER), "owner", I(102), NULL);
	feed(SA_EV_meta_stop, 4, P, P, "objects_flushed", I(0), NULL);
	CHECK_EQ(sa_waitfor_solve(m)->blocked, 0);
	hang_findings(0, NULL);
}

/* The pool's momentary look-alike of a cycle: main waits on CV for a
 * worker, the worker waits on SEM for main; but the worker's signal of CV
 * has moved main's node (SIGNALED, its woke not in yet), and main's post
 * left a token: neither is stuck. */
static void released_in_flight(void)
{
	fresh();
	START(1);
	acquired(2, 103, MB);
	feed(SA_EV_sem_wait_begin, 3, P, 102, "obj", I(SEM), "caller", I(0x700), "value", I(0), NULL);
	feed(SA_EV_sem_post, 4, P, 101, "obj", I(SEM), "caller", I(0x710), "result", I(0),
	     "value", I(1), "nwaiters", I(1), "woken", I(1), NULL);
	feed(SA_EV_sem_acquired, 5, P, 102, "obj", I(SEM), "caller", I(0x700), "how", I(2), NULL);
	feed(SA_EV_cond_enqueued, 6, P, 101, "cond", I(CV), "caller", I(0x600), "mutex", I(MB),
	     "node", I(0x7000), "timed", I(0), NULL);
	feed(SA_EV_cond_signal, 7, P, 102, "cond", I(CV), "caller", I(0x610), "moved", I(1), NULL);
	feed(SA_EV_cond_signaled, 7, P, 102, "cond", I(CV), "caller", I(0x610), "node", I(0x7000),
	     "order", I(0), NULL);
	feed(SA_EV_sem_wait_begin, 8, P, 102, "obj", I(SEM), "caller", I(0x700), "value", I(0), NULL);
	CHECK_EQ(sa_waitfor_solve(m)->t[ti(101)].kind, SA_WAIT_COND_RELOCK);
	CHECK_EQ(sa_waitfor_solve(m)->stuck, 0);
	CHECK(!strcmp(state(102), "waker_runs"));
	fresh(); /* the token: main posted again before it waited */
	START(1);
	feed(SA_EV_sem_wait_begin, 3, P, 102, "obj", I(SEM), "caller", I(0x700), "value", I(0), NULL);
	feed(SA_EV_sem_post, 4, P, 101, "obj", I(SEM), "caller", I(0x710), "result", I(0),
	     "value", I(1), "nwaiters", I(1), "woken", I(1), NULL);
	feed(SA_EV_mutex_misuse, 5, P, 101, "obj", I(MA), "caller", I(0x500), "what",
	     I(ST_MUTEX_MISUSE_RELOCK_OWNER), "owner", I(101), NULL);
	CHECK(!strcmp(state(101), "stuck"));
	CHECK(!strcmp(state(102), "unknown"));
	hang_findings(1, "cycle");
}

static const struct st_case st_cases[] = {
	ST_CASE(holder_exited),
	ST_CASE(self_relock),
	ST_CASE(unknown_holder),
	ST_CASE(timed_cond),
	ST_CASE(cond_cycle_at),
	ST_CASE(rwlock_sem_cycle),
	ST_CASE(once_cycle),
	ST_CASE(stopped_and_first_round),
	ST_CASE(released_in_flight),
};

ST_MAIN(atexit(last))
