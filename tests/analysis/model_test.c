/* The model and reports on synthetic event sequences: exact numbers.
 * usage: test_analysis_model CASE   (one process per case, see CMakeLists) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sa_barrier.h"
#include "sa_cond.h"
#include "sa_model.h"
#include "sa_once.h"
#include "sa_mutex.h"
#include "sa_report.h"
#include "sa_rwlock.h"
#include "sa_sem.h"
#include "sa_checks.h"

static struct sa_model *m;

#include "sa_feed.h"
/* An event: id, time, pid, tid, then name/value pairs ended by NULL. */
#define feed(...) sa_test_feed(m, __VA_ARGS__)
#define START(ts, pid, level) \
	feed(SA_EV_meta_start, ts, pid, pid, "format_major", I(1), "format_minor", I(0), \
	     "level", I(level), "spin_mode", I(1), "spin_limit", I(100), NULL)

/* The object (its row: its class once folded). */
static struct sa_object *obj(int pid, uint64_t addr, uint32_t inst)
{
	for (uint32_t i = 0; i < m->nobjs; i++)
		if (m->procs[m->objs[i].proc].vpid == pid && m->objs[i].addr == addr &&
		    m->objs[i].instance == inst && m->objs[i].instances <= 1)
			return &m->objs[sa_model_row(m, i)];
	return NULL;
}

static struct sa_mutex *mx(int pid, uint64_t addr, uint32_t inst)
{
	struct sa_object *o = obj(pid, addr, inst);
	CHECK(o && o->type == SA_OBJ_MUTEX);
	return o->ext;
}

#define A 0x1000
#define B 0x2000

/* One contended round: 101 spins, sleeps, is woken by 100's unlock. */
static void contended_mutex(void)
{
	START(1, 100, 1);
	feed(SA_EV_mutex_init, 2, 100, 100, "obj", I(A), "caller", I(0x400), "kind", I(0), NULL);
	feed(SA_EV_mutex_requested, 10, 100, 101, "obj", I(A), "caller", I(0x500),
	     "owner", I(100), "waiters", I(0), NULL);
	feed(SA_EV_spin_loop, 11, 100, 101, "obj", I(A), "iterations", I(100), "outcome", I(1),
	     "mode", I(1), "spin_ns", I(300), NULL);
	feed(SA_EV_futex_wake, 20, 100, 100, "obj", I(A), "uaddr", I(A), "requested", I(1),
	     "woken", I(1), NULL);
	feed(SA_EV_mutex_released, 21, 100, 100, "obj", I(A), "caller", I(0x600), "waiters", I(1),
	     "woken", I(1), "acquisitions", I(2), NULL);
	feed(SA_EV_futex_wait, 22, 100, 101, "obj", I(A), "uaddr", I(A), "expected", I(-1),
	     "result", I(0), "slept_ns", I(900), NULL);
	feed(SA_EV_mutex_acquired, 23, 100, 101, "obj", I(A), "caller", I(0x500), "how", I(2),
	     "spins", I(100), "sleeps", I(1), "wait_ns", I(1000), "acquisitions", I(3),
	     "contended", I(1), NULL);
	feed(SA_EV_mutex_destroy, 50, 100, 100, "obj", I(A), "caller", I(0x700), "result", I(0),
	     "acquisitions", I(7), "contended", I(1), NULL);
	struct sa_mutex *x = mx(100, A, 0);
	CHECK_EQ(sa_mutex_acquisitions(x), 7);
	CHECK_EQ(sa_mutex_contended(x), 1);
	CHECK_EQ(x->how[ST_MUTEX_HOW_SLEEP], 1);
	CHECK_EQ(x->wait.n, 1);
	CHECK_EQ(x->wait.sum, 1000);
	struct sa_object *o = obj(100, A, 0);
	CHECK_EQ(o->caller, 0x400);
	CHECK_EQ(o->fx_wakes, 1);
	CHECK_EQ(o->fx_wasted, 0);
	CHECK_EQ(o->fx_woken, 1);
	CHECK_EQ(o->fx_woken_ret, 1);
	CHECK_EQ(o->wake_then_block, 0);
	CHECK_EQ(o->sp_loops, 1);
	CHECK_EQ(o->sp_gave_up, 1);
	CHECK_EQ(o->destroyed, 1);
	CHECK_EQ(m->nthreads, 2);
	CHECK_EQ(m->threads[1].wait_ns, 1000);
	CHECK_EQ(m->threads[1].top_wait_ns, 1000);
}

/* No meta:start, no thread:start: the process and thread began before the
 * trace; acquisitions are counted from the first counter seen. */
static void thread_before_trace(void)
{
	feed(SA_EV_mutex_acquired, 5, 200, 201, "obj", I(A), "caller", I(1), "how", I(1),
	     "spins", I(3), "sleeps", I(0), "wait_ns", I(40), "acquisitions", I(50),
	     "contended", I(9), NULL);
	feed(SA_EV_mutex_counters, 9, 200, 200, "obj", I(A), "acquisitions", I(60),
	     "contended", I(9), NULL);
	CHECK_EQ(m->nprocs, 1);
	CHECK_EQ(m->procs[0].have_start, 0);
	CHECK_EQ(m->nthreads, 2);
	CHECK_EQ(m->threads[0].started, 0);
	struct sa_mutex *x = mx(200, A, 0);
	CHECK_EQ(sa_mutex_acquisitions(x), 11); /* 50th .. 60th */
	CHECK_EQ(sa_mutex_contended(x), 1);
	CHECK_EQ(x->how[ST_MUTEX_HOW_SPIN], 1);
}

/* Full level: one released event per lock/unlock pair, with hold_ns. The
 * first one's hold began before the process was traced: held when first
 * seen. Ownership passing from 7 to 8 is a hand-off. */
static void first_seen_held(void)
{
	START(1, 7, 2);
	feed(SA_EV_mutex_released, 10, 7, 7, "obj", I(A), "caller", I(1), "waiters", I(-1),
	     "woken", I(-1), "acquisitions", I(10), "hold_ns", I(50), NULL);
	feed(SA_EV_mutex_released, 350, 7, 8, "obj", I(A), "caller", I(1), "waiters", I(0),
	     "woken", I(-1), "acquisitions", I(11), "hold_ns", I(250), NULL);
	struct sa_mutex *x = mx(7, A, 0);
	CHECK_EQ(x->first_seen_held, 1);
	CHECK_EQ(x->hold.n, 2);
	CHECK_EQ(x->hold.sum, 300);
	CHECK_EQ(x->hold.max, 250);
	CHECK_EQ(x->handoffs, 1);
	CHECK_EQ(x->wakes_released, 0);
	/* meta:start seen: counters count from the process start. */
	CHECK_EQ(sa_mutex_acquisitions(x), 11);
}

/* The same in traces whose released has no hold_ns (format 1.0 as first
 * written): the acquire/release pair gives the hold. */
static void first_seen_held_paired(void)
{
	START(1, 7, 2);
	feed(SA_EV_mutex_released, 10, 7, 7, "obj", I(A), "caller", I(1), "waiters", I(0),
	     "woken", I(-1), "acquisitions", I(10), NULL);
	feed(SA_EV_mutex_acquired, 100, 7, 8, "obj", I(A), "caller", I(1), "how", I(0),
	     "spins", I(0), "sleeps", I(0), "wait_ns", I(0), "acquisitions", I(11),
	     "contended", I(0), NULL);
	feed(SA_EV_mutex_released, 350, 7, 8, "obj", I(A), "caller", I(1), "waiters", I(0),
	     "woken", I(-1), "acquisitions", I(11), NULL);
	struct sa_mutex *x = mx(7, A, 0);
	CHECK_EQ(x->first_seen_held, 1);
	CHECK_EQ(x->hold.n, 1);
	CHECK_EQ(x->hold.sum, 250);
	CHECK_EQ(sa_mutex_acquisitions(x), 11);
}

/* Thread names: the procname context, and thread:name for a thread that
 * named itself. */
static void thread_names(void)
{
	START(1, 5, 1);
	struct sa_event e;
	memset(&e, 0, sizeof(e));
	e.id = SA_EV_thread_name;
	e.ts = 2;
	e.vpid = 5;
	e.vtid = 6;
	e.procname = "old";
	sa_ev_set(&e, "handle", 0x77);
	sa_ev_set(&e, "tid", 6);
	e.s[0].name = "name";
	e.s[0].v = "worker-1";
	e.nstrings = 1;
	sa_model_feed(m, &e);
	CHECK(!strcmp(m->threads[1].procname, "worker-1"));
	CHECK(!strcmp(m->procs[0].procname, "prog"));
}

/* Two processes using the same address, events interleaved. */
static void interleaved_processes(void)
{
	START(1, 10, 1);
	START(2, 20, 1);
	for (int i = 0; i < 6; i++) {
		int pid = i % 2 ? 20 : 10;
		feed(SA_EV_futex_wake, 10 + i, pid, pid, "obj", I(A), "uaddr", I(A),
		     "requested", I(1), "woken", I(pid == 10 ? 0 : 1), NULL);
	}
	CHECK_EQ(m->nprocs, 2);
	CHECK_EQ(m->nobjs, 2);
	CHECK_EQ(obj(10, A, 0)->fx_wakes, 3);
	CHECK_EQ(obj(10, A, 0)->fx_wasted, 3);
	CHECK_EQ(obj(20, A, 0)->fx_wakes, 3);
	CHECK_EQ(obj(20, A, 0)->fx_wasted, 0);
}

/* A pid reused by a new process: a second meta:start makes a new process
 * instance, and its objects and threads are new too. */
static void pid_reuse(void)
{
	START(1, 300, 1);
	feed(SA_EV_futex_wake, 2, 300, 300, "obj", I(A), "uaddr", I(A), "requested", I(1),
	     "woken", I(0), NULL);
	feed(SA_EV_meta_stop, 3, 300, 300, "objects_flushed", I(0), NULL);
	START(10, 300, 1);
	feed(SA_EV_futex_wake, 11, 300, 300, "obj", I(A), "uaddr", I(A), "requested", I(1),
	     "woken", I(1), NULL);
	CHECK_EQ(m->nprocs, 2);
	CHECK_EQ(m->procs[0].instance, 0);
	CHECK_EQ(m->procs[1].instance, 1);
	CHECK_EQ(m->procs[0].stopped, 1);
	CHECK_EQ(m->procs[1].stopped, 0);
	CHECK_EQ(m->nthreads, 2);
	CHECK_EQ(m->nobjs, 2);
	CHECK_EQ(m->objs[0].fx_wasted, 1);
	CHECK_EQ(m->objs[1].fx_wasted, 0);
	CHECK_EQ(m->objs[1].proc, 1);
}

/* A thread id reused in one process (thread:start of a thread seen before). */
static void tid_reuse(void)
{
	START(1, 400, 1);
	feed(SA_EV_thread_start, 2, 400, 401, "creator", I(400), "start_routine", I(1), NULL);
	feed(SA_EV_thread_exit, 3, 400, 401, "cancelled", I(0), NULL);
	feed(SA_EV_thread_start, 4, 400, 401, "creator", I(400), "start_routine", I(1), NULL);
	CHECK_EQ(m->nthreads, 3); /* main + two lives of 401 */
	CHECK_EQ(m->threads[1].exited, 1);
	CHECK_EQ(m->threads[2].instance, 1);
	CHECK_EQ(m->threads[2].exited, 0);
	CHECK_EQ(m->procs[0].nthreads, 3);
}

static void wait_on(int64_t ts, int tid, uint64_t addr, int result)
{
	feed(SA_EV_futex_wait, ts, 1, tid, "obj", I(addr), "uaddr", I(addr), "expected", I(0),
	     "result", I(result), "slept_ns", I(10), NULL);
}

/* Woken, then asleep again on the same object before acquiring it. */
static void wake_then_block(void)
{
	START(1, 1, 1);
	feed(SA_EV_mutex_requested, 2, 1, 2, "obj", I(A), "caller", I(1), "owner", I(1),
	     "waiters", I(0), NULL);
	wait_on(3, 2, A, 0);   /* woken */
	wait_on(4, 2, A, 11);  /* EAGAIN: did not sleep: no count */
	wait_on(5, 2, A, 0);   /* slept again: wake-then-block 1, woken again */
	wait_on(6, 2, B, 0);   /* another object: no count */
	wait_on(7, 2, A, 110); /* woken from B, not A... */
	feed(SA_EV_mutex_acquired, 8, 1, 2, "obj", I(A), "caller", I(1), "how", I(2),
	     "spins", I(0), "sleeps", I(4), "wait_ns", I(6), "acquisitions", I(2),
	     "contended", I(1), NULL);
	wait_on(9, 2, B, 0);   /* woken on B */
	feed(SA_EV_mutex_acquired, 10, 1, 2, "obj", I(B), "caller", I(1), "how", I(2),
	     "spins", I(0), "sleeps", I(1), "wait_ns", I(6), "acquisitions", I(1),
	     "contended", I(1), NULL);
	wait_on(11, 2, B, 0);  /* a new wait after acquiring: not wake-then-block */
	CHECK_EQ(obj(1, A, 0)->wake_then_block, 1);
	CHECK_EQ(obj(1, B, 0)->wake_then_block, 0);
	CHECK_EQ(m->threads[1].wake_then_block, 1);
	CHECK_EQ(obj(1, A, 0)->fx_eagain, 1);
	CHECK_EQ(obj(1, A, 0)->fx_timedout, 1);
}

/* A condvar waiter's futex waits (obj = the condvar) separated by cond
 * events (field "cond") are separate waits, not wake-then-block. */
static void wake_then_block_cond(void)
{
	uint64_t cv = 0x3000;
	START(1, 1, 1);
	for (int i = 0; i < 3; i++) {
		feed(SA_EV_cond_enqueued, 10 * i + 2, 1, 2, "cond", I(cv), "caller", I(1),
		     "mutex", I(A), "node", I(0x99), "clock", I(0), "timed", I(0), "abs_sec", I(0),
		     "abs_nsec", I(0), "queued", I(0), NULL);
		wait_on(10 * i + 3, 2, cv, 0);
		feed(SA_EV_cond_woke, 10 * i + 4, 1, 2, "cond", I(cv), "node", I(0x99), "how", I(0),
		     "spurious", I(0), "wait_ns", I(5), NULL);
	}
	wait_on(40, 2, cv, 0); /* no cond event since the last wake: counted */
	wait_on(41, 2, cv, 0);
	CHECK_EQ(obj(1, cv, 0)->wake_then_block, 1);
}

/* Wasted wakes, spurious wakeups, herd sizes. */
static void wakes(void)
{
	START(1, 1, 1);
	for (int i = 0; i < 3; i++)
		feed(SA_EV_futex_wake, 2 + i, 1, 1, "obj", I(A), "uaddr", I(A), "requested", I(1),
		     "woken", I(0), NULL);
	feed(SA_EV_futex_wake, 6, 1, 1, "obj", I(A), "uaddr", I(A), "requested", I(1),
	     "woken", I(1), NULL);
	wait_on(7, 2, A, 0);
	wait_on(8, 3, A, 0); /* nobody woke this one: spurious */
	feed(SA_EV_futex_wake, 9, 1, 1, "obj", I(B), "uaddr", I(B), "requested", I(INT_MAX),
	     "woken", I(4), NULL);
	feed(SA_EV_futex_wake, 10, 1, 1, "obj", I(B), "uaddr", I(B), "requested", I(INT_MAX),
	     "woken", I(2), NULL);
	struct sa_object *a = obj(1, A, 0), *b = obj(1, B, 0);
	CHECK_EQ(a->fx_wakes, 4);
	CHECK_EQ(a->fx_wasted, 3);
	CHECK_EQ(a->fx_woken, 1);
	CHECK_EQ(a->fx_woken_ret, 2);
	CHECK_EQ(b->herd.n, 2);
	CHECK_EQ(b->herd.max, 4);
	CHECK_EQ(b->herd.sum, 6);

	/* The report: one row per object, the spurious wakeup counted. */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sa_report_opts o = { .format = SA_FMT_CSV };
	sa_report_render(m, &o, f);
	fclose(f);
	CHECK(strstr(buf, "# wakes.total\n"));
	/* wakes, woke nobody, wasted%, woken, sleeps, ret woken, wake→block, spurious;
	 * the ledger's calls, woken, won, lost, futile, met leaving */
	CHECK(strstr(buf, "\n6,3,0.500000,7,2,2,0,1,2,0,20,6,7,0,0,0,0\n"));
	free(buf);
}

