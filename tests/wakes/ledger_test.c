/* The wake-outcome ledger on synthetic event sequences: exact numbers.
 * usage: test_wakes_ledger CASE   (one process per case, see CMakeLists) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cases.h"
#include "check.h"
#include "sa_model.h"
#include "sa_report.h"

static struct sa_model *m;

static void drop_model(void)
{
	sa_model_free(m);
	m = NULL;
}

/* Each case on a model of its own (cases may run one after the other). */
static void fresh_model(void)
{
	if (!m)
		atexit(drop_model);
	sa_model_free(m);
	CHECK((m = sa_model_new()));
}

#include "sa_feed.h"
#define feed(...) sa_test_feed(m, __VA_ARGS__)
#define START(ts, pid) \
	(fresh_model(), \
	 feed(SA_EV_meta_start, ts, pid, pid, "format_major", I(2), "format_minor", I(3), \
	      "level", I(1), "spin_mode", I(1), "spin_limit", I(100), NULL))

#define MX 0x1000
#define CV 0x3000
#define SEM 0x5000
#define UNLOCK_SITE 0x601
#define BCAST_SITE 0x701
#define SIGNAL_SITE 0x702
#define POST_SITE 0x801

static uint32_t oidx(uint64_t addr)
{
	for (uint32_t i = 0; i < m->nobjs; i++)
		if (m->objs[i].addr == addr && m->objs[i].instances == 1)
			return sa_model_row(m, i);
	CHECK(!"no such object");
	return 0;
}

/* The entry of object addr for the call named ev (broadcast) at site. */
static const struct sa_wl_counts *entry(uint64_t addr, enum sa_event_id ev, int bc, uint64_t site)
{
	const struct sa_wl_entry *e;
	unsigned n = sa_wl_entries(m, oidx(addr), &e);
	for (unsigned i = 0; i < n; i++)
		if (e[i].ev == ev && e[i].broadcast == bc && e[i].site == site)
			return &e[i].c;
	fprintf(stderr, "no entry %s/%d/%llx on %llx (%u entries)\n", sa_event_name(ev), bc,
		(unsigned long long)site, (unsigned long long)addr, n);
	CHECK(0);
	return NULL;
}

/* Waking calls over every object. */
static uint64_t total_calls(void)
{
	struct sa_wl_counts t;
	sa_wl_totals(m, UINT32_MAX, &t);
	return t.calls;
}

/* A futex wait that returned at ts, asleep since `since`. */
static void fwait_since(int64_t ts, int64_t since, int tid, uint64_t o, int result)
{
	feed(SA_EV_futex_wait, ts, 1, tid, "obj", I(o), "uaddr", I(o), "expected", I(0),
	     "result", I(result), "slept_ns", I(ts - since), NULL);
}

/* ... asleep since the start (before any wake of the case). */
static void fwait(int64_t ts, int tid, uint64_t o, int result)
{
	fwait_since(ts, 1, tid, o, result);
}

static void fwake(int64_t ts, int tid, uint64_t o, int req, int woken)
{
	feed(SA_EV_futex_wake, ts, 1, tid, "obj", I(o), "uaddr", I(o), "requested", I(req),
	     "woken", I(woken), NULL);
}

static void released(int64_t ts, int tid, int woken)
{
	feed(SA_EV_mutex_released, ts, 1, tid, "obj", I(MX), "caller", I(UNLOCK_SITE),
	     "waiters", I(1), "woken", I(woken), "acquisitions", I(0), NULL);
}

static void acquired(int64_t ts, int tid)
{
	feed(SA_EV_mutex_acquired, ts, 1, tid, "obj", I(MX), "caller", I(0x500), "how", I(2),
	     "spins", I(0), "sleeps", I(1), "wait_ns", I(100), "acquisitions", I(0),
	     "contended", I(0), NULL);
}

static void requested(int64_t ts, int tid)
{
	feed(SA_EV_mutex_requested, ts, 1, tid, "obj", I(MX), "caller", I(0x500), "owner", I(1),
	     "waiters", I(0), NULL);
}

/* Unlocks that woke nobody, one that woke a thread that won after 30 ns of
 * scheduler delay and 5 of re-acquisition, one whose woken thread lost to a
 * barger and slept again. */
