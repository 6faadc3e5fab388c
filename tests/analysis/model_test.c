/* The model and reports on synthetic event sequences: exact numbers.
 * usage: test_analysis_model CASE   (one process per case, see CMakeLists) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sa_cond.h"
#include "sa_model.h"
#include "sa_mutex.h"
#include "sa_report.h"

static struct sa_model *m;

/* An event: id, time, pid, tid, then name/value pairs ended by NULL. */
static int feed(enum sa_event_id id, int64_t ts, int pid, int tid, ...)
{
	struct sa_event e;
	va_list ap;
	memset(&e, 0, sizeof(e));
	e.id = id;
	e.ts = ts;
	e.vpid = pid;
	e.vtid = tid;
	e.procname = "prog";
	va_start(ap, tid);
	for (const char *n; (n = va_arg(ap, const char *));)
		sa_ev_set(&e, n, va_arg(ap, int64_t));
	va_end(ap);
	return sa_model_feed(m, &e);
}

#define I(v) ((int64_t)(v))
#define START(ts, pid, level) \
	feed(SA_EV_meta_start, ts, pid, pid, "format_major", I(1), "format_minor", I(0), \
	     "level", I(level), "spin_mode", I(1), "spin_limit", I(100), NULL)

static struct sa_object *obj(int pid, uint64_t addr, uint32_t inst)
{
	for (uint32_t i = 0; i < m->nobjs; i++)
		if (m->procs[m->objs[i].proc].vpid == pid && m->objs[i].addr == addr &&
		    m->objs[i].instance == inst)
			return &m->objs[i];
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
	CHECK_EQ(x->how[SA_HOW_SLEEP], 1);
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
	CHECK_EQ(x->how[SA_HOW_SPIN], 1);
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
	/* wakes, woke nobody, wasted%, woken, sleeps, ret woken, wake→block, spurious */
	CHECK(strstr(buf, "\n6,3,0.500000,7,2,2,0,1,2,0,20\n"));
	free(buf);
}

/* destroy then init at the same address: a second instance. */
static void object_reuse(void)
{
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
	CHECK_EQ(c->woke[SA_WOKE_TIMEDOUT], 1);
	CHECK_EQ(c->signals, 1);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sa_report_opts opt = { .format = SA_FMT_TEXT };
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
	CHECK(!strncmp(buf, "{\"schema\": \"synctrace-report\", \"version\": \"1.0\"", 47));
	CHECK(strstr(buf, "\"partial\": false"));
	CHECK(strstr(buf, "\"name\": \"contention.locks\""));
	CHECK(strstr(buf, "\"acquisitions\": 7, \"contended\": 1, \"contended_share\": 0.142857"));
	free(buf);
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
	CHECK(strstr(buf, "\n1,sem,1,prog,0x1000,0,0x1,1,1,1.000000,0,1,1,0,2000,"));
	CHECK(strstr(buf, "\n2,spinlock,1,prog,0x4000,0,0x1,1,1,1.000000,1,0,0,0,90,"));
	CHECK(strstr(buf, "\n3,rwlock,1,prog,0x2000,0,0x1,2,2,1.000000,1,1,0,0,70,"));
	free(buf);
	/* Thread 2 waited 2000 + 500 (timeout) + 30. */
	CHECK_EQ(m->threads[1].wait_ns, 2530);
	CHECK_EQ(m->threads[1].timeouts, 1);
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

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
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