/* destroy then init at the same address: a second instance. */
static void object_reuse(void)
{
	sa_model_keep_objects(m, 1); /* by object: no classes */
	START(1, 1, 1);
	feed(SA_EV_mutex_init, 2, 1, 1, "obj", I(A), "caller", I(1), "kind", I(0), NULL);
	feed(SA_EV_mutex_destroy, 3, 1, 1, "obj", I(A), "caller", I(1), "result", I(0),
	     "acquisitions", I(4), "contended", I(0), NULL);
	feed(SA_EV_mutex_init, 4, 1, 1, "obj", I(A), "caller", I(2), "kind", I(1), NULL);
	feed(SA_EV_mutex_destroy, 5, 1, 1, "obj", I(A), "caller", I(1), "result", I(0),
	     "acquisitions", I(9), "contended", I(0), NULL);
	CHECK_EQ(m->nobjs, 2);
	CHECK_EQ(sa_mutex_acquisitions(mx(1, A, 0)), 4);
	CHECK_EQ(sa_mutex_acquisitions(mx(1, A, 1)), 9);
	CHECK_EQ(mx(1, A, 1)->kind, 1);
}

/* A trace of a newer major format is refused. */
static void newer_format(void)
{
	CHECK_EQ(feed(SA_EV_meta_start, 1, 1, 1, "format_major", I(SA_FORMAT_MAJOR + 1),
		      "format_minor", I(0), "level", I(1), "spin_mode", I(1), "spin_limit",
		      I(100), NULL), -1);
	CHECK_EQ(m->newer_format, 1);
	CHECK_EQ(m->newer_major, SA_FORMAT_MAJOR + 1);
	CHECK_EQ(feed(SA_EV_futex_wake, 2, 1, 1, "obj", I(A), "requested", I(1), "woken", I(0),
		      NULL), -1);
	CHECK_EQ(m->nobjs, 0);
}

/* Missing fields, unknown events, absurd values: counted, never a crash. */
static void malformed(void)
{
	feed(SA_EV_mutex_acquired, 1, 1, 1, "how", I(99), NULL); /* no obj */
	feed(SA_EV_futex_wait, 2, 1, 1, NULL);
	feed(SA_EV_mutex_acquired, 3, 1, 1, "obj", I(A), "how", I(-5), "wait_ns", I(-1),
	     "acquisitions", I(-1), "contended", I(-1), NULL);
	feed(SA_EV_mutex_misuse, 4, 1, 1, "obj", I(A), "what", I(1000), NULL);
	struct sa_event e;
	memset(&e, 0, sizeof(e));
	e.id = (enum sa_event_id)12345;
	e.name = "other_provider:thing";
	sa_model_feed(m, &e);
	e.id = SA_EV_UNKNOWN;
	e.name = NULL;
	sa_model_feed(m, &e);
	CHECK_EQ(m->malformed, 2);
	CHECK_EQ(m->per_id[SA_EV_UNKNOWN], 2);
	CHECK_EQ(m->nother, 2);
	CHECK(!strcmp(m->other[0].name, "other_provider"));
	FILE *f = fopen("/dev/null", "w");
	struct sa_report_opts o = { .format = SA_FMT_JSON };
	sa_report_render(m, &o, f);
	fclose(f);
}

/* Percentiles: exact up to SA_DIST_EXACT samples, then within 12.5 %. */
static void dist(void)
{
	struct sa_dist d = { 0 };
	for (uint64_t v = 1; v <= 100; v++)
		sa_dist_add(&d, v * 10);
	CHECK_EQ(sa_dist_pct(&d, 0.5), 500);
	CHECK_EQ(sa_dist_pct(&d, 0.9), 900);
	CHECK_EQ(sa_dist_pct(&d, 0.99), 990);
	CHECK_EQ(sa_dist_pct(&d, 1.0), 1000);
	CHECK_EQ(d.log2[sa_log2_bucket(10)], 1); /* 10: [8, 16) */
	for (uint64_t v = 101; v <= 10000; v++)
		sa_dist_add(&d, v * 10);
	uint64_t p50 = sa_dist_pct(&d, 0.5);
	CHECK(p50 >= 50000 && p50 <= 50000 + 50000 / 8);
	CHECK_EQ(sa_dist_pct(&d, 1.0), 100000);
	CHECK_EQ(d.n, 10000);
	sa_dist_free(&d);
}

/* The condvar model: a timeout race. */
static void cond_race(void)
{
	START(1, 1, 1);
	uint64_t cv = 0x3000;
	feed(SA_EV_cond_enqueued, 2, 1, 2, "cond", I(cv), "caller", I(1), "mutex", I(A),
	     "node", I(0x99), "clock", I(0), "timed", I(1), "abs_sec", I(0), "abs_nsec", I(0),
	     "queued", I(0), NULL);
	feed(SA_EV_cond_leaving, 3, 1, 2, "cond", I(cv), "node", I(0x99), "reason", I(1), NULL);
	feed(SA_EV_cond_met_leaving, 4, 1, 3, "cond", I(cv), "caller", I(1), "node", I(0x99),
	     "refs", I(1), NULL);
	feed(SA_EV_cond_ref_wait_end, 5, 1, 3, "cond", I(cv), "caller", I(1), "refs", I(1),
	     "waited_ns", I(500), NULL);
	feed(SA_EV_cond_woke, 6, 1, 2, "cond", I(cv), "node", I(0x99), "how", I(1),
	     "spurious", I(0), "wait_ns", I(9500), NULL);
	feed(SA_EV_cond_signal, 7, 1, 3, "cond", I(cv), "caller", I(1), "broadcast", I(0),
	     "moved", I(0), "leaving", I(1), "first", I(0), NULL);
	struct sa_object *o = obj(1, cv, 0);
	CHECK(o && o->type == SA_OBJ_COND);
	struct sa_cond *c = o->ext;
	CHECK_EQ(c->waits, 1);
	CHECK_EQ(c->timed_waits, 1);
	CHECK_EQ(c->leaving_timeout, 1);
	CHECK_EQ(c->met_leaving, 1);
	CHECK_EQ(c->ref_wait_ns, 500);
	CHECK_EQ(c->woke[ST_COND_WOKE_TIMEDOUT], 1);
	CHECK_EQ(c->signals, 1);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sa_report_opts opt = { .format = SA_FMT_TEXT, .wide = 1 };
	sa_report_render(m, &opt, f);
	fclose(f);
	CHECK(strstr(buf, "timeout races cost 5 % of wait time here (1 races in 1 signals)"));
	free(buf);
}

/* Streaming: a million events on a few objects keep the model small. */
static void streaming(void)
{
	START(1, 1, 1);
	for (int i = 0; i < 1000000; i++)
		feed(SA_EV_futex_wake, 2 + i, 1, 1 + i % 4, "obj", I(A + 64 * (i % 8)),
		     "uaddr", I(A), "requested", I(1), "woken", I(i % 3 == 0), NULL);
	CHECK_EQ(m->nobjs, 8);
	CHECK_EQ(m->nthreads, 4);
	CHECK_EQ(m->events, 1000001);
	uint64_t wasted = 0;
	for (uint32_t i = 0; i < m->nobjs; i++)
		wasted += m->objs[i].fx_wasted;
	CHECK_EQ(wasted, 666666);
}

/* JSON: the documented envelope, sorting and --top. */
static void json_envelope(void)
{
	contended_mutex();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sa_report_opts o = { .format = SA_FMT_JSON, .sort = SA_SORT_ACQUISITIONS, .top = 1 };
	sa_report_render(m, &o, f);
	fclose(f);
	CHECK(!strncmp(buf, "{\"schema\": \"synctrace-report\", \"version\": \"1.5\"", 47));
	CHECK(strstr(buf, "\"partial\": false"));
	CHECK(strstr(buf, "\"name\": \"contention.locks\""));
	CHECK(strstr(buf, "\"acquisitions\": 7, \"contended\": 1, \"contended_share\": 0.142857"));
	free(buf);
}

/* A CSV line of buf that starts with head has tail after it (the identity
 * columns between them, name, class, instances and site, are the names
 * analysis/symbols gives). */
static int csv_row(const char *buf, const char *head, const char *tail)
{
	for (const char *p = buf; (p = strstr(p, head)); p++) {
		if (p != buf && p[-1] != '\n')
			continue;
		const char *e = strchr(p, '\n'), *t = strstr(p + strlen(head), tail);
		if (t && (!e || t < e))
			return 1;
	}
	return 0;
}

/* Semaphores, rwlocks, spinlocks: their rows in the contention table. */
static void other_locks(void)
{
	START(1, 1, 1);
	feed(SA_EV_sem_init, 2, 1, 1, "obj", I(A), "caller", I(1), "value", I(0),
	     "pshared", I(0), NULL);
	feed(SA_EV_sem_wait_begin, 3, 1, 2, "obj", I(A), "caller", I(1), "value", I(0),
	     "nwaiters", I(0), NULL);
	feed(SA_EV_sem_post, 4, 1, 1, "obj", I(A), "caller", I(1), "result", I(0), "value", I(1),
	     "nwaiters", I(1), "woken", I(0), NULL);
	feed(SA_EV_sem_acquired, 5, 1, 2, "obj", I(A), "caller", I(1), "how", I(2), "spins",
	     I(10), "sleeps", I(1), "wait_ns", I(2000), NULL);
	feed(SA_EV_sem_timeout, 6, 1, 2, "obj", I(A), "caller", I(1), "result", I(110),
	     "sleeps", I(1), "wait_ns", I(500), NULL);
	feed(SA_EV_rwlock_acquired, 7, 1, 3, "obj", I(B), "caller", I(1), "write", I(1),
	     "how", I(1), "readers", I(0), "spins", I(5), "sleeps", I(0), "wait_ns", I(70), NULL);
	feed(SA_EV_rwlock_acquired, 8, 1, 2, "obj", I(B), "caller", I(1), "write", I(0),
	     "how", I(2), "readers", I(1), "spins", I(5), "sleeps", I(1), "wait_ns", I(30), NULL);
	feed(SA_EV_rwlock_released, 9, 1, 3, "obj", I(B), "caller", I(1), "write", I(1),
	     "readers_left", I(0), "sleepers", I(1), "woken", I(0), NULL);
	feed(SA_EV_spinlock_contended, 10, 1, 3, "obj", I(0x4000), "caller", I(1),
	     "iterations", I(12), "spin_ns", I(90), NULL);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sa_report_opts o = { .format = SA_FMT_CSV, .sort = SA_SORT_WAIT };
	sa_report_render(m, &o, f);
	fclose(f);
	/* rank,type,vpid,procname,address,instance,caller,acquisitions,contended,
	 * contended_share,after_spin,after_sleep,timeouts,trylock_failed,wait_total_ns */
	CHECK(csv_row(buf, "1,sem,1,prog,0x1000,0,", ",0x1,1,1,1.000000,0,1,1,0,2000,"));
	CHECK(csv_row(buf, "2,spinlock,1,prog,0x4000,0,", ",0x1,1,1,1.000000,1,0,0,0,90,"));
	CHECK(csv_row(buf, "3,rwlock,1,prog,0x2000,0,", ",0x1,2,2,1.000000,1,1,0,0,70,"));
	free(buf);
	/* Thread 2 waited 2000 + 500 (timeout) + 30. */
	CHECK_EQ(m->threads[1].wait_ns, 2530);
	CHECK_EQ(m->threads[1].timeouts, 1);
}

/* A report of the model as a string (free it). */
static char *render(enum sa_format fmt, unsigned top)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sa_report_opts o = { .format = fmt, .sort = SA_SORT_WAIT, .top = top };
	CHECK(f);
	sa_report_render(m, &o, f);
	fclose(f);
	return buf;
}

#define BAR 0x3000
/* Barrier of 3 (threads 11, 12, 13): round 0, 11 and 12 wait, 13 releases;
 * round 1, 11 and 13 wait, 12 releases, 13's departure of round 1 comes
 * after round 2 began (rounds overlap); round 2, 12 and 13 wait, 11
 * releases, and 13 departs before 11's released event (its wake came
 * first): the release is then that departure. Every wait for the last,
 * every wakeup and spread is exact. */