static void mutex_outcomes(void)
{
	START(1, 1);
	requested(5, 2);
	for (int i = 0; i < 3; i++) {
		fwake(10 + i * 2, 1, MX, 1, 0);
		released(11 + i * 2, 1, 0);
	}
	fwake(100, 1, MX, 1, 1);
	released(101, 1, 1);
	fwait(130, 2, MX, 0); /* woken: ran 30 ns after the wake */
	acquired(135, 2);     /* won */
	requested(200, 3);
	fwake(300, 2, MX, 1, 1);
	released(301, 2, 1);
	fwait(310, 3, MX, 0); /* woken ... */
	fwait(400, 3, MX, 0); /* ... slept on it again: lost; woken again */
	fwake(399, 1, MX, 1, 1); /* (its waker's event stamped after: matched all the same) */
	released(402, 1, 1);
	acquired(410, 3);
	const struct sa_wl_counts *c = entry(MX, SA_EV_mutex_released, 0, UNLOCK_SITE);
	CHECK_EQ(c->calls, 6);
	CHECK_EQ(c->nobody, 3);
	CHECK_EQ(c->woken, 3);
	CHECK_EQ(c->out[SA_WL_WON], 2);
	CHECK_EQ(c->out[SA_WL_LOST], 1);
	CHECK_EQ(c->sched_n, 3);
	CHECK_EQ(c->sched_ns, 30 + 10 + 1);
	CHECK_EQ(c->reacq_n, 2);
	CHECK_EQ(c->reacq_ns, 5 + 10);
	CHECK_EQ(total_calls(), 6);
}

/* A woken thread that ran, and got past, before its waker's wake event. */
static void return_before_wake(void)
{
	START(1, 1);
	requested(5, 2);
	fwait(20, 2, MX, 0);
	acquired(21, 2);
	fwake(22, 1, MX, 1, 1);
	released(23, 1, 1);
	const struct sa_wl_counts *c = entry(MX, SA_EV_mutex_released, 0, UNLOCK_SITE);
	CHECK_EQ(c->calls, 1);
	CHECK_EQ(c->woken, 1);
	CHECK_EQ(c->out[SA_WL_WON], 1);
	CHECK_EQ(c->sched_ns, 0); /* ran before the wake's event: 0, not negative */
	CHECK_EQ(c->reacq_ns, 1);
}

static void enqueue(int64_t ts, int tid, int64_t acq)
{
	feed(SA_EV_cond_enqueued, ts, 1, tid, "cond", I(CV), "caller", I(0x900), "mutex", I(MX),
	     "node", I(0xA0 + tid), "clock", I(0), "timed", I(0), "abs_sec", I(0), "abs_nsec", I(0),
	     "queued", I(1), "mutex_acq", I(acq), NULL);
}

static void woke(int64_t ts, int tid, int how)
{
	feed(SA_EV_cond_woke, ts, 1, tid, "cond", I(CV), "node", I(0xA0 + tid), "how", I(how),
	     "spurious", I(0), "wait_ns", I(10), NULL);
}

static void relocked(int64_t ts, int tid, int64_t acq)
{
	feed(SA_EV_cond_relocked, ts, 1, tid, "cond", I(CV), "mutex", I(MX), "node", I(0xA0 + tid),
	     "contended", I(0), "result", I(0), "relock_ns", I(5), "mutex_acq", I(acq), NULL);
}

static void signaled(int64_t ts, int tid, int wtid, int order, uint64_t site)
{
	feed(SA_EV_cond_signaled, ts, 1, tid, "cond", I(CV), "caller", I(site), "node",
	     I(0xA0 + wtid), "order", I(order), NULL);
}

static void signal(int64_t ts, int tid, int bc, int moved, int leaving, int first, uint64_t site)
{
	feed(SA_EV_cond_signal, ts, 1, tid, "cond", I(CV), "caller", I(site), "broadcast", I(bc),
	     "moved", I(moved), "leaving", I(leaving), "first", I(first ? 0xA0 + first : 0),
	     "first_how", I(first ? 0 : -1), NULL);
}

/* Thread 1 signals (bc: broadcasts) and takes waiter w alone: its
 * signaled at ts, its signal at ts + 1. */
static void signal_one(int64_t ts, int w, int bc, uint64_t site)
{
	signaled(ts, 1, w, 0, site);
	signal(ts + 1, 1, bc, 1, 0, w, site);
}

/* R broadcasts each signal 4 waiters (threads 2..5); thread 2 + r % 4 takes
 * the token, the other three re-check and wait again holding the mutex
 * (their enqueue shows the counter of their relock). */