static void barrier_rounds(void)
{
	START(1, 1, 1);
	feed(SA_EV_barrier_init, 2, 1, 11, "obj", I(BAR), "caller", I(0x401), "count", I(3),
	     "pshared", I(0), NULL);
#define ARR(ts, tid, r, k) \
	feed(SA_EV_barrier_arrival, ts, 1, tid, "obj", I(BAR), "caller", I(0x402), "round", I(r), \
	     "arrived", I(k), "count", I(3), NULL)
#define REL(ts, tid, r, w) \
	feed(SA_EV_barrier_released, ts, 1, tid, "obj", I(BAR), "caller", I(0x402), "round", I(r), \
	     "count", I(3), "woken", I(w), NULL)
#define DEP(ts, tid, r, ns) \
	feed(SA_EV_barrier_departure, ts, 1, tid, "obj", I(BAR), "caller", I(0x402), "round", I(r), \
	     "wait_ns", I(ns), NULL)
	ARR(100, 11, 0, 1);
	ARR(130, 12, 0, 2);
	REL(200, 13, 0, 2);     /* 11 waited 100 for 13, 12 waited 70 */
	DEP(210, 11, 0, 115);
	DEP(220, 12, 0, 95);
	ARR(300, 11, 1, 1);
	ARR(310, 13, 1, 2);
	REL(400, 12, 1, 1);     /* 11: 100, 13: 90 */
	DEP(405, 11, 1, 106);
	ARR(420, 12, 2, 1);     /* round 2 begins before 13 left round 1 */
	DEP(430, 13, 1, 121);
	ARR(440, 13, 2, 2);
	DEP(495, 13, 2, 57);    /* round 2 was released by 495 */
	REL(500, 11, 2, 0);     /* 12 waited 75, 13 55 (spinning: woken 0) */
	DEP(510, 12, 2, 91);
	feed(SA_EV_barrier_destroy, 600, 1, 12, "obj", I(BAR), "caller", I(0x403), "result",
	     I(16), "arrived", I(1), NULL);
	feed(SA_EV_barrier_destroy, 700, 1, 12, "obj", I(BAR), "caller", I(0x403), "result",
	     I(0), "arrived", I(0), NULL);
	struct sa_object *o = obj(1, BAR, 0);
	CHECK(o && o->type == SA_OBJ_BARRIER);
	struct sa_barrier *b = o->ext;
	CHECK_EQ(b->count, 3);
	CHECK_EQ(b->rounds, 3);
	CHECK_EQ(b->waits, 6);
	CHECK_EQ(b->departures, 6);
	CHECK_EQ(b->woken, 3);
	CHECK_EQ(b->destroy_busy, 1);
	CHECK_EQ(o->destroyed, 1);
	CHECK_EQ(b->wait.sum, 115 + 95 + 106 + 121 + 57 + 91);
	CHECK_EQ(b->wait_last.n, 6);
	CHECK_EQ(b->wait_last.sum, 100 + 70 + 100 + 90 + 75 + 55);
	CHECK_EQ(b->wakeup.sum, 10 + 20 + 5 + 30 + 0 + 15);
	CHECK_EQ(b->spread.n, 3);
	CHECK_EQ(b->spread.sum, 100 + 100 + 75);
	CHECK_EQ(b->nth, 3);
	/* Per thread: 13 made 11 and 12 wait 170; 12 made 11 and 13 wait 190;
	 * 11 made 12 and 13 wait 130. */
	struct { int tid; uint64_t passes, waits, serial, made, wl; } want[] = {
		{ 11, 3, 2, 1, 130, 200 }, { 12, 3, 2, 1, 190, 145 }, { 13, 3, 2, 1, 170, 145 },
	};
	for (unsigned k = 0; k < 3; k++) {
		const struct sa_bar_thread *bt = NULL;
		for (uint32_t i = 0; i < b->nth; i++)
			if (m->threads[b->th[i].ti].vtid == want[k].tid)
				bt = &b->th[i];
		CHECK(bt);
		CHECK_EQ(bt->passes, want[k].passes);
		CHECK_EQ(bt->waits, want[k].waits);
		CHECK_EQ(bt->serial, want[k].serial);
		CHECK_EQ(bt->released_others, 2);
		CHECK_EQ(bt->made_wait_ns, want[k].made);
		CHECK_EQ(bt->wait_last_ns, want[k].wl);
	}
	/* Threads' waiting (contention.threads) includes barrier waits. */
	CHECK_EQ(m->threads[1].wait_ns, 115 + 106); /* tid 11 */
	char *j = render(SA_FMT_JSON, 0);
	CHECK(strstr(j, "\"version\": \"1.5\""));
	CHECK(strstr(j, "{\"vpid\": 1, \"procname\": \"prog\", \"address\": \"0x3000\", "
			"\"instance\": 0, \"caller\": \"0x401\", \"count\": 3, \"rounds\": 3, "
			"\"waits\": 6, \"departures\": 6, \"woken\": 3, \"serial_threads\": 3, "
			"\"top_serial_tid\": 11, \"top_serial_rounds\": 1, \"top_serial_share\": 0.333333, "
			"\"wait_total_ns\": 585"));
	CHECK(strstr(j, "\"wait_last_total_ns\": 490, \"wait_last_mean_ns\": 81, "
			"\"wait_last_max_ns\": 100, \"wakeup_mean_ns\": 13, \"wakeup_max_ns\": 30, "
			"\"spread_mean_ns\": 91, \"spread_max_ns\": 100, \"destroy_busy\": 1"));
	CHECK(strstr(j, "{\"vpid\": 1, \"address\": \"0x3000\", \"instance\": 0, \"vtid\": 12, "
			"\"name\": \"prog\", \"passes\": 3, \"waits\": 2, \"serial\": 1, "
			"\"serial_share\": 0.333333, \"released_others\": 2, \"wait_ns\": 186, "
			"\"wait_last_ns\": 145, \"made_wait_ns\": 190}"));
	/* The barrier in the contention table: 9 passes, 6 waiters, 3 of them
	 * woken by the kernel, 1 EBUSY destroy. */
	CHECK(strstr(j, "\"type\": \"barrier\", \"vpid\": 1, \"procname\": \"prog\", "
			"\"address\": \"0x3000\", \"instance\": 0, "));
	CHECK(strstr(j, "\"caller\": \"0x401\", "
			"\"acquisitions\": 9, \"contended\": 6, \"contended_share\": 0.666667, "
			"\"after_spin\": 3, \"after_sleep\": 3, \"timeouts\": 0, \"trylock_failed\": 0, "
			"\"wait_total_ns\": 585"));
	free(j);
	char *csv = render(SA_FMT_CSV, 0);
	CHECK(strstr(csv, "# barriers.objects\nvpid,procname,address,instance,caller,count,rounds,"));
	CHECK(strstr(csv, "\n1,prog,0x3000,0,0x401,3,3,6,6,3,3,11,1,0.333333,585,"));
	free(csv);
	char *txt = render(SA_FMT_TEXT, 0);
	CHECK(strstr(txt, "\nBarriers\n"));
	CHECK(strstr(txt, "\nBarrier rounds per thread\n"));
	free(txt);
	/* No barrier, no once, no unit: no table of schema 1.2, version 1.0. */
	sa_model_free(m);
	m = sa_model_new();
	START(1, 1, 1);
	j = render(SA_FMT_JSON, 0); /* 1.5: the findings and waits tables are always there */
	CHECK(strstr(j, "\"version\": \"1.5\""));
	CHECK(!strstr(j, "barriers.objects") && !strstr(j, "once.objects") &&
	      !strstr(j, "wakes.work"));
	free(j);
}

/* A straggler: thread 22 arrives last in 3 of 4 rounds: the verdict note. */
static void barrier_straggler(void)
{
	START(1, 1, 1);
	for (int r = 0; r < 4; r++) {
		int last = r == 3 ? 21 : 22, first = r == 3 ? 22 : 21;
		int64_t t0 = 1000 * (r + 1);
		feed(SA_EV_barrier_arrival, t0, 1, first, "obj", I(BAR), "round", I(r), "arrived",
		     I(1), "count", I(2), NULL);
		feed(SA_EV_barrier_released, t0 + 500, 1, last, "obj", I(BAR), "round", I(r),
		     "count", I(2), "woken", I(1), NULL);
		feed(SA_EV_barrier_departure, t0 + 510, 1, first, "obj", I(BAR), "round", I(r),
		     "wait_ns", I(505), NULL);
	}
	struct sa_barrier *b = obj(1, BAR, 0)->ext;
	CHECK_EQ(b->count, 2); /* from the events: no init */
	CHECK_EQ(b->wait_last.sum, 4 * 500);
	char *txt = render(SA_FMT_TEXT, 0);
	CHECK(strstr(txt, "note: barrier 0x3000: thread 22 (prog) arrived last in 3 of 4 rounds; "
			  "the others waited 0.002 ms for it"));
	free(txt);
}

/* The spin table's verdict: outcomes 0 acquired, 1 gave up, 2 saw
 * sleepers. Two acquired, two gave up, one bailed: no majority, "mixed"
 * (it used to say "spinning pays"); then three more acquired: it pays. */
static void spin_verdicts(void)
{
	static const int outcomes[] = { 0, 1, 0, 1, 2, 0, 0, 0 };
	START(1, 1, 1);
	for (int i = 0; i < 8; i++) {
		feed(SA_EV_spin_loop, 10 + i, 1, 2, "obj", I(A), "iterations", I(50),
		     "outcome", I(outcomes[i]), "mode", I(1), "spin_ns", I(100), NULL);
		if (i != 4 && i != 7)
			continue;
		char *txt = render(SA_FMT_TEXT, 0);
		if (i == 4) {
			CHECK(strstr(txt, "5 spin loops: 40.0 % acquired, 40.0 % gave up"));
			CHECK(strstr(txt, "verdict: mixed: no outcome has a majority"));
			CHECK(!strstr(txt, "spinning pays"));
		} else {
			CHECK(strstr(txt, "verdict: spinning pays"));
		}
		free(txt);
	}
}

/* Format 4 folds a spin that acquired into the acquired event (how SPIN),
 * a barrier's into its departure and a condvar's into its woke (spins >=
 * 0): the model takes the loop from it, but counts it among no events
 * read; format 3's events stand for nothing more (their loops are
 * written). */
static void spins_folded(void)
{
	for (int major = 3; major <= 4; major++) {
		int pid = major;
		feed(SA_EV_meta_start, 1, pid, pid, "format_major", I(major), "format_minor", I(10),
		     "level", I(1), "spin_mode", I(2), "spin_limit", I(100), NULL);
		feed(SA_EV_sem_wait_begin, 10, pid, pid, "obj", I(A), "caller", I(0x400),
		     "value", I(0), "nwaiters", I(0), NULL);
		feed(SA_EV_sem_acquired, 11, pid, pid, "obj", I(A), "caller", I(0x400),
		     "how", I(ST_SEM_HOW_SPIN), "spins", I(40), "sleeps", I(0), "wait_ns", I(700), NULL);
		feed(SA_EV_mutex_requested, 20, pid, pid, "obj", I(B), "caller", I(0x500),
		     "owner", I(9), "waiters", I(0), NULL);
		feed(SA_EV_mutex_acquired, 21, pid, pid, "obj", I(B), "caller", I(0x500),
		     "how", I(ST_MUTEX_HOW_SPIN), "spins", I(12), "sleeps", I(0), "wait_ns", I(300),
		     "acquisitions", I(2), "contended", I(1), NULL);
		/* slept: its loop (gave up) is written at every format */
		feed(SA_EV_rwlock_requested, 30, pid, pid, "obj", I(0x3000), "caller", I(0x600),
		     "write", I(0), "readers", I(0), "writer", I(9), "writers_waiting", I(0), NULL);
		feed(SA_EV_spin_loop, 31, pid, pid, "obj", I(0x3000), "iterations", I(100),
		     "outcome", I(ST_SPIN_OUTCOME_GAVE_UP), "mode", I(2), "spin_ns", I(400), NULL);
		feed(SA_EV_rwlock_acquired, 32, pid, pid, "obj", I(0x3000), "caller", I(0x600),
		     "write", I(0), "how", I(ST_RWLOCK_HOW_SLEEP), "readers", I(1), "spins", I(100),
		     "sleeps", I(1), "wait_ns", I(5000), NULL);
		feed(SA_EV_rwlock_requested, 40, pid, pid, "obj", I(0x3000), "caller", I(0x600),
		     "write", I(0), "readers", I(0), "writer", I(9), "writers_waiting", I(0), NULL);
		feed(SA_EV_rwlock_acquired, 41, pid, pid, "obj", I(0x3000), "caller", I(0x600),
		     "write", I(0), "how", I(ST_RWLOCK_HOW_SPIN), "readers", I(1), "spins", I(8),
		     "sleeps", I(0), "wait_ns", I(90), NULL);
		int folded = major == 4;
		/* a barrier's departure with spins >= 0 (-1: not folded) */
		feed(SA_EV_barrier_departure, 50, pid, pid, "obj", I(0x4000), "caller", I(0x700),
		     "round", I(0), "wait_ns", I(600), "spins", I(25), NULL);
		feed(SA_EV_barrier_departure, 51, pid, pid, "obj", I(0x4000), "caller", I(0x700),
		     "round", I(1), "wait_ns", I(9000), "spins", I(-1), NULL);
		/* a condvar's woke with spins >= 0, and its own spin_ns */
		feed(SA_EV_cond_woke, 60, pid, pid, "cond", I(0x6000), "node", I(0x7000), "how", I(0),
		     "spurious", I(0), "wait_ns", I(2000), "spins", I(30), "spin_ns", I(500), NULL);
		feed(SA_EV_cond_woke, 61, pid, pid, "cond", I(0x6000), "node", I(0x7000), "how", I(1),
		     "spurious", I(0), "wait_ns", I(9000), "spins", I(-1), "spin_ns", I(0), NULL);
		struct sa_object *s = obj(pid, A, 0), *mu = obj(pid, B, 0), *rw = obj(pid, 0x3000, 0),
				 *bar = obj(pid, 0x4000, 0), *cv = obj(pid, 0x6000, 0);
		CHECK(s && mu && rw && bar && cv);
		CHECK_EQ(cv->sp_loops, (uint64_t)folded);
		CHECK_EQ(cv->sp_ns, folded ? 500u : 0u);
		CHECK_EQ(bar->sp_loops, (uint64_t)folded);
		CHECK_EQ(bar->sp_ns, folded ? 600u : 0u);
		CHECK_EQ(s->sp_loops, (uint64_t)folded);
		CHECK_EQ(s->sp_acquired, (uint64_t)folded);
		CHECK_EQ(s->sp_ns, folded ? 700u : 0u);
		CHECK_EQ(mu->sp_loops, (uint64_t)folded);
		CHECK_EQ(mu->sp_ns, folded ? 300u : 0u);
		CHECK_EQ(rw->sp_loops, 1u + folded);
		CHECK_EQ(rw->sp_acquired, (uint64_t)folded);
		CHECK_EQ(rw->sp_gave_up, 1u);
		CHECK_EQ(rw->sp_ns, folded ? 490u : 400u);
		CHECK_EQ(s->sp_iter.n, (uint64_t)folded);
		/* events read: what the trace holds, no more */
		CHECK_EQ(m->procs[m->nprocs - 1].events, 14u);
	}
	CHECK_EQ(m->events, 28u);
	CHECK_EQ(m->per_id[SA_EV_spin_loop], 2u);
}

#define ONCE 0x5000
/* A once object: 31 runs the routine and is cancelled while 32 waits; 32
 * runs it again, 33 waits for that run; 34 finds it done (no event). */
static void once_runs(void)
{
	START(1, 1, 1);
	feed(SA_EV_once_run, 10, 1, 31, "obj", I(ONCE), "caller", I(0x601), "routine", I(0x7777), NULL);
	feed(SA_EV_once_wait, 12, 1, 32, "obj", I(ONCE), "caller", I(0x602), NULL);
	feed(SA_EV_once_finished, 40, 1, 31, "obj", I(ONCE), "caller", I(0x601), "cancelled", I(1),
	     "woken", I(1), "run_ns", I(30), NULL);
	feed(SA_EV_once_waited, 41, 1, 32, "obj", I(ONCE), "caller", I(0x602), "wait_ns", I(29), NULL);
	feed(SA_EV_once_run, 42, 1, 32, "obj", I(ONCE), "caller", I(0x602), "routine", I(0x7777), NULL);
	feed(SA_EV_once_wait, 43, 1, 33, "obj", I(ONCE), "caller", I(0x603), NULL);
	feed(SA_EV_once_finished, 100, 1, 32, "obj", I(ONCE), "caller", I(0x602), "cancelled", I(0),
	     "woken", I(1), "run_ns", I(58), NULL);
	feed(SA_EV_once_waited, 102, 1, 33, "obj", I(ONCE), "caller", I(0x603), "wait_ns", I(59), NULL);
	struct sa_object *o = obj(1, ONCE, 0);
	CHECK(o && o->type == SA_OBJ_ONCE);
	struct sa_once *x = o->ext;
	CHECK_EQ(x->runs, 2);
	CHECK_EQ(x->completed, 1);
	CHECK_EQ(x->cancelled, 1);
	CHECK_EQ(x->runner, 32);
	CHECK_EQ(x->cancelled_runner, 31);
	CHECK_EQ(x->run_done_ns, 58);
	CHECK_EQ(x->run.sum, 88);
	CHECK_EQ(x->waits, 2);
	CHECK_EQ(x->waited, 2);
	CHECK_EQ(x->wait.sum, 88);
	CHECK_EQ(x->max_sleeping, 1);
	CHECK_EQ(x->woken, 2);
	CHECK_EQ(x->running, 0);
	char *j = render(SA_FMT_JSON, 0);
	CHECK(strstr(j, "\"version\": \"1.5\""));
	CHECK(strstr(j, "{\"vpid\": 1, \"procname\": \"prog\", \"address\": \"0x5000\", "
			"\"instance\": 0, \"caller\": \"0x601\", \"routine\": \"0x7777\", "
			"\"runner\": 32, \"runner_name\": \"prog\", \"run_ns\": 58, \"runs\": 2, "
			"\"completed\": 1, \"cancelled\": 1, \"cancelled_runner\": 31, "
			"\"run_total_ns\": 88, \"waits\": 2, \"max_waiting\": 1, "
			"\"wait_total_ns\": 88, \"wait_mean_ns\": 44, \"wait_max_ns\": 59, "
			"\"woken\": 2, \"running_at_end\": false}"));
	/* In the contention table: 4 calls past DONE, 2 slept; holds (the
	 * routine's runs) even at the contention level. */
	CHECK(strstr(j, "\"type\": \"once\", \"vpid\": 1, \"procname\": \"prog\", "
			"\"address\": \"0x5000\", \"instance\": 0, "));
	CHECK(strstr(j, "\"caller\": \"0x601\", "
			"\"acquisitions\": 4, \"contended\": 2, \"contended_share\": 0.5, "
			"\"after_spin\": 0, \"after_sleep\": 2, \"timeouts\": 0, \"trylock_failed\": 0, "
			"\"wait_total_ns\": 88, \"wait_mean_ns\": 44, \"wait_p50_ns\": 29, "
			"\"wait_p90_ns\": 59, \"wait_p99_ns\": 59, \"wait_max_ns\": 59, \"holds\": 2, "
			"\"hold_total_ns\": 88"));
	free(j);
	/* A run that never finished. */
	feed(SA_EV_once_run, 200, 1, 35, "obj", I(0x5100), "caller", I(0x604), "routine", I(0x7778),
	     NULL);
	CHECK_EQ(((struct sa_once *)obj(1, 0x5100, 0)->ext)->running, 1);
	char *csv = render(SA_FMT_CSV, 0);
	CHECK(strstr(csv, "\n1,prog,0x5100,0,0x604,0x7778,,,,1,0,0,,0,0,0,0,,,0,true\n"));
	free(csv);
}

/* The once table in text: --wide's while no caller waited (a program's
 * libraries run tens of once routines nobody waits for), shown once one
 * did, without the call site's and routine's addresses (JSON keeps
 * them; with symbols, the routine's site names it, not its address). */
static void once_text(void)
{
	START(1, 1, 1);
	feed(SA_EV_once_run, 10, 1, 31, "obj", I(ONCE), "caller", I(0x601), "routine", I(0x7777), NULL);
	feed(SA_EV_once_finished, 40, 1, 31, "obj", I(ONCE), "caller", I(0x601), "cancelled", I(0),
	     "woken", I(0), "run_ns", I(30), NULL);
	char *t = render(SA_FMT_TEXT, 0), *j = render(SA_FMT_JSON, 0);
	CHECK(!strstr(t, "Once (pthread_once, call_once)"));
	CHECK(strstr(t, "more tables and every column: --wide"));
	CHECK(strstr(j, "\"name\": \"once.objects\""));
	free(t);
	free(j);
	feed(SA_EV_once_run, 50, 1, 31, "obj", I(0x5100), "caller", I(0x604), "routine", I(0x7778),
	     NULL);
	feed(SA_EV_once_wait, 52, 1, 32, "obj", I(0x5100), "caller", I(0x605), NULL);
	feed(SA_EV_once_finished, 90, 1, 31, "obj", I(0x5100), "caller", I(0x604), "cancelled", I(0),
	     "woken", I(1), "run_ns", I(40), NULL);
	feed(SA_EV_once_waited, 91, 1, 32, "obj", I(0x5100), "caller", I(0x605), "wait_ns", I(39),
	     NULL);
	t = render(SA_FMT_TEXT, 0);
	const char *once = strstr(t, "Once (pthread_once, call_once)\n");
	CHECK(once);
	if (once) {
		const char *head = once + strlen("Once (pthread_once, call_once)\n");
		CHECK(strstr(head, "ran it") && strstr(head, "waiters"));
		CHECK(!strstr(head, "first call site") && !strstr(head, "0x7778"));
	}
	free(t);
}

/* A list table in text (the findings): its items whole within text_lines,
 * the first always, one line kept for the count of those left out;
 * --wide shows them all. */
static char *list_text(struct sa_table *t, int wide)
{
	char *buf = 0;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	if (!f)
		return 0;
	sa_table_text(t, f, wide);
	fclose(f);
	return buf;
}