static void broadcast_futile(void)
{
	enum { R = 5 };
	START(1, 1);
	int64_t ts = 10, acq = 1;
	for (int w = 2; w <= 5; w++)
		enqueue(ts++, w, acq++);
	for (int r = 0; r < R; r++) {
		for (int w = 2; w <= 5; w++)
			signaled(ts++, 1, w, w - 2, BCAST_SITE);
		signal(ts++, 1, 1, 4, 0, 2, BCAST_SITE);
		for (int w = 2; w <= 5; w++) {
			woke(ts++, w, 0);
			relocked(ts++, w, ++acq);
			if (w != 2 + r % 4) {
				enqueue(ts++, w, acq); /* predicate false: wait again */
			} else {
				acq++; /* it released the mutex and took it again */
				enqueue(ts++, w, acq);
			}
		}
	}
	const struct sa_wl_counts *c = entry(CV, SA_EV_cond_signal, 1, BCAST_SITE);
	CHECK_EQ(c->calls, R);
	CHECK_EQ(c->woken, 4 * R);
	CHECK_EQ(c->out[SA_WL_WON], R);
	CHECK_EQ(c->out[SA_WL_FUTILE], 3 * R);
	CHECK_EQ(c->multi, R);
	CHECK_EQ(c->fan_max, 4);
	CHECK_EQ(c->reacq_n, 4 * R);
}

/* A waiter's enqueued record is written after its mutex's release, so a
 * broadcaster that takes the mutex at once can stamp its signaled first
 * (seen on a loaded machine: tests/wakes broadcast_futile.traced counted
 * 16-17 futile wakes of 18). The second wait's enqueued comes after its
 * signal: that signal still takes it (won, then futile for the first). */
static void signaled_before_enqueued(void)
{
	START(1, 1);
	enqueue(10, 2, 1);
	signal_one(11, 2, 1, BCAST_SITE);
	woke(13, 2, 0);
	relocked(14, 2, 2);
	signal_one(15, 2, 1, BCAST_SITE); /* before the record of the wait it takes */
	enqueue(17, 2, 2); /* never released the mutex: the first wake was futile */
	woke(18, 2, 0);
	relocked(19, 2, 3);
	enqueue(20, 2, 4); /* released and re-took it: the second won */
	const struct sa_wl_counts *c = entry(CV, SA_EV_cond_signal, 1, BCAST_SITE);
	CHECK_EQ(c->calls, 2);
	CHECK_EQ(c->woken, 2);
	CHECK_EQ(c->out[SA_WL_FUTILE], 1);
	CHECK_EQ(c->out[SA_WL_WON], 1);
	CHECK_EQ(c->reacq_n, 2);
}

/* A signal meets a waiter that timed out (LEAVING) and goes to the next
 * one; a second meets only a leaving waiter: lost. */
static void signal_meets_leaving(void)
{
	START(1, 1);
	enqueue(10, 2, 1);
	enqueue(11, 3, 2);
	feed(SA_EV_cond_leaving, 20, 1, 2, "cond", I(CV), "node", I(0xA2), "reason", I(1), NULL);
	feed(SA_EV_cond_met_leaving, 21, 1, 1, "cond", I(CV), "caller", I(SIGNAL_SITE), "node",
	     I(0xA2), "refs", I(1), NULL);
	signaled(22, 1, 3, 0, SIGNAL_SITE);
	woke(23, 2, 1);
	signal(24, 1, 0, 1, 1, 3, SIGNAL_SITE);
	woke(25, 3, 0);
	relocked(26, 3, 3);
	enqueue(30, 4, 4);
	feed(SA_EV_cond_leaving, 31, 1, 4, "cond", I(CV), "node", I(0xA4), "reason", I(2), NULL);
	feed(SA_EV_cond_met_leaving, 32, 1, 1, "cond", I(CV), "caller", I(SIGNAL_SITE), "node",
	     I(0xA4), "refs", I(1), NULL);
	woke(33, 4, 2);
	signal(34, 1, 0, 0, 1, 0, SIGNAL_SITE);
	const struct sa_wl_counts *c = entry(CV, SA_EV_cond_signal, 0, SIGNAL_SITE);
	CHECK_EQ(c->calls, 2);
	CHECK_EQ(c->woken, 1);
	CHECK_EQ(c->nobody, 1);
	CHECK_EQ(c->met_leaving, 2);
	CHECK_EQ(c->went_on, 1);
	CHECK_EQ(c->out[SA_WL_WON], 1);
	CHECK_EQ(c->multi, 0);
}