static unsigned lines_of(const char *s)
{
	unsigned n = 0;
	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

static void list_lines(void)
{
	static const struct sa_col cols[] = { { "text", "text", SA_COL_STR, 0, 0 } };
	struct sa_table t;
	char word[2000];
	sa_table_init(&t, "findings", "Findings", cols, 1);
	t.flags = SA_TAB_LIST;
	t.text_col = 0;
	/* items of 3, 1, 2 and 1 lines (118 columns: 20 words of 11
	 * characters fill two lines, 25 three) */
	static const int words[] = { 25, 1, 15, 1 };
	for (unsigned i = 0; i < SA_N(words); i++) {
		word[0] = 0;
		for (int k = 0; k < words[i]; k++)
			strcat(word, k ? " abcdefghij" : "abcdefghij");
		struct sa_cell *c = sa_table_row(&t);
		CHECK(c);
		if (c)
			sa_cell_str(c, word);
	}
	char *all = list_text(&t, 0);
	/* no budget: a blank line, the title, 3 + 1 + 2 + 1 lines */
	CHECK_EQ(lines_of(all), 9);
	t.text_lines = 6; /* 3 + 1 + 2 = 6, but 1 kept for "1 more" */
	char *cut = list_text(&t, 0);
	CHECK_EQ(lines_of(cut), 2 + 3 + 1 + 1);
	CHECK(cut && strstr(cut, " 2. abcdefghij\n(2 more: --wide, or --format json|csv)\n"));
	CHECK(cut && !strstr(cut, " 3. "));
	t.text_lines = 7; /* all 7 fit: nothing left out */
	char *fit = list_text(&t, 0);
	CHECK(fit && all && !strcmp(fit, all));
	t.text_lines = 1; /* the first always, whole */
	char *one = list_text(&t, 0);
	CHECK_EQ(lines_of(one), 2 + 3 + 1);
	CHECK(one && strstr(one, "(3 more: "));
	char *wide = list_text(&t, 1);
	CHECK(wide && all && !strcmp(wide, all));
	free(all);
	free(cut);
	free(fit);
	free(one);
	free(wide);
	sa_table_free(&t);
}

/* Units of work: 41 and 42 declare units; wakes by 40 (futex), a condvar
 * signal by 40 that moved 2 waiters, a semaphore post by 42 that woke a
 * registered sleeper, and 41's futex waits. Ratios per unit, per process
 * and per thread; a second process. */
static void work_units(void)
{
	START(1, 1, 1);
	feed(SA_EV_work_done, 10, 1, 41, "caller", I(0x700), "units", I(3), NULL);
	feed(SA_EV_work_done, 11, 1, 41, "caller", I(0x700), "units", I(2), NULL);
	feed(SA_EV_work_done, 12, 1, 42, "caller", I(0x701), "units", I(5), NULL);
	for (int k = 0; k < 4; k++)
		feed(SA_EV_futex_wake, 20 + k, 1, 40, "obj", I(A), "uaddr", I(A), "requested", I(1),
		     "woken", I(k < 3 ? 1 : 0), NULL);
	feed(SA_EV_futex_wake, 30, 1, 40, "obj", I(B), "uaddr", I(B), "requested", I(8),
	     "woken", I(2), NULL);
	for (int k = 0; k < 3; k++)
		feed(SA_EV_futex_wait, 31 + k, 1, 41, "obj", I(A), "uaddr", I(A), "expected", I(0),
		     "result", I(0), "slept_ns", I(100), NULL);
	feed(SA_EV_futex_wait, 35, 1, 41, "obj", I(A), "uaddr", I(A), "expected", I(0),
	     "result", I(11), "slept_ns", I(0), NULL);
	feed(SA_EV_cond_signal, 40, 1, 40, "cond", I(0x900), "caller", I(1), "broadcast", I(1),
	     "moved", I(2), "leaving", I(0), "first", I(0x10), "first_how", I(1), NULL);
	feed(SA_EV_sem_post, 41, 1, 42, "obj", I(0xA00), "caller", I(1), "result", I(0),
	     "value", I(1), "nwaiters", I(1), "woken", I(0), NULL);
	feed(SA_EV_sem_post, 42, 1, 42, "obj", I(0xA00), "caller", I(1), "result", I(0),
	     "value", I(1), "nwaiters", I(0), "woken", I(-1), NULL);
	/* Process 2: 4 units, 2 threads woken. */
	START(50, 2, 1);
	feed(SA_EV_work_done, 51, 2, 51, "caller", I(0x700), "units", I(4), NULL);
	feed(SA_EV_futex_wake, 52, 2, 52, "obj", I(A), "uaddr", I(A), "requested", I(2),
	     "woken", I(2), NULL);
	/* Process 3: no unit, no row. */
	START(60, 3, 1);
	feed(SA_EV_futex_wake, 61, 3, 3, "obj", I(A), "uaddr", I(A), "requested", I(1),
	     "woken", I(1), NULL);
	CHECK_EQ(m->procs[0].units, 10);
	CHECK_EQ(m->procs[0].unit_events, 3);
	char *j = render(SA_FMT_JSON, 0);
	CHECK(strstr(j, "\"version\": \"1.5\""));
	/* 5 wakes, 5 threads woken, 1 woke nobody, 2 cond, 1 sem over 10 units. */
	CHECK(strstr(j, "{\"vpid\": 1, \"procname\": \"prog\", \"unit\": \"synctrace_work:done\", "
			"\"unit_events\": 3, \"units\": 10, \"futex_wakes\": 5, \"threads_woken\": 5, "
			"\"wasted_wakes\": 1, \"cond_wakeups\": 2, \"sem_wakeups\": 1, "
			"\"futex_wakes_per_unit\": 0.5, \"threads_woken_per_unit\": 0.5, "
			"\"wasted_wakes_per_unit\": 0.1, \"cond_wakeups_per_unit\": 0.2, "
			"\"sem_wakeups_per_unit\": 0.1}"));
	CHECK(strstr(j, "{\"vpid\": 2, \"procname\": \"prog\", \"unit\": \"synctrace_work:done\", "
			"\"unit_events\": 1, \"units\": 4, \"futex_wakes\": 1, \"threads_woken\": 2, "));
	CHECK(!strstr(j, "{\"vpid\": 3, \"procname\": \"prog\", \"unit\""));
	/* Per thread: 41 did 5 units and was woken 3 times (0.6 per unit). */
	CHECK(strstr(j, "{\"vpid\": 1, \"vtid\": 41, \"name\": \"prog\", \"units\": 5, \"woken\": 3, "
			"\"woken_per_unit\": 0.6, \"futex_wakes\": 0, \"threads_woken\": 0, "
			"\"wasted_wakes\": 0, \"cond_wakeups\": 0, \"sem_wakeups\": 0, "
			"\"threads_woken_per_unit\": 0}"));
	CHECK(strstr(j, "{\"vpid\": 1, \"vtid\": 40, \"name\": \"prog\", \"units\": 0, \"woken\": 0, "
			"\"woken_per_unit\": null, \"futex_wakes\": 5, \"threads_woken\": 5, "
			"\"wasted_wakes\": 1, \"cond_wakeups\": 2, \"sem_wakeups\": 0, "
			"\"threads_woken_per_unit\": null}"));
	CHECK(strstr(j, "{\"vpid\": 1, \"vtid\": 42, \"name\": \"prog\", \"units\": 5, \"woken\": 0, "
			"\"woken_per_unit\": 0, \"futex_wakes\": 0, \"threads_woken\": 0, "
			"\"wasted_wakes\": 0, \"cond_wakeups\": 0, \"sem_wakeups\": 1, "
			"\"threads_woken_per_unit\": 0}"));
	CHECK(strstr(j, "all 2 processes: 14 units, 0.5 threads woken per unit"));
	free(j);
	char *csv = render(SA_FMT_CSV, 0);
	CHECK(strstr(csv, "# wakes.work\nvpid,procname,unit,unit_events,units,futex_wakes,"
			  "threads_woken,wasted_wakes,cond_wakeups,sem_wakeups,futex_wakes_per_unit,"
			  "threads_woken_per_unit,wasted_wakes_per_unit,cond_wakeups_per_unit,"
			  "sem_wakeups_per_unit\n1,prog,synctrace_work:done,3,10,5,5,1,2,1,0.5,"
			  "0.5,0.1,0.2,0.1\n"));
	free(csv);
	char *txt = render(SA_FMT_TEXT, 0);
	CHECK(strstr(txt, "\nWakeups per unit of work\n"));
	CHECK(strstr(txt, "\nWakeups per unit of work, per thread\n"));
	free(txt);
}

/* --work-event: one of our events (one unit each, or a field), a foreign
 * event by name; synctrace_work:done is then not the unit. */
static void work_event_option(void)
{
	CHECK_EQ(sa_model_set_work_event(m, "nocolon"), -1);
	CHECK_EQ(sa_model_set_work_event(m, "synctrace_mutex:nosuch"), -1);
	CHECK_EQ(sa_model_set_work_event(m, "x:y/"), -1);
	CHECK_EQ(sa_model_set_work_event(m, ":y"), -1);
	CHECK_EQ(sa_model_set_work_event(m, "synctrace_sem:acquired"), 0);
	START(1, 1, 1);
	for (int k = 0; k < 6; k++)
		feed(SA_EV_sem_acquired, 10 + k, 1, 2, "obj", I(A), "caller", I(1), "how", I(2),
		     "spins", I(0), "sleeps", I(1), "wait_ns", I(10), NULL);
	feed(SA_EV_work_done, 20, 1, 2, "caller", I(0x700), "units", I(100), NULL);
	feed(SA_EV_futex_wake, 21, 1, 1, "obj", I(A), "uaddr", I(A), "requested", I(1),
	     "woken", I(1), NULL);
	feed(SA_EV_futex_wake, 22, 1, 1, "obj", I(A), "uaddr", I(A), "requested", I(1),
	     "woken", I(1), NULL);
	feed(SA_EV_futex_wake, 23, 1, 1, "obj", I(A), "uaddr", I(A), "requested", I(1),
	     "woken", I(1), NULL);
	CHECK_EQ(m->procs[0].units, 6);
	char *j = render(SA_FMT_JSON, 0);
	CHECK(strstr(j, "\"unit\": \"synctrace_sem:acquired\", \"unit_events\": 6, \"units\": 6, "
			"\"futex_wakes\": 3, \"threads_woken\": 3, \"wasted_wakes\": 0, "
			"\"cond_wakeups\": 0, \"sem_wakeups\": 0, \"futex_wakes_per_unit\": 0.5, "
			"\"threads_woken_per_unit\": 0.5"));
	free(j);

	/* A foreign event with a field. */
	sa_model_free(m);
	m = sa_model_new();
	CHECK_EQ(sa_model_set_work_event(m, "myapp:batch/items"), 0);
	START(1, 1, 1);
	struct sa_event e;
	memset(&e, 0, sizeof(e));
	e.id = SA_EV_UNKNOWN;
	e.name = "myapp:batch";
	e.ts = 5;
	e.vpid = 1;
	e.vtid = 3;
	sa_ev_set(&e, "items", 7);
	sa_model_feed(m, &e);
	e.ts = 6;
	sa_model_feed(m, &e);
	e.name = "myapp:other";
	sa_model_feed(m, &e);
	CHECK_EQ(m->procs[0].units, 14);
	CHECK_EQ(m->procs[0].unit_events, 2);
	CHECK_EQ(m->threads[1].units, 14);
	/* The option with no such event in the trace: the table says so. */
	sa_model_free(m);
	m = sa_model_new();
	CHECK_EQ(sa_model_set_work_event(m, "myapp:none"), 0);
	START(1, 1, 1);
	j = render(SA_FMT_JSON, 0);
	CHECK(strstr(j, "\"name\": \"wakes.work\""));
	CHECK(strstr(j, "no myapp:none event in the trace: no unit of work"));
	free(j);
}

/* The SYNCTRACE_SEM_MAX setting and its findings in the model. */
static void sem_over_max(void)
{
	START(1, 1, 2);
	feed(SA_EV_meta_config, 1, 1, 1, "sem_max_mode", I(3), "sem_max", I(4), NULL);
	feed(SA_EV_sem_init, 2, 1, 1, "obj", I(A), "caller", I(1), "value", I(1), "pshared", I(0),
	     NULL);
	feed(SA_EV_sem_misuse, 3, 1, 1, "obj", I(A), "caller", I(2), "what", I(1), "value", I(2),
	     "limit", I(1), NULL);
	feed(SA_EV_sem_misuse, 4, 1, 1, "obj", I(A), "caller", I(2), "what", I(1), "value", I(3),
	     "limit", I(1), NULL);
	CHECK_EQ(m->procs[0].have_config, 1);
	CHECK_EQ(m->procs[0].sem_max_mode, 3);
	CHECK_EQ(m->procs[0].sem_max, 4);
	struct sa_object *o = obj(1, A, 0);
	CHECK(o && o->type == SA_OBJ_SEM);
	struct sa_sem *s = o->ext;
	CHECK_EQ(s->over_limit, 2);
	CHECK_EQ(s->over_value, 3);
	CHECK_EQ(s->over_limit_value, 1);
	char *csv = render(SA_FMT_CSV, 0);
	/* The contention row counts them as misuse. */
	CHECK(csv_row(csv, "1,sem,1,prog,0x1000,0,", ",0x1,0,0,,0,0,0,0,0,,,,,,,,,,0,2,false,"));
	free(csv);
}

/* Discarded events: listed, and the report says numbers are lower bounds. */
static void discarded(void)
{
	START(1, 1, 1);
	sa_model_name_trace(m, 0, "host-a");
	sa_model_discarded(m, 0, "chan_0", 100, 200, 42, 1);
	sa_model_discarded(m, 0, "chan_1", INT64_MIN, INT64_MIN, 0, 0);
	CHECK_EQ(m->ndiscards, 2);
	CHECK_EQ(m->discarded_total, 42);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sa_report_opts o = { .format = SA_FMT_JSON };
	sa_report_render(m, &o, f);
	fclose(f);
	CHECK(strstr(buf, "\"lower_bounds\": true"));
	CHECK(strstr(buf, "{\"trace\": \"host-a\", \"stream\": \"chan_0\", \"begin_ns\": 100, "
			  "\"end_ns\": 200, \"count\": 42}"));
	CHECK(strstr(buf, "\"stream\": \"chan_1\", \"begin_ns\": null, \"end_ns\": null, "
			  "\"count\": null}"));
	CHECK(strstr(buf, "the tracer discarded at least 42 events"));
	free(buf);
}

/* A meta:start with a nonce (tracepoints/probes.c): a process announced
 * lazily repeats start and config (repeat = 1, the same nonce), since a
 * session starting meanwhile may have dropped the first pair. */
#define START_NONCE(ts, pid, tid, level, nonce, rep)                                   \
	feed(SA_EV_meta_start, ts, pid, tid, "format_major", I(SA_FORMAT_MAJOR),        \
	     "format_minor", I(0), "level", I(level), "spin_mode", I(1), "spin_limit",   \
	     I(100), "nonce", I(nonce), "repeat", I(rep), NULL)
#define CONFIG(ts, pid, tid, max)                                                   \
	feed(SA_EV_meta_config, ts, pid, tid, "sem_max_mode", I(3), "sem_max", I(max), \
	     "all_mutexes_spin", I(max > 8), NULL)
#define WAKE(ts, pid, tid, woken)                                                      \
	feed(SA_EV_futex_wake, ts, pid, tid, "obj", I(A), "uaddr", I(A), "requested", I(1), \
	     "woken", I(woken), NULL)
#define NONCE1 0xF00DCAFE12345678ull /* above INT64_MAX: read back as int64 */
#define NONCE2 0x0123456789ABCDEFull
#define NONCE3 0x42ull

/* Process i was announced (start and config) with these settings. */
static void announced(uint32_t i, int level, int sem_max)
{
	const struct sa_proc *p = &m->procs[i];
	CHECK_EQ(p->have_start, 1);
	CHECK_EQ(p->level, level);
	CHECK_EQ(p->have_config, 1);
	CHECK_EQ(p->sem_max_mode, 3);
	CHECK_EQ(p->sem_max, sem_max);
	CHECK_EQ(p->have_mutex_spin, 1);
	CHECK_EQ(p->all_mutexes_spin, sem_max > 8);
}

/* Both announcements recorded, the repeat from another thread: one process
 * instance, one object, one set of threads; the repeat pair is two more
 * events of the trace and nothing else. */
static void meta_repeat_same_nonce(void)
{
	START_NONCE(1, 500, 500, 1, NONCE1, 0);
	CONFIG(2, 500, 500, 7);
	WAKE(3, 500, 501, 0);
	START_NONCE(200, 500, 501, 1, NONCE1, 1);
	CONFIG(201, 500, 501, 7);
	WAKE(202, 500, 501, 0);
	CHECK_EQ(m->nprocs, 1);
	CHECK_EQ(m->procs[0].instance, 0);
	CHECK_EQ(m->procs[0].have_nonce, 1);
	CHECK(m->procs[0].nonce == NONCE1);
	announced(0, 1, 7);
	CHECK_EQ(m->procs[0].first_ts, 1);
	CHECK_EQ(m->procs[0].events, 6);
	CHECK_EQ(m->nthreads, 2);
	CHECK_EQ(m->procs[0].nthreads, 2);
	CHECK_EQ(m->nobjs, 1);
	CHECK_EQ(m->objs[0].fx_wakes, 2);
	CHECK_EQ(m->objs[0].fx_wasted, 2);
}

/* The first pair dropped: the process's events come first, then the
 * repeat, which announces that same process (its settings become known). */
static void meta_repeat_first_lost(void)
{
	WAKE(1, 500, 501, 0);
	WAKE(2, 500, 502, 1);
	char *text = render(SA_FMT_TEXT, 0);
	CHECK(strstr(text, "pid 500: no synctrace_meta:start"));
	free(text);
	START_NONCE(200, 500, 501, 2, NONCE1, 1);
	CONFIG(201, 500, 501, 7);
	WAKE(202, 500, 502, 0);
	CHECK_EQ(m->nprocs, 1);
	announced(0, 2, 7);
	CHECK_EQ(m->nthreads, 2);
	CHECK_EQ(m->nobjs, 1);
	CHECK_EQ(m->objs[0].fx_wakes, 3);
	CHECK_EQ(m->objs[0].fx_wasted, 2);
	text = render(SA_FMT_TEXT, 0);
	CHECK(!strstr(text, "no synctrace_meta:start"));
	free(text);
}

/* meta:base (format minor 18): what the threads alive at the announcement
 * had used is taken off the times their ends say, and their lives in the
 * trace begin at the announcement; a thread born since with the tid again
 * (thread:start) and the tracer's own threads (no event) take none; a
 * thread not seen yet takes the latest announcement's (a repeat's, a
 * rotating recording's), one that has a base keeps it. */
#define BASE(ts, pid, tid, of, cpu, runq)                                          \
	feed(SA_EV_meta_base, ts, pid, tid, "tid", I(of), "cpu_ns", I(cpu), "runq_ns", \
	     I(runq), NULL)
static void meta_bases(void)
{
	const int64_t MS = 1000000;
	START_NONCE(1000, 700, 700, 1, NONCE1, 0);
	CONFIG(1001, 700, 700, 7);
	BASE(1002, 700, 700, 700, 50 * MS, 30 * MS);  /* main: a long start-up */
	BASE(1003, 700, 700, 701, 80 * MS, -1);       /* alive, not seen yet */
	BASE(1004, 700, 700, 703, 7 * MS, 1 * MS);    /* ends; 703 again, born */
	BASE(1005, 700, 700, 799, 1000, 0);           /* lttng-ust's: no event */
	BASE(1006, 700, 700, 704, 5 * MS, 1 * MS);    /* first seen after the repeat */
	feed(SA_EV_thread_start, 1500, 700, 703, "creator", I(700), "start_routine", I(1), NULL);
	WAKE(1000 * MS, 700, 701, 0);
	START_NONCE(1100 * MS, 700, 702, 1, NONCE1, 1); /* the repeat: same nonce */
	BASE(1100 * MS + 1, 700, 702, 701, 300 * MS, 9 * MS);
	BASE(1100 * MS + 2, 700, 702, 704, 20 * MS, 3 * MS);
	WAKE(1200 * MS, 700, 704, 0);
	feed(SA_EV_thread_exit, 1300 * MS, 700, 704, "cancelled", I(0), "cpu_ns", I(30 * MS),
	     "runq_ns", I(4 * MS), NULL);
	feed(SA_EV_thread_exit, 1500 * MS, 700, 703, "cancelled", I(0), "cpu_ns", I(10 * MS),
	     "runq_ns", I(2 * MS), NULL);
	feed(SA_EV_thread_exit, 2000 * MS, 700, 701, "cancelled", I(0), "cpu_ns",
	     I(80 * MS + 500 * MS), "runq_ns", I(100 * MS), NULL);
	feed(SA_EV_meta_stop, 2000 * MS + 1000, 700, 700, "objects_flushed", I(0), "cpu_ns",
	     I(50 * MS + 400 * MS), "runq_ns", I(30 * MS + 100 * MS), NULL);
	CHECK_EQ(m->nprocs, 1);
	CHECK_EQ(m->nthreads, 5); /* 700, 703, 701, 702, 704 (not 799) */
	const struct sa_thread *t700 = 0, *t701 = 0, *t703 = 0, *t704 = 0;
	for (uint32_t i = 0; i < m->nthreads; i++) {
		const struct sa_thread *t = &m->threads[i];
		CHECK(t->vtid != 799);
		if (t->vtid == 700)
			t700 = t;
		else if (t->vtid == 701)
			t701 = t;
		else if (t->vtid == 703)
			t703 = t;
		else if (t->vtid == 704)
			t704 = t;
	}
	CHECK(t700 && t701 && t703 && t704);
	/* main: its start-up's 50 ms of CPU and 30 of run queue are not of
	 * its life, which began at the start */
	CHECK_EQ(t700->cpu_ns, 400 * MS);
	CHECK_EQ(t700->runq_ns, 100 * MS);
	CHECK_EQ(t700->have_runq, 1);
	CHECK_EQ(t700->first_ts, 1000);
	/* 701: its life from the announcement, not from its first event (at
	 * 1 s); the repeat's base (300 ms) not taken; its run-queue time
	 * before the trace unknown, so its own too */
	CHECK_EQ(t701->first_ts, 1003);
	CHECK_EQ(t701->cpu_ns, 500 * MS);
	CHECK_EQ(t701->have_runq, 0);
	double share = sa_thread_cpu_share(t701);
	CHECK(share > 0.24 && share < 0.26);
	/* 704: the repeat's base, the latest before its first event */
	CHECK_EQ(t704->first_ts, 1100 * MS + 2);
	CHECK_EQ(t704->cpu_ns, 10 * MS);
	CHECK_EQ(t704->runq_ns, 1 * MS);
	/* 703: born in the trace (thread:start), nothing taken off */
	CHECK_EQ(t703->have_base, 0);
	CHECK_EQ(t703->cpu_ns, 10 * MS);
	CHECK_EQ(t703->runq_ns, 2 * MS);
	CHECK_EQ(t703->first_ts, 1500);
}

/* exec: the new image announces itself with a nonce of its own, a new
 * instance; its repeat stays with it. A repeat whose first was lost, after
 * another image's start, is a new image too. */
static void meta_new_nonce(void)
{
	START_NONCE(1, 600, 600, 1, NONCE1, 0);
	CONFIG(2, 600, 600, 7);
	WAKE(3, 600, 600, 0);
	START_NONCE(10, 600, 600, 2, NONCE2, 0);
	CONFIG(11, 600, 600, 9);
	WAKE(12, 600, 600, 1);
	START_NONCE(200, 600, 600, 2, NONCE2, 1);
	CONFIG(201, 600, 600, 9);
	WAKE(202, 600, 600, 1);
	CHECK_EQ(m->nprocs, 2);
	CHECK_EQ(m->procs[1].instance, 1);
	announced(0, 1, 7);
	announced(1, 2, 9);
	CHECK(m->procs[1].nonce == NONCE2);
	CHECK_EQ(m->nobjs, 2);
	CHECK_EQ(m->objs[0].fx_wasted, 1);
	CHECK_EQ(m->objs[1].proc, 1);
	CHECK_EQ(m->objs[1].fx_wakes, 2);
	CHECK_EQ(m->objs[1].fx_wasted, 0);
	START_NONCE(300, 600, 600, 1, NONCE3, 1);
	WAKE(301, 600, 600, 0);
	CHECK_EQ(m->nprocs, 3);
	CHECK_EQ(m->procs[2].instance, 2);
	CHECK(m->procs[2].nonce == NONCE3);
	CHECK_EQ(m->objs[2].proc, 2);
}

/* Starts without nonce (traces of older synctrace): a start after the
 * process's start or events is a new instance, as it always was. */
static void meta_no_nonce(void)
{
	START(1, 700, 1);
	WAKE(2, 700, 700, 0);
	START(10, 700, 1);
	WAKE(11, 800, 801, 0);
	START(12, 800, 1);
	CHECK_EQ(m->nprocs, 4);
	CHECK_EQ(m->procs[1].vpid, 700);
	CHECK_EQ(m->procs[1].instance, 1);
	CHECK_EQ(m->procs[1].have_nonce, 0);
	CHECK_EQ(m->procs[3].vpid, 800);
	CHECK_EQ(m->procs[3].instance, 1);
	CHECK_EQ(m->procs[2].have_start, 0);
	CHECK_EQ(m->procs[3].have_start, 1);
	/* a config of format 2.0: no all_mutexes_spin, so unknown */
	feed(SA_EV_meta_config, 13, 800, 800, "sem_max_mode", I(0), "sem_max", I(-1), NULL);
	CHECK_EQ(m->procs[3].have_config, 1);
	CHECK_EQ(m->procs[3].have_mutex_spin, 0);
}

/* ---- the wait ledger, blame, wakers (sa_waits.h) ------------------------ */

static uint32_t oidx(int pid, uint64_t addr)
{
	struct sa_object *o = obj(pid, addr, 0);
	CHECK(o && o->instances == 1);
	CHECK(o);
	return (uint32_t)(o - m->objs);
}

static const struct sa_wait_stat *ledger(int pid, uint64_t addr, enum sa_wait_kind k)
{
	const struct sa_wait_stat *s = sa_object_wait(&m->objs[oidx(pid, addr)], k);
	CHECK(s);
	return s;
}

static const struct sa_thread *thr(int pid, int tid)
{
	for (uint32_t i = 0; i < m->nthreads; i++)
		if (m->procs[m->threads[i].proc].vpid == pid && m->threads[i].vtid == tid)
			return &m->threads[i];
	CHECK(0);
	return NULL;
}

static int64_t tidx(int pid, int tid)
{
	return thr(pid, tid) - m->threads;
}

#define STAT(s, n_, ns_, max_, to_)                \
	do {                                      \
		CHECK_EQ((s)->waits, n_);         \
		CHECK_EQ((s)->wait_ns, ns_);      \
		CHECK_EQ((s)->max_ns, max_);      \
		CHECK_EQ((s)->timeouts, to_);     \
		CHECK_EQ((s)->dist.n, n_);        \
	} while (0)

#define MX 0x1000
#define CV 0x2000
#define RW 0x3000
#define SM 0x4000
#define BR 0x5000
#define ON 0x6000
#define SL 0x7000

struct pair_sum {
	unsigned n;
	uint64_t ns[SA_WAIT_NKINDS];
};

static void sum_pair(void *ctx, uint32_t thread, uint32_t o, enum sa_wait_kind k,
		     const struct sa_wait_stat *s)
{
	struct pair_sum *p = ctx;
	(void)thread;
	(void)o;
	p->n++;
	p->ns[k] += s->wait_ns;
}

/* The condvar and semaphore events these cases use, on CV and SM. */
static void cond_enq(int64_t ts, int tid, int64_t node, int timed)
{
	feed(SA_EV_cond_enqueued, ts, 1, tid, "cond", I(CV), "caller", I(0x600), "mutex", I(MX),
	     "node", I(node), "timed", I(timed), NULL);
}

static void cond_woke(int64_t ts, int tid, int64_t node, int how, int64_t wait)
{
	feed(SA_EV_cond_woke, ts, 1, tid, "cond", I(CV), "node", I(node), "how", I(how),
	     "spurious", I(0), "wait_ns", I(wait), NULL);
}

static void sem_acq(int64_t ts, int pid, int tid, int64_t addr, int how, int64_t wait)
{
	feed(SA_EV_sem_acquired, ts, pid, tid, "obj", I(addr), "caller", I(0x800), "how", I(how),
	     "wait_ns", I(wait), NULL);
}

/* Every kind of wait, one object each: the object's ledger, the thread's
 * and the pairs agree with the events, to the nanosecond. */
static void ledger_kinds(void)
{
	START(1, 1, 1);
	/* mutex: a contended lock (100 ns) and a timed lock that timed out (50) */
	feed(SA_EV_mutex_init, 2, 1, 1, "obj", I(MX), "caller", I(0x400), "kind", I(0), NULL);
	feed(SA_EV_mutex_requested, 10, 1, 11, "obj", I(MX), "caller", I(0x500), "owner", I(1),
	     "waiters", I(0), NULL);
	feed(SA_EV_mutex_acquired, 110, 1, 11, "obj", I(MX), "caller", I(0x500), "how", I(2),
	     "wait_ns", I(100), "acquisitions", I(2), "contended", I(1), NULL);
	feed(SA_EV_mutex_requested, 150, 1, 1, "obj", I(MX), "caller", I(0x501), "owner", I(11),
	     "waiters", I(0), NULL);
	feed(SA_EV_mutex_timeout, 200, 1, 1, "obj", I(MX), "caller", I(0x501), "sleeps", I(1),
	     "wait_ns", I(50), NULL);
	/* condvar: a wait that timed out (1000), then the relock (20, slept) */
	cond_enq(300, 12, 0xA0, 1);
	feed(SA_EV_cond_leaving, 1290, 1, 12, "cond", I(CV), "node", I(0xA0), "reason", I(1), NULL);
	cond_woke(1300, 12, 0xA0, 1, 1000);
	feed(SA_EV_cond_relocked, 1320, 1, 12, "cond", I(CV), "mutex", I(MX), "node", I(0xA0),
	     "contended", I(1), "result", I(0), "relock_ns", I(20), NULL);
	/* rwlock: a writer (70), a reader (30), a writer that timed out (40) */
	feed(SA_EV_rwlock_requested, 400, 1, 13, "obj", I(RW), "caller", I(0x700), "write", I(1),
	     "readers", I(1), "writer", I(0), NULL);
	feed(SA_EV_rwlock_acquired, 470, 1, 13, "obj", I(RW), "caller", I(0x700), "write", I(1),
	     "how", I(2), "wait_ns", I(70), NULL);
	feed(SA_EV_rwlock_requested, 480, 1, 14, "obj", I(RW), "caller", I(0x701), "write", I(0),
	     "writer", I(13), NULL);
	feed(SA_EV_rwlock_acquired, 510, 1, 14, "obj", I(RW), "caller", I(0x701), "write", I(0),
	     "how", I(1), "wait_ns", I(30), NULL);
	feed(SA_EV_rwlock_requested, 520, 1, 13, "obj", I(RW), "caller", I(0x702), "write", I(1),
	     "readers", I(1), NULL);
	feed(SA_EV_rwlock_timeout, 560, 1, 13, "obj", I(RW), "caller", I(0x702), "write", I(1),
	     "wait_ns", I(40), NULL);
	/* semaphore: a token after sleeping (80), a timeout (60), EINTR (5) */
	feed(SA_EV_sem_wait_begin, 600, 1, 15, "obj", I(SM), "caller", I(0x800), NULL);
	sem_acq(680, 1, 15, SM, 2, 80);
	feed(SA_EV_sem_timeout, 760, 1, 15, "obj", I(SM), "caller", I(0x800), "result", I(110),
	     "wait_ns", I(60), NULL);
	feed(SA_EV_sem_timeout, 770, 1, 15, "obj", I(SM), "caller", I(0x800), "result", I(4),
	     "wait_ns", I(5), NULL);
	/* barrier (90), once (25), spinlock (15) */
	feed(SA_EV_barrier_departure, 900, 1, 16, "obj", I(BR), "caller", I(0x900), "round", I(0),
	     "wait_ns", I(90), NULL);
	feed(SA_EV_once_wait, 975, 1, 17, "obj", I(ON), "caller", I(0xA00), NULL);
	feed(SA_EV_once_waited, 1000, 1, 17, "obj", I(ON), "caller", I(0xA00), "wait_ns", I(25), NULL);
	feed(SA_EV_spinlock_contended, 1100, 1, 18, "obj", I(SL), "caller", I(0xB00),
	     "iterations", I(7), "spin_ns", I(15), NULL);

	STAT(ledger(1, MX, SA_WAIT_MUTEX), 2, 150, 100, 1);
	STAT(ledger(1, MX, SA_WAIT_COND_RELOCK), 1, 20, 20, 0);
	STAT(ledger(1, CV, SA_WAIT_COND), 1, 1000, 1000, 1);
	STAT(ledger(1, RW, SA_WAIT_RWLOCK_WRITE), 2, 110, 70, 1);
	STAT(ledger(1, RW, SA_WAIT_RWLOCK_READ), 1, 30, 30, 0);
	STAT(ledger(1, SM, SA_WAIT_SEM), 3, 145, 80, 2);
	STAT(ledger(1, BR, SA_WAIT_BARRIER), 1, 90, 90, 0);
	STAT(ledger(1, ON, SA_WAIT_ONCE), 1, 25, 25, 0);
	STAT(ledger(1, SL, SA_WAIT_SPINLOCK), 1, 15, 15, 0);
	CHECK_EQ(ledger(1, MX, SA_WAIT_MUTEX)->contended, 2);
	/* A kind that is not the object's type's. */
	CHECK(!sa_object_wait(&m->objs[oidx(1, MX)], SA_WAIT_COND));
	CHECK(!sa_object_wait(&m->objs[oidx(1, CV)], SA_WAIT_MUTEX));
	CHECK(!sa_object_wait(&m->objs[oidx(1, SM)], SA_WAIT_RWLOCK_READ));

	/* Per thread: the condvar waiter has both its kinds, apart. */
	const struct sa_thread_waits *w12 = sa_thread_waits(thr(1, 12));
	CHECK_EQ(w12->waits, 2);
	CHECK_EQ(w12->wait_ns, 1020);
	CHECK_EQ(w12->timeouts, 1);
	CHECK_EQ(w12->kind_ns[SA_WAIT_COND], 1000);
	CHECK_EQ(w12->kind_ns[SA_WAIT_COND_RELOCK], 20);
	CHECK_EQ(thr(1, 12)->waits, 2);
	CHECK_EQ(thr(1, 12)->timeouts, 1);
	CHECK_EQ(thr(1, 12)->top_obj, oidx(1, CV));
	const struct sa_thread_waits *w13 = sa_thread_waits(thr(1, 13));
	CHECK_EQ(w13->waits, 2);
	CHECK_EQ(w13->wait_ns, 110);
	CHECK_EQ(w13->timeouts, 1);
	const struct sa_thread_waits *w15 = sa_thread_waits(thr(1, 15));
	CHECK_EQ(w15->waits, 3);
	CHECK_EQ(w15->timeouts, 2);
	CHECK_EQ(w15->kind_ns[SA_WAIT_SEM], 145);
	CHECK_EQ(sa_thread_waits(thr(1, 1))->timeouts, 1);

	/* Pairs: one per (thread, object, kind) that waited. */
	struct pair_sum ps = { 0 };
	sa_model_each_pair(m, sum_pair, &ps);
	CHECK_EQ(ps.n, 10); /* 13 and 15 waited twice and thrice on one pair */
	CHECK_EQ(ps.ns[SA_WAIT_MUTEX], 150);
	CHECK_EQ(ps.ns[SA_WAIT_COND_RELOCK], 20);
	CHECK_EQ(ps.ns[SA_WAIT_COND], 1000);
	CHECK_EQ(ps.ns[SA_WAIT_RWLOCK_WRITE], 110);
	CHECK_EQ(ps.ns[SA_WAIT_SEM], 145);
	CHECK_EQ(ps.ns[SA_WAIT_SPINLOCK], 15);
	CHECK(!strcmp(sa_wait_kind_name(SA_WAIT_COND_RELOCK), "cond-relock"));
	CHECK(!strcmp(sa_wait_kind_name(SA_WAIT_RWLOCK_WRITE), "rwlock-write"));
}

/* A thread that timed out 50 times on a condvar: 50 waits, 50 timeouts,
 * all its waiting on that condvar (issue 16: it was listed with 0). */
static void cond_timeouts_per_thread(void)
{
	START(1, 1, 1);
	for (int i = 0; i < 50; i++) {
		int64_t t0 = 1000 + i * 10000;
		cond_enq(t0, 2, 0xA0, 1);
		feed(SA_EV_cond_leaving, t0 + 4000, 1, 2, "cond", I(CV), "node", I(0xA0), "reason",
		     I(1), NULL);
		cond_woke(t0 + 5000, 2, 0xA0, 1, 5000);
		feed(SA_EV_cond_relocked, t0 + 5010, 1, 2, "cond", I(CV), "mutex", I(MX), "node",
		     I(0xA0), "contended", I(0), "result", I(0), "relock_ns", I(10), NULL);
	}
	const struct sa_thread *t = thr(1, 2);
	CHECK_EQ(t->waits, 100);
	CHECK_EQ(t->timeouts, 50);
	CHECK_EQ(t->wait_ns, 50 * 5010);
	CHECK_EQ(t->w.kind_ns[SA_WAIT_COND], 50 * 5000);
	CHECK_EQ(t->w.kind_ns[SA_WAIT_COND_RELOCK], 50 * 10);
	CHECK_EQ(t->top_obj, oidx(1, CV));
	STAT(ledger(1, CV, SA_WAIT_COND), 50, 50 * 5000, 5000, 50);
	const struct sa_wait_stat *r = ledger(1, MX, SA_WAIT_COND_RELOCK);
	STAT(r, 50, 500, 10, 0);
	CHECK_EQ(r->contended, 0); /* taken at once: waits, not contended ones */
}

/* The entry of (thread ti, site) in a blame or wakers table (both begin
 * with thread and site), or NULL. */
static const void *entry_of(const void *arr, unsigned n, size_t size, int64_t ti, uint64_t site)
{
	for (unsigned i = 0; i < n; i++) {
		const struct sa_blame *k = (const void *)((const char *)arr + i * size);
		if (k->thread == (uint32_t)ti && k->site == site)
			return k;
	}
	return NULL;
}

static const struct sa_blame *blame_of(uint32_t o, int64_t ti, uint64_t site)
{
	const struct sa_blame *b;
	unsigned n = sa_object_blame(m, o, &b);
	return entry_of(b, n, sizeof(*b), ti, site);
}

#define MS 1000000

/* Thread 10 holds the mutex (its acquisition was not an event) while 11,
 * 12, 13 wait 1 ms: its hold caused 3 ms; then each waiter's hold (1 ms)
 * keeps the ones still waiting: 2 ms, 1 ms. level: 1 or 2 (then the
 * releases carry hold times). late: each release's event comes just after
 * the acquisition it allowed, as in traces (the unlock wakes the waiter,
 * then emits), else just before. */
static void three_waiters(int level, int late)
{
	START(1, 1, level);
	feed(SA_EV_mutex_init, 2, 1, 10, "obj", I(MX), "caller", I(0x400), "kind", I(0), NULL);
	for (int w = 11; w <= 13; w++)
		feed(SA_EV_mutex_requested, 1000, 1, w, "obj", I(MX), "caller", I(0x500 + w),
		     "owner", I(10), "waiters", I(w - 11), NULL);
	int64_t ts = 1000 + MS;
	for (int w = 11; w <= 14; w++) {
		int h = w - 1; /* the holder before w */
		int64_t rel = late ? ts + 1 : ts - 1;
		if (!late)
			feed(SA_EV_mutex_released, rel, 1, h, "obj", I(MX), "caller",
			     I(h == 10 ? 0xAAA : 0xC00 + h), "waiters", I(14 - w), "woken", I(w < 14 ? 1 : -1),
			     "acquisitions", I(0), "hold_ns", I(h == 10 ? 5 * MS : MS), NULL);
		if (w < 14)
			feed(SA_EV_mutex_acquired, ts, 1, w, "obj", I(MX), "caller", I(0x500 + w),
			     "how", I(2), "wait_ns", I(ts - 1000), "acquisitions", I(0), "contended",
			     I(0), NULL);
		if (late)
			feed(SA_EV_mutex_released, rel, 1, h, "obj", I(MX), "caller",
			     I(h == 10 ? 0xAAA : 0xC00 + h), "waiters", I(14 - w), "woken", I(w < 14 ? 1 : -1),
			     "acquisitions", I(0), "hold_ns", I(h == 10 ? 5 * MS : MS), NULL);
		ts += MS;
	}
	uint32_t o = oidx(1, MX);
	const struct sa_blame *h = blame_of(o, tidx(1, 10), 0xAAA);
	CHECK(h);
	CHECK_EQ(h->holds, 1);
	/* Up to the acquisition (late) or the release (1 ns earlier). */
	CHECK_EQ(h->caused_ns, 3 * MS - (late ? 0 : 3));
	const struct sa_blame *b11 = blame_of(o, tidx(1, 11), 0xC0B);
	const struct sa_blame *b12 = blame_of(o, tidx(1, 12), 0xC0C);
	CHECK(b11 && b12);
	CHECK_EQ(b11->caused_ns, 2 * MS - (late ? 0 : 2));
	CHECK_EQ(b12->caused_ns, 1 * MS - (late ? 0 : 1));
	CHECK(!blame_of(o, tidx(1, 13), 0xC0D)); /* nobody waited for the last hold */
	const struct sa_blame *all;
	CHECK_EQ(sa_object_blame(m, o, &all), 3);
	/* The blamed waiting is all the waiting: 1 + 2 + 3 ms. */
	CHECK_EQ(ledger(1, MX, SA_WAIT_MUTEX)->wait_ns, 6 * MS);
	if (level >= 2) {
		CHECK_EQ(h->hold_ns, 5 * MS);
		CHECK_EQ(h->max_hold_ns, 5 * MS);
		CHECK_EQ(b11->hold_ns, MS);
	} else {
		CHECK_EQ(h->hold_ns, 0);
		CHECK_EQ(b11->hold_ns, 0);
	}
}

static void blame_three_waiters(void)
{
	three_waiters(1, 1);
}

static void blame_release_first(void)
{
	three_waiters(1, 0);
}

static void blame_hold_full(void)
{
	three_waiters(2, 1);
}

/* A writer holds the rwlock while a reader waits; at the full level its
 * hold time per side (the events carry no hold: acquired → released). */
static void rwlock_blame_holds(void)
{
	START(1, 1, 2);
	feed(SA_EV_rwlock_acquired, 100, 1, 2, "obj", I(RW), "caller", I(0x700), "write", I(1),
	     "how", I(0), "wait_ns", I(0), NULL);
	feed(SA_EV_rwlock_requested, 150, 1, 3, "obj", I(RW), "caller", I(0x701), "write", I(0),
	     "writer", I(2), NULL);
	feed(SA_EV_rwlock_released, 400, 1, 2, "obj", I(RW), "caller", I(0x7F0), "write", I(1),
	     "readers_left", I(0), "sleepers", I(1), "woken", I(1), NULL);
	feed(SA_EV_rwlock_acquired, 410, 1, 3, "obj", I(RW), "caller", I(0x701), "write", I(0),
	     "how", I(2), "wait_ns", I(260), NULL);
	feed(SA_EV_rwlock_released, 560, 1, 3, "obj", I(RW), "caller", I(0x7F1), "write", I(0),
	     "readers_left", I(0), "sleepers", I(0), "woken", I(-1), NULL);
	const struct sa_object *o = &m->objs[oidx(1, RW)];
	const struct sa_rwlock *r = o->ext;
	CHECK_EQ(r->hold[1].n, 1);
	CHECK_EQ(r->hold[1].sum, 300);
	CHECK_EQ(r->hold[0].n, 1);
	CHECK_EQ(r->hold[0].sum, 150);
	const struct sa_blame *b = blame_of(oidx(1, RW), tidx(1, 2), 0x7F0);
	CHECK(b);
	CHECK_EQ(b->caused_ns, 250); /* 150 → 400 */
	CHECK_EQ(b->hold_ns, 300);
	STAT(ledger(1, RW, SA_WAIT_RWLOCK_READ), 1, 260, 260, 0);
}

/* The finding names the holder that caused most (2: it held the rwlock
 * while 3 and 4 waited) and, as the thread that waited, the one that
 * waited most other than that holder (2 waited longest, while 3 held it):
 * 3, not 2 again. */
static void finding_waiter_not_holder(void)
{
	START(1, 1, 2);
	feed(SA_EV_rwlock_acquired, 100, 1, 2, "obj", I(RW), "caller", I(0x700), "write", I(1),
	     "how", I(0), "wait_ns", I(0), NULL);
	for (int t = 3; t <= 4; t++)
		feed(SA_EV_rwlock_requested, 150, 1, t, "obj", I(RW), "caller", I(0x701), "write",
		     I(0), "writer", I(2), NULL);
	feed(SA_EV_rwlock_released, 400, 1, 2, "obj", I(RW), "caller", I(0x7F0), "write", I(1),
	     "readers_left", I(0), "sleepers", I(2), "woken", I(2), NULL);
	for (int t = 3; t <= 4; t++) {
		feed(SA_EV_rwlock_acquired, 410, 1, t, "obj", I(RW), "caller", I(0x701), "write",
		     I(0), "how", I(2), "wait_ns", I(260), NULL);
		feed(SA_EV_rwlock_released, 420, 1, t, "obj", I(RW), "caller", I(0x7F1), "write",
		     I(0), "readers_left", I(4 - t), "sleepers", I(0), "woken", I(-1), NULL);
	}
	feed(SA_EV_rwlock_acquired, 500, 1, 3, "obj", I(RW), "caller", I(0x702), "write", I(1),
	     "how", I(0), "wait_ns", I(0), NULL);
	feed(SA_EV_rwlock_requested, 550, 1, 2, "obj", I(RW), "caller", I(0x701), "write", I(0),
	     "writer", I(3), NULL);
	feed(SA_EV_rwlock_released, 850, 1, 3, "obj", I(RW), "caller", I(0x7F2), "write", I(1),
	     "readers_left", I(0), "sleepers", I(1), "woken", I(1), NULL);
	feed(SA_EV_rwlock_acquired, 860, 1, 2, "obj", I(RW), "caller", I(0x701), "write", I(0),
	     "how", I(2), "wait_ns", I(310), NULL);
	feed(SA_EV_rwlock_released, 870, 1, 2, "obj", I(RW), "caller", I(0x7F1), "write", I(0),
	     "readers_left", I(0), "sleepers", I(0), "woken", I(-1), NULL);
	char *t = render(SA_FMT_JSON, 0); /* (the text's sentences wrap) */
	CHECK(strstr(t, "\"by_thread\": \"prog:2\""));
	CHECK(strstr(t, "held by thread `prog:2`"));
	CHECK(strstr(t, "while `prog:3` waited"));
	CHECK(!strstr(t, "while `prog:2` waited"));
	free(t);
}

static const struct sa_waker *waker_of(uint32_t o, int64_t ti, uint64_t site)
{
	const struct sa_waker *k;
	unsigned n = sa_object_wakers(m, o, &k);
	return entry_of(k, n, sizeof(*k), ti, site);
}

/* A broadcast releasing two condvar waiters, 900 and 700 ns after they
 * began; a post releasing a semaphore sleeper 500 ns after it began. */
static void wakers_latency(void)
{
	START(1, 1, 1);
	cond_enq(100, 21, 0xA1, 0);
	cond_enq(300, 22, 0xA2, 0);
	feed(SA_EV_cond_signaled, 1000, 1, 20, "cond", I(CV), "caller", I(0x5160), "node", I(0xA1),
	     "order", I(0), NULL);
	feed(SA_EV_cond_signaled, 1000, 1, 20, "cond", I(CV), "caller", I(0x5160), "node", I(0xA2),
	     "order", I(1), NULL);
	feed(SA_EV_cond_signal, 1001, 1, 20, "cond", I(CV), "caller", I(0x5160), "broadcast", I(1),
	     "moved", I(2), "leaving", I(0), NULL);
	cond_woke(1100, 21, 0xA1, 0, 1000);
	cond_woke(1200, 22, 0xA2, 0, 900);
	const struct sa_waker *k = waker_of(oidx(1, CV), tidx(1, 20), 0x5160);
	CHECK(k);
	CHECK_EQ(k->wakes, 1);
	CHECK_EQ(k->released, 2);
	CHECK_EQ(k->latency_ns, 900 + 700);
	const struct sa_waker *all;
	CHECK_EQ(sa_object_wakers(m, oidx(1, CV), &all), 1);

	feed(SA_EV_sem_wait_begin, 2000, 1, 23, "obj", I(SM), "caller", I(0x800), NULL);
	feed(SA_EV_sem_sleep, 2010, 1, 23, "obj", I(SM), "caller", I(0x800), "nwaiters", I(1), NULL);
	feed(SA_EV_sem_post, 2500, 1, 24, "obj", I(SM), "caller", I(0x9057), "result", I(0),
	     "value", I(1), "nwaiters", I(1), "woken", I(1), NULL);
	sem_acq(2600, 1, 23, SM, 2, 600);
	k = waker_of(oidx(1, SM), tidx(1, 24), 0x9057);
	CHECK(k);
	CHECK_EQ(k->wakes, 1);
	CHECK_EQ(k->released, 1);
	CHECK_EQ(k->latency_ns, 500);
	/* The post's event after the acquisition it allowed (the post wakes,
	 * then emits): matched all the same. */
	feed(SA_EV_sem_wait_begin, 2700, 1, 23, "obj", I(SM), "caller", I(0x800), NULL);
	sem_acq(2900, 1, 23, SM, 2, 200);
	feed(SA_EV_sem_post, 2901, 1, 24, "obj", I(SM), "caller", I(0x9057), "result", I(0),
	     "value", I(1), "nwaiters", I(1), "woken", I(1), NULL);
	CHECK_EQ(k->wakes, 2);
	CHECK_EQ(k->released, 2);
	CHECK_EQ(k->latency_ns, 500 + 201);
	/* A later spinner's token was not this post's: nothing more released. */
	sem_acq(3000, 1, 25, SM, 1, 100);
	CHECK_EQ(k->released, 2);
}

/* A discarded-events count that went backwards (wrapped near 2^64) is
 * unknown, with its range, and the numbers stay lower bounds. */
static void discard_wrap(void)
{
	START(1, 1, 1);
	sa_model_name_trace(m, 0, "host-a");
	sa_model_discarded(m, 0, "chan_0", 100, 200, 18446744073708544496ull, 1);
	sa_model_discarded(m, 0, "chan_1", 300, 400, 7, 1);
	CHECK_EQ(m->ndiscards, 2);
	CHECK_EQ(m->discards[0].count_known, 0);
	CHECK_EQ(m->discards[0].count, 0);
	CHECK(m->discards[0].raw_count == 18446744073708544496ull);
	CHECK_EQ(m->discards[0].begin, 100);
	CHECK_EQ(m->discards[1].count_known, 1);
	CHECK_EQ(m->discarded_total, 7);
	CHECK_EQ(m->discarded_unknown, 1);
	char *buf = render(SA_FMT_JSON, 0);
	CHECK(!strstr(buf, "18446744073708544496"));
	CHECK(strstr(buf, "\"lower_bounds\": true"));
	free(buf);
}

/* A heap mutex locked uncontended at the contention level leaves no event
 * with its counter: its count is unknown (a lower bound), until its
 * destroy gives the final counters. At the full level every hold is a
 * released event: the count is exact even with counters unread. */
static void mutex_count_unknown(void)
{
	START(1, 1, 1);
	feed(SA_EV_mutex_init, 2, 1, 1, "obj", I(MX), "caller", I(0x400), "kind", I(0), NULL);
	const struct sa_mutex *x = mx(1, MX, 0);
	CHECK_EQ(sa_mutex_acquisitions(x), 0);
	CHECK_EQ(sa_mutex_acquisitions_known(x), 0);
	feed(SA_EV_mutex_destroy, 9, 1, 1, "obj", I(MX), "caller", I(0x401), "result", I(0),
	     "acquisitions", I(1000), "contended", I(0), NULL);
	CHECK_EQ(sa_mutex_acquisitions(x), 1000);
	CHECK_EQ(sa_mutex_acquisitions_known(x), 1);

	START(10, 2, 2);
	feed(SA_EV_mutex_init, 11, 2, 2, "obj", I(MX), "caller", I(0x400), "kind", I(0), NULL);
	for (int i = 0; i < 1000; i++)
		feed(SA_EV_mutex_released, 20 + i, 2, 2, "obj", I(MX), "caller", I(0x402),
		     "waiters", I(-1), "woken", I(-1), "acquisitions", I(0), "hold_ns", I(1), NULL);
	x = mx(2, MX, 0);
	CHECK_EQ(sa_mutex_acquisitions(x), 1000);
	CHECK_EQ(sa_mutex_acquisitions_known(x), 1);
}

/* n lock-order edges Ai → Bi (Bi taken while Ai held), full level. */
static void nested_pairs(struct sa_checks *c, unsigned from, unsigned n)
{
	(void)c;
	for (unsigned i = from; i < from + n; i++) {
		int64_t t = 100 + (int64_t)i * 10;
		uint64_t a = 0x100000 + (uint64_t)i * 0x100, b = a + 0x40;
		feed(SA_EV_mutex_released, t + 2, 1, 1, "obj", I(b), "caller", I(0x502),
		     "waiters", I(-1), "woken", I(-1), "acquisitions", I(0), "hold_ns", I(1), NULL);
		feed(SA_EV_mutex_released, t + 3, 1, 1, "obj", I(a), "caller", I(0x501),
		     "waiters", I(-1), "woken", I(-1), "acquisitions", I(0), "hold_ns", I(3), NULL);
	}
}

/* The lock-order check at its edge limit says it is incomplete. */
static void lockorder_incomplete(void)
{
	struct sa_checks *c = sa_checks_attach(m);
	CHECK(c);
	START(1, 1, 2);
	nested_pairs(c, 0, SA_CHK_MAX_EDGES);
	sa_checks_finish(c, m);
	CHECK_EQ(c->nedges, SA_CHK_MAX_EDGES);
	CHECK_EQ(c->lockorder_incomplete, 0);
	nested_pairs(c, SA_CHK_MAX_EDGES, 1);
	CHECK_EQ(c->edges_dropped, 1);
	CHECK(c->lockorder_incomplete & SA_CHK_INCOMPLETE_EDGES);
	sa_checks_free(c);
}

/* ---- folding destroyed objects into classes ----------------------------- */

/* One mutex's life: init at `site`, a contended lock by thread 2 (wait
 * 100 ns) held by 1, destroy with `acq` acquisitions. */
static void mutex_life(int64_t ts, uint64_t addr, uint64_t site, int acq)
{
	feed(SA_EV_mutex_init, ts, 1, 1, "obj", I(addr), "caller", I(site), "kind", I(0), NULL);
	feed(SA_EV_mutex_requested, ts + 1, 1, 2, "obj", I(addr), "caller", I(0x500), "owner",
	     I(1), "waiters", I(0), NULL);
	feed(SA_EV_mutex_released, ts + 101, 1, 1, "obj", I(addr), "caller", I(0x600), "waiters",
	     I(1), "woken", I(1), "acquisitions", I(0), NULL);
	feed(SA_EV_mutex_acquired, ts + 101, 1, 2, "obj", I(addr), "caller", I(0x500), "how", I(2),
	     "wait_ns", I(100), "acquisitions", I(0), "contended", I(1), NULL);
	feed(SA_EV_mutex_destroy, ts + 200, 1, 2, "obj", I(addr), "caller", I(site), "result", I(0),
	     "acquisitions", I(acq), "contended", I(1), NULL);
}

static uint32_t count_rows(void)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->nobjs; i++)
		n += m->objs[i].instances > 0;
	return n;
}

struct one_pair {
	unsigned n;
	uint32_t obj;
	uint64_t waits, ns;
};

static void get_pair(void *ctx, uint32_t thread, uint32_t o, enum sa_wait_kind k,
		     const struct sa_wait_stat *s)
{
	struct one_pair *p = ctx;
	(void)thread;
	(void)k;
	p->n++;
	p->obj = o;
	p->waits += s->waits;
	p->ns += s->wait_ns;
}

/* Three mutexes made at one site and destroyed are one class of 3, with
 * their sums; one from another site is its own class; at the process's
 * end an initialised live mutex folds, a static one (no init) stays. */
static void fold_classes(void)
{
	START(1, 1, 1);
	mutex_life(1000, 0x10000, 0x400, 5);
	mutex_life(2000, 0x20000, 0x400, 6);
	mutex_life(3000, 0x10000, 0x400, 7); /* the first's address, reused */
	mutex_life(4000, 0x30000, 0x401, 8);
	CHECK_EQ(count_rows(), 2);
	CHECK_EQ(m->folded, 4);
	CHECK_EQ(sa_model_objects_seen(m), 4); /* the summary's count: not the 2 class slots */
	const struct sa_object *c = obj(1, 0x10000, 0);
	CHECK(c && c == obj(1, 0x20000, 0) && c == obj(1, 0x10000, 1));
	CHECK_EQ(c->instances, 3);
	CHECK(c->is_class && obj(1, 0x30000, 0)->is_class); /* a class of one, too */
	CHECK_EQ(c->caller, 0x400);
	CHECK_EQ(c->type, SA_OBJ_MUTEX);
	CHECK_EQ(c->destroyed, 1);
	CHECK_EQ(sa_mutex_acquisitions(c->ext), 18);
	CHECK_EQ(sa_mutex_acquisitions_known(c->ext), 1);
	CHECK_EQ(sa_mutex_contended(c->ext), 3);
	STAT(sa_object_wait(c, SA_WAIT_MUTEX), 3, 300, 100, 0);
	const struct sa_blame *b;
	CHECK_EQ(sa_object_blame(m, (uint32_t)(c - m->objs), &b), 1);
	CHECK_EQ(b[0].caused_ns, 300);
	CHECK_EQ(b[0].holds, 3);
	CHECK_EQ(obj(1, 0x30000, 0)->instances, 1);
	/* The waiter's pairs moved to the classes: two pairs, 4 waits. */
	struct one_pair p = { 0 };
	sa_model_each_pair(m, get_pair, &p);
	CHECK_EQ(p.n, 2);
	CHECK_EQ(p.waits, 4);
	CHECK_EQ(p.ns, 400);
	CHECK_EQ(thr(1, 2)->top_obj, (uint32_t)(c - m->objs));

	feed(SA_EV_mutex_init, 5000, 1, 1, "obj", I(0x40000), "caller", I(0x402), "kind", I(0), NULL);
	feed(SA_EV_mutex_counters, 5001, 1, 1, "obj", I(0x50000), "acquisitions", I(3),
	     "contended", I(0), NULL);
	feed(SA_EV_meta_stop, 6000, 1, 1, "objects", I(1), NULL);
	const struct sa_object *live = obj(1, 0x40000, 0), *stat = obj(1, 0x50000, 0);
	CHECK(live);
	CHECK_EQ(live->instances, 1);
	CHECK_EQ(live->destroyed, 0);
	CHECK(live->addr == 0x40000 && live->inited);
	CHECK(!stat->inited);
	CHECK_EQ(m->folded, 5);
	CHECK_EQ(sa_mutex_acquisitions(stat->ext), 3);
	CHECK_EQ(count_rows(), 4);
}