/* A waiter cancelled holding its signal passes it on. */
static void passed_on(void)
{
	START(1, 1);
	enqueue(10, 2, 1);
	signal_one(11, 2, 0, SIGNAL_SITE);
	woke(13, 2, 3);
	const struct sa_wl_counts *c = entry(CV, SA_EV_cond_signal, 0, SIGNAL_SITE);
	CHECK_EQ(c->woken, 1);
	CHECK_EQ(c->out[SA_WL_PASSED_ON], 1);
	CHECK_EQ(c->out[SA_WL_WON], 0);
}

/* A broadcast's second waiter is requeued onto the mutex by the first's
 * hand-off; the first's unlock wakes it: it is the mutex wake's woken
 * (won at relocked), and its scheduler delay counts from that wake. */
static void requeued_waiter(void)
{
	START(1, 1);
	enqueue(10, 2, 1);
	enqueue(11, 3, 2);
	signaled(20, 1, 2, 0, BCAST_SITE);
	signaled(21, 1, 3, 1, BCAST_SITE);
	signal(22, 1, 1, 2, 0, 2, BCAST_SITE);
	fwait(30, 2, CV, 0);
	woke(31, 2, 0);
	relocked(40, 2, 3);
	feed(SA_EV_cond_handoff, 41, 1, 2, "cond", I(CV), "from", I(0xA2), "to", I(0xA3), "how",
	     I(ST_COND_RELEASE_REQUEUED), "result", I(1), NULL);
	fwake(50, 2, MX, 1, 1);
	released(51, 2, 1);
	fwait(60, 3, CV, 0); /* the requeued one runs: the mutex woke it */
	woke(61, 3, 0);
	relocked(62, 3, 4);
	const struct sa_wl_counts *u = entry(MX, SA_EV_mutex_released, 0, UNLOCK_SITE);
	CHECK_EQ(u->woken, 1);
	CHECK_EQ(u->out[SA_WL_WON], 1);
	const struct sa_wl_counts *b = entry(CV, SA_EV_cond_signal, 1, BCAST_SITE);
	CHECK_EQ(b->woken, 2);
	CHECK_EQ(b->out[SA_WL_WON], 2);
	/* first: released at 22, ran at 30, relocked at 40; second: released
	 * at 41, the mutex woke it at 50, ran at 60, relocked at 62 */
	CHECK_EQ(b->sched_ns, 8 + 10);
	CHECK_EQ(b->reacq_ns, 10 + (21 - 10));
}

/* sem_post's wake, named by the post that follows it. */
static void sem_post_named(void)
{
	START(1, 1);
	feed(SA_EV_sem_wait_begin, 5, 1, 2, "obj", I(SEM), "caller", I(0x950), "value", I(0),
	     "nwaiters", I(0), NULL);
	feed(SA_EV_sem_sleep, 6, 1, 2, "obj", I(SEM), "caller", I(0x950), "nwaiters", I(1), NULL);
	fwake(10, 1, SEM, 1, 1);
	feed(SA_EV_sem_post, 11, 1, 1, "obj", I(SEM), "caller", I(POST_SITE), "result", I(0),
	     "value", I(1), "nwaiters", I(1), "woken", I(1), NULL);
	fwait(12, 2, SEM, 0);
	feed(SA_EV_sem_acquired, 13, 1, 2, "obj", I(SEM), "caller", I(0x950), "how", I(2),
	     "spins", I(0), "sleeps", I(1), "wait_ns", I(8), NULL);
	const struct sa_wl_counts *c = entry(SEM, SA_EV_sem_post, 0, POST_SITE);
	CHECK_EQ(c->calls, 1);
	CHECK_EQ(c->out[SA_WL_WON], 1);
	/* a wake nothing names: futex:wake, site 0 */
	fwake(20, 1, SEM, 1, 0);
	feed(SA_EV_thread_exit, 21, 1, 1, NULL);
	CHECK_EQ(entry(SEM, SA_EV_futex_wake, 0, 0)->nobody, 1);
}

/* A wake whose waker's next event never comes (the trace ends): counted,
 * as futex:wake from site 0; a named one leaves that entry empty. */