/* Bytes allocated (small blocks and mmap'ed ones); the sanitizers'
 * allocator is not glibc's: mallinfo2 knows nothing of it (0). */
#if defined(__SANITIZE_ADDRESS__)
#define SA_MALLINFO 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SA_MALLINFO 0
#endif
#endif
#ifndef SA_MALLINFO
#define SA_MALLINFO 1
#endif
static size_t heap_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
}

/* 100,000 short-lived mutexes (init, a contended lock, destroy) from one
 * site: one class, and the memory per object that stays is its tombstone
 * (identity only), not its state. Prints bytes per object. */
static void fold_memory(void)
{
	enum { N = 100000 };
	START(1, 1, 1);
	size_t before = heap_bytes();
	for (int i = 0; i < N; i++)
		mutex_life(1000 + (int64_t)i * 1000, 0x100000 + (uint64_t)i * 64, 0x400, 2);
	double per = (double)(heap_bytes() - before) / N;
	CHECK_EQ(count_rows(), 1);
	const struct sa_object *c = obj(1, 0x100000, 0);
	CHECK_EQ(c->instances, N);
	CHECK_EQ(sa_mutex_acquisitions(c->ext), 2 * N);
	STAT(sa_object_wait(c, SA_WAIT_MUTEX), N, 100ull * N, 100, 0);
	printf("folded: %.0f bytes per object (sizeof(struct sa_object) %zu)\n", per,
	       sizeof(struct sa_object));
	/* The tombstone (with the array's doubling slack) and its slot in the
	 * object map, no more. */
	CHECK(!SA_MALLINFO || per < 1.5 * sizeof(struct sa_object) + 100);

	/* The same objects kept (by object): what folding saves. */
	sa_model_free(m);
	m = sa_model_new();
	sa_model_keep_objects(m, 1);
	START(1, 1, 1);
	before = heap_bytes();
	for (int i = 0; i < N; i++)
		mutex_life(1000 + (int64_t)i * 1000, 0x100000 + (uint64_t)i * 64, 0x400, 2);
	double kept = (double)(heap_bytes() - before) / N;
	printf("kept: %.0f bytes per object\n", kept);
	CHECK_EQ(count_rows(), N);
	CHECK(!SA_MALLINFO || kept > 4 * per);
}

/* A mapping of one file shared by processes 1 (at 0x7f0000) and 2 (at
 * 0x9f0000), as analysis/symbols reports it. */
static int fake_shared_key(const struct sa_model *mm, unsigned trace, int32_t vpid, uint64_t addr,
			   uint64_t key[3])
{
	(void)mm;
	(void)trace;
	uint64_t base = vpid == 1 ? 0x7f0000 : vpid == 2 ? 0x9f0000 : 0;
	if (!base || addr < base || addr >= base + 0x1000)
		return 0;
	key[0] = 8;
	key[1] = 77;
	key[2] = addr - base;
	return 1;
}

/* A process-shared semaphore posted in one process and waited on in the
 * other is one object, the post linked to the wait. */
static void pshared_sem(void)
{
	m->shared_key = fake_shared_key;
	START(1, 1, 1);
	START(2, 2, 1);
	feed(SA_EV_sem_init, 10, 1, 100, "obj", I(0x7f0010), "caller", I(0x400), "value", I(0),
	     "pshared", I(1), NULL);
	feed(SA_EV_sem_wait_begin, 1000, 2, 200, "obj", I(0x9f0010), "caller", I(0x800), NULL);
	feed(SA_EV_sem_sleep, 1010, 2, 200, "obj", I(0x9f0010), "caller", I(0x800), "nwaiters",
	     I(1), NULL);
	feed(SA_EV_sem_post, 1500, 1, 100, "obj", I(0x7f0010), "caller", I(0x9057), "result", I(0),
	     "value", I(1), "nwaiters", I(1), "woken", I(1), NULL);
	sem_acq(1600, 2, 200, 0x9f0010, 2, 600);
	feed(SA_EV_sem_wait_begin, 2000, 1, 100, "obj", I(0x7f0020), "caller", I(0x800), NULL);
	feed(SA_EV_meta_stop, 3000, 1, 100, "objects", I(0), NULL);
	CHECK_EQ(count_rows(), 2); /* the shared one, and 0x7f0020 (another offset) */
	struct sa_object *o = obj(1, 0x7f0010, 0);
	CHECK(o && o->shared && o->type == SA_OBJ_SEM);
	CHECK_EQ(o->instances, 1); /* its creator's end does not fold it */
	CHECK(!obj(2, 0x9f0010, 0)); /* no object of its own in process 2 */
	uint32_t oi = (uint32_t)(o - m->objs);
	STAT(sa_object_wait(o, SA_WAIT_SEM), 1, 600, 600, 0);
	const struct sa_waker *k = waker_of(oi, tidx(1, 100), 0x9057);
	CHECK(k);
	CHECK_EQ(k->released, 1);
	CHECK_EQ(k->latency_ns, 500);
	CHECK_EQ(((const struct sa_sem *)o->ext)->posts, 1);
	CHECK_EQ(((const struct sa_sem *)o->ext)->acquired, 1);
	CHECK_EQ(thr(2, 200)->top_obj, oi);
}

/* Field ids come from the definitions (sa_fields.h). */
_Static_assert(SA_F_mutex_acquired_how == 2, "mutex:acquired's how is its third field");
_Static_assert(SA_NF_meta_start == 7, "meta:start has 7 fields");
_Static_assert(SA_NF_meta_base == 3, "meta:base has tid, cpu_ns, runq_ns");
_Static_assert(SA_F_meta_start_nonce == 5, "nonce follows the five arguments");

/* Format 2's released carries acq_ts, a time of the event's clock: the
 * model makes the hold of it (the decoder passes the clock's raw value and
 * frequency), whatever the frequency. */
static void released_acq_ts(void)
{
	feed(SA_EV_meta_start, 1, 1, 1, "format_major", I(2), "format_minor", I(0), "level", I(2),
	     "spin_mode", I(1), "spin_limit", I(100), NULL);
	struct sa_event e;
	memset(&e, 0, sizeof(e));
	e.id = SA_EV_mutex_released;
	e.ts = 5000;
	e.vpid = e.vtid = 1;
	sa_ev_set(&e, "obj", MX);
	sa_ev_set(&e, "caller", 0x600);
	sa_ev_set(&e, "woken", -1);
	sa_ev_set(&e, "acq_ts", 1000);
	CHECK_EQ(e.nfields, SA_F_mutex_released_acq_ts + 1);
	CHECK(e.f[SA_F_mutex_released_acq_ts].v == 1000 && e.f[SA_F_mutex_released_obj].v == MX);
	e.cycles = 1500;
	e.freq = 1000000000;
	CHECK_EQ(sa_model_feed(m, &e), 0);
	e.ts = 6000;
	e.cycles = 3000; /* 500 MHz: 1000 cycles are 2000 ns */
	e.freq = 500000000;
	sa_model_feed(m, &e);
	const struct sa_mutex *x = mx(1, MX, 0);
	CHECK_EQ(x->hold.n, 2);
	CHECK_EQ(x->hold.min, 500);
	CHECK_EQ(x->hold.max, 4000);
}

static void relock(int64_t ts, int tid, int64_t ns)
{
	feed(SA_EV_cond_relocked, ts, 1, tid, "cond", I(CV), "mutex", I(MX), "node", I(0xA0 + tid),
	     "contended", I(1), "result", I(0), "relock_ns", I(ns), NULL);
}

/* A condvar waiter's re-acquisition of the mutex is blamed on the hold it
 * waited for: the holder's (whose release event comes after), or the
 * release just before it. */
static void blame_relock(void)
{
	START(1, 1, 1);
	feed(SA_EV_mutex_acquired, 100, 1, 10, "obj", I(MX), "caller", I(0x510), "how", I(1),
	     "wait_ns", I(5), "acquisitions", I(0), "contended", I(0), NULL);
	relock(600, 12, 400);
	feed(SA_EV_mutex_released, 601, 1, 10, "obj", I(MX), "caller", I(0xAAA), "waiters", I(0),
	     "woken", I(1), "acquisitions", I(0), NULL);
	feed(SA_EV_mutex_released, 700, 1, 12, "obj", I(MX), "caller", I(0xBBB), "waiters", I(0),
	     "woken", I(1), "acquisitions", I(0), NULL);
	relock(720, 13, 50);
	uint32_t o = oidx(1, MX);
	const struct sa_blame *a = blame_of(o, tidx(1, 10), 0xAAA), *b = blame_of(o, tidx(1, 12), 0xBBB);
	CHECK(a && b);
	CHECK_EQ(a->caused_ns, 400);
	CHECK_EQ(a->holds, 1);
	CHECK_EQ(b->caused_ns, 50);
	STAT(ledger(1, MX, SA_WAIT_COND_RELOCK), 2, 450, 400, 0);
}

/* A relock that takes the mutex's slow path emits mutex:acquired before
 * cond:relocked: its wait is the condvar's re-acquisition, counted once
 * (cond-relock), not also as a mutex wait. A lock after the relock is a
 * mutex wait again. */
static void relock_counted_once(void)
{
	START(1, 1, 1);
	cond_enq(100, 12, 0xA0, 0);
	cond_woke(600, 12, 0xA0, 0, 500);
	feed(SA_EV_mutex_requested, 601, 1, 12, "obj", I(MX), "caller", I(0x500), "owner", I(10),
	     "waiters", I(0), NULL);
	feed(SA_EV_mutex_acquired, 700, 1, 12, "obj", I(MX), "caller", I(0x500), "how", I(2),
	     "wait_ns", I(99), "acquisitions", I(0), "contended", I(0), NULL);
	feed(SA_EV_cond_relocked, 701, 1, 12, "cond", I(CV), "mutex", I(MX), "node", I(0xA0),
	     "contended", I(1), "result", I(0), "relock_ns", I(100), NULL);
	feed(SA_EV_mutex_released, 800, 1, 12, "obj", I(MX), "caller", I(0x501), "waiters", I(0),
	     "woken", I(-1), "acquisitions", I(0), NULL);
	feed(SA_EV_mutex_requested, 900, 1, 12, "obj", I(MX), "caller", I(0x502), "owner", I(10),
	     "waiters", I(0), NULL);
	feed(SA_EV_mutex_acquired, 950, 1, 12, "obj", I(MX), "caller", I(0x502), "how", I(2),
	     "wait_ns", I(50), "acquisitions", I(0), "contended", I(0), NULL);
	STAT(ledger(1, MX, SA_WAIT_COND_RELOCK), 1, 100, 100, 0);
	STAT(ledger(1, MX, SA_WAIT_MUTEX), 1, 50, 50, 0);
	const struct sa_thread_waits *w = sa_thread_waits(thr(1, 12));
	CHECK_EQ(w->wait_ns, 650);
	CHECK_EQ(w->kind_ns[SA_WAIT_MUTEX], 50);
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "relock_counted_once", relock_counted_once },
	{ "contended_mutex", contended_mutex },
	{ "thread_before_trace", thread_before_trace },
	{ "first_seen_held", first_seen_held },
	{ "first_seen_held_paired", first_seen_held_paired },
	{ "thread_names", thread_names },
	{ "interleaved_processes", interleaved_processes },
	{ "pid_reuse", pid_reuse },
	{ "tid_reuse", tid_reuse },
	{ "wake_then_block", wake_then_block },
	{ "wakes", wakes },
	{ "wake_then_block_cond", wake_then_block_cond },
	{ "object_reuse", object_reuse },
	{ "newer_format", newer_format },
	{ "malformed", malformed },
	{ "dist", dist },
	{ "cond_race", cond_race },
	{ "streaming", streaming },
	{ "json_envelope", json_envelope },
	{ "other_locks", other_locks },
	{ "discarded", discarded },
	{ "barrier_rounds", barrier_rounds },
	{ "barrier_straggler", barrier_straggler },
	{ "spin_verdicts", spin_verdicts },
	{ "once_runs", once_runs },
	{ "once_text", once_text },
	{ "list_lines", list_lines },
	{ "work_units", work_units },
	{ "work_event_option", work_event_option },
	{ "sem_over_max", sem_over_max },
	{ "meta_repeat_same_nonce", meta_repeat_same_nonce },
	{ "meta_repeat_first_lost", meta_repeat_first_lost },
	{ "meta_new_nonce", meta_new_nonce },
	{ "meta_no_nonce", meta_no_nonce },
	{ "meta_bases", meta_bases },
	{ "ledger_kinds", ledger_kinds },
	{ "cond_timeouts_per_thread", cond_timeouts_per_thread },
	{ "blame_three_waiters", blame_three_waiters },
	{ "blame_hold_full", blame_hold_full },
	{ "blame_release_first", blame_release_first },
	{ "rwlock_blame_holds", rwlock_blame_holds },
	{ "finding_waiter_not_holder", finding_waiter_not_holder },
	{ "wakers_latency", wakers_latency },
	{ "discard_wrap", discard_wrap },
	{ "mutex_count_unknown", mutex_count_unknown },
	{ "lockorder_incomplete", lockorder_incomplete },
	{ "fold_classes", fold_classes },
	{ "fold_memory", fold_memory },
	{ "pshared_sem", pshared_sem },
	{ "released_acq_ts", released_acq_ts },
	{ "blame_relock", blame_relock },
	{ "spins_folded", spins_folded },
};

int main(int argc, char **argv)
{
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (argc > 1 && strcmp(argv[1], cases[i].name))
			continue;
		m = sa_model_new();
		CHECK(m);
		cases[i].fn();
		sa_model_free(m);
		if (argc > 1)
			return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "no case %s\n", argv[1]);
		return 2;
	}
	return 0;
}