static void trace_ends_after_wake(void)
{
	START(1, 1);
	requested(5, 2);
	fwake(10, 1, MX, 1, 1);
	CHECK_EQ(entry(MX, SA_EV_futex_wake, 0, 0)->calls, 1);
	released(11, 1, 1);
	CHECK_EQ(entry(MX, SA_EV_futex_wake, 0, 0)->calls, 0);
	CHECK_EQ(entry(MX, SA_EV_mutex_released, 0, UNLOCK_SITE)->woken, 1);
	fwake(20, 1, MX, 1, 0);
	CHECK_EQ(entry(MX, SA_EV_futex_wake, 0, 0)->nobody, 1);
	CHECK_EQ(total_calls(), 2);
}

/* Woken, then it timed out without the lock: no outcome (undecided), also
 * when its return came before its wake's event. */
static void woken_then_timed_out(void)
{
	START(1, 1);
	requested(5, 2);
	fwait(10, 2, MX, 0);
	feed(SA_EV_mutex_timeout, 11, 1, 2, "obj", I(MX), "caller", I(0x500), "sleeps", I(1),
	     "wait_ns", I(6), NULL);
	fwake(12, 1, MX, 1, 1);
	released(13, 1, 1);
	requested(20, 3);
	fwake(21, 1, MX, 1, 1);
	released(22, 1, 1);
	fwait(23, 3, MX, 0);
	feed(SA_EV_mutex_timeout, 24, 1, 3, "obj", I(MX), "caller", I(0x500), "sleeps", I(1),
	     "wait_ns", I(4), NULL);
	acquired(30, 3); /* a later acquisition is not this wake's */
	const struct sa_wl_counts *c = entry(MX, SA_EV_mutex_released, 0, UNLOCK_SITE);
	CHECK_EQ(c->woken, 2);
	CHECK_EQ(c->out[SA_WL_WON], 0);
	CHECK_EQ(c->out[SA_WL_LOST], 0);
	CHECK_EQ(c->sched_n, 2);
}

/* A wake whose woken thread's return was never seen leaves a credit; a
 * thread that went to sleep after that wake's event cannot be its woken
 * one: the credit is dropped, and the next wake is the one. */
static void stale_credit(void)
{
	START(1, 1);
	requested(5, 2);
	fwake(10, 1, MX, 1, 1); /* woke someone whose return is not in the trace */
	released(11, 1, 1);
	fwait_since(60, 50, 2, MX, 0);
	fwake(58, 1, MX, 1, 1); /* (stamped after the return: fed after it) */
	released(61, 1, 1);
	acquired(62, 2);
	const struct sa_wl_counts *c = entry(MX, SA_EV_mutex_released, 0, UNLOCK_SITE);
	CHECK_EQ(c->woken, 2);
	CHECK_EQ(c->out[SA_WL_WON], 1);
	CHECK_EQ(c->sched_n, 1);
	CHECK_EQ(c->sched_ns, 2);
}

/* The findings say the worst site of each waste, most wasted first: 6
 * woken threads that lost (slept again) beat 4 wakes that woke nobody; 3
 * futile are too few to say. */
static void findings_verdicts(void)
{
	START(1, 1);
	int64_t ts = 10;
	requested(ts++, 2);
	for (int i = 0; i < 6; i++) {
		fwake(ts++, 1, MX, 1, 1);
		released(ts++, 1, 1);
		fwait(ts++, 2, MX, 0);
	}
	fwait(ts++, 2, MX, 110);
	for (int i = 0; i < 4; i++) {
		fwake(ts++, 1, MX, 1, 0);
		released(ts++, 1, 0);
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sa_report_opts o = { .format = SA_FMT_JSON };
	sa_report_render(m, &o, f);
	fclose(f);
	char *lost = strstr(buf, "\"verdict\": \"lost\""), *nobody = strstr(buf, "\"verdict\": \"woke_nobody\"");
	CHECK(lost && nobody && lost < nobody);
	CHECK(!strstr(buf, "\"verdict\": \"futile\""));
	CHECK(strstr(buf, "6 of 6 threads woken by mutex:released"));
	free(buf);
}

static const struct st_case st_cases[] = {
	ST_CASE(mutex_outcomes),
	ST_CASE(return_before_wake),
	ST_CASE(broadcast_futile),
	ST_CASE(signaled_before_enqueued),
	ST_CASE(signal_meets_leaving),
	ST_CASE(passed_on),
	ST_CASE(requeued_waiter),
	ST_CASE(sem_post_named),
	ST_CASE(trace_ends_after_wake),
	ST_CASE(findings_verdicts),
	ST_CASE(woken_then_timed_out),
	ST_CASE(stale_credit),
};

ST_MAIN()
