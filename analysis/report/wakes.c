/* Wakes: futex wakes issued and wasted, wake-then-block, spurious wakeups,
 * broadcast herd sizes; per object and in total. The wake-outcome ledger
 * (sa_wake_ledger.h, doc/wakes.md): per object or class, and per waking
 * call site, what became of the threads each call woke. */
#include <stdlib.h>

#include "sa_report_util.h"
#include "sa_symbols.h"

enum {
	W_ID, W_FUTEX_WAKES = W_ID + SA_ID_N, W_WASTED_WAKES, W_WASTED_SHARE, W_THREADS_WOKEN,
	W_FUTEX_WAITS, W_RETURNED_WOKEN, W_RETURNED_EAGAIN, W_RETURNED_TIMEDOUT, W_RETURNED_EINTR,
	W_WAKE_THEN_BLOCK, W_SPURIOUS, W_BROADCASTS, W_HERD_MEAN, W_HERD_MAX, W_REQUEUES,
	W_REQUEUED, W_SLEPT_NS, W_HERD_LOG2_HIST, W_N
};
static const struct sa_col obj_cols[W_N] = {
	SA_ID_COLS(W_ID),
	[W_FUTEX_WAKES] = { "futex_wakes", "wakes", SA_COL_U64, 0, 0 },
	[W_WASTED_WAKES] = { "wasted_wakes", "woke nobody", SA_COL_U64, 0, 0 },
	[W_WASTED_SHARE] = { "wasted_share", "wasted%", SA_COL_PCT, SA_COL_WIDE, 0 },
	[W_THREADS_WOKEN] = { "threads_woken", "woken", SA_COL_U64, 0, 0 },
	[W_FUTEX_WAITS] = { "futex_waits", "sleeps", SA_COL_U64, SA_COL_WIDE, 0 },
	[W_RETURNED_WOKEN] = { "returned_woken", "ret woken", SA_COL_U64, SA_COL_WIDE, 0 },
	[W_RETURNED_EAGAIN] = { "returned_eagain", "ret EAGAIN", SA_COL_U64, SA_COL_WIDE, 0 },
	[W_RETURNED_TIMEDOUT] = { "returned_timedout", "ret TIMEDOUT", SA_COL_U64, 0, 0 },
	[W_RETURNED_EINTR] = { "returned_eintr", "ret EINTR", SA_COL_U64, SA_COL_WIDE, 0 },
	[W_WAKE_THEN_BLOCK] = { "wake_then_block", "wake→block", SA_COL_U64, 0, 0 },
	[W_SPURIOUS] = { "spurious", "spurious", SA_COL_U64, SA_COL_WIDE, 0 },
	[W_BROADCASTS] = { "broadcasts", "multi wakes", SA_COL_U64, SA_COL_WIDE, 0 },
	[W_HERD_MEAN] = { "herd_mean", "herd mean", SA_COL_F64, SA_COL_WIDE, 0 },
	[W_HERD_MAX] = { "herd_max", "herd max", SA_COL_U64, SA_COL_WIDE, 0 },
	[W_REQUEUES] = { "requeues", "requeues", SA_COL_U64, SA_COL_WIDE, 0 },
	[W_REQUEUED] = { "requeued", "requeued", SA_COL_U64, SA_COL_WIDE, 0 },
	[W_SLEPT_NS] = { "slept_ns", "slept", SA_COL_NS, 0, 0 },
	[W_HERD_LOG2_HIST] = { "herd_log2_hist", "herd log2 histogram", SA_COL_HIST, SA_COL_WIDE, 0 },
};

enum {
	WT_FUTEX_WAKES, WT_WASTED_WAKES, WT_WASTED_SHARE, WT_THREADS_WOKEN, WT_FUTEX_WAITS,
	WT_RETURNED_WOKEN, WT_WAKE_THEN_BLOCK, WT_SPURIOUS, WT_BROADCASTS, WT_REQUEUES,
	WT_SLEPT_NS, WT_WAKE_CALLS, WT_WOKEN, WT_WON, WT_LOST, WT_FUTILE, WT_MET_LEAVING, WT_N
};
static const struct sa_col total_cols[WT_N] = {
	[WT_FUTEX_WAKES] = { "futex_wakes", "wakes", SA_COL_U64, 0, 0 },
	[WT_WASTED_WAKES] = { "wasted_wakes", "woke nobody", SA_COL_U64, 0, 0 },
	[WT_WASTED_SHARE] = { "wasted_share", "wasted%", SA_COL_PCT, 0, 0 },
	[WT_THREADS_WOKEN] = { "threads_woken", "woken", SA_COL_U64, 0, 0 },
	[WT_FUTEX_WAITS] = { "futex_waits", "sleeps", SA_COL_U64, 0, 0 },
	[WT_RETURNED_WOKEN] = { "returned_woken", "ret woken", SA_COL_U64, 0, 0 },
	[WT_WAKE_THEN_BLOCK] = { "wake_then_block", "wake→block", SA_COL_U64, 0, 0 },
	[WT_SPURIOUS] = { "spurious", "spurious", SA_COL_U64, 0, 0 },
	[WT_BROADCASTS] = { "broadcasts", "multi wakes", SA_COL_U64, 0, 0 },
	[WT_REQUEUES] = { "requeues", "requeues", SA_COL_U64, 0, 0 },
	[WT_SLEPT_NS] = { "slept_ns", "slept", SA_COL_NS, 0, 0 },
	/* the wake-outcome ledger's totals (wakes.outcomes) */
	[WT_WAKE_CALLS] = { "wake_calls", "calls", SA_COL_U64, 0, 0 },
	[WT_WOKEN] = { "woken", "woken", SA_COL_U64, 0, 0 },
	[WT_WON] = { "won", "won", SA_COL_U64, 0, 0 },
	[WT_LOST] = { "lost", "lost, slept", SA_COL_U64, 0, 0 },
	[WT_FUTILE] = { "futile", "futile", SA_COL_U64, 0, 0 },
	[WT_MET_LEAVING] = { "met_leaving", "met leaving", SA_COL_U64, 0, 0 },
};

/* Wakeups per unit of work (synctrace_work:done, or --work-event): per
 * process, and per thread of those processes. */
enum {
	WK_VPID, WK_PROCNAME, WK_UNIT, WK_UNIT_EVENTS, WK_UNITS, WK_FUTEX_WAKES, WK_THREADS_WOKEN,
	WK_WASTED_WAKES, WK_COND_WAKEUPS, WK_SEM_WAKEUPS, WK_FUTEX_WAKES_PER_UNIT,
	WK_THREADS_WOKEN_PER_UNIT, WK_WASTED_WAKES_PER_UNIT, WK_COND_WAKEUPS_PER_UNIT,
	WK_SEM_WAKEUPS_PER_UNIT, WK_N
};
static const struct sa_col work_cols[WK_N] = {
	[WK_VPID] = { "vpid", "pid", SA_COL_I64, 0, 0 },
	[WK_PROCNAME] = { "procname", "process", SA_COL_STR, 0, 0 },
	[WK_UNIT] = { "unit", "unit", SA_COL_STR, 0, 0 },
	[WK_UNIT_EVENTS] = { "unit_events", "events", SA_COL_U64, 0, 0 },
	[WK_UNITS] = { "units", "units", SA_COL_U64, 0, 0 },
	[WK_FUTEX_WAKES] = { "futex_wakes", "wakes", SA_COL_U64, 0, 0 },
	[WK_THREADS_WOKEN] = { "threads_woken", "woken", SA_COL_U64, 0, 0 },
	[WK_WASTED_WAKES] = { "wasted_wakes", "woke nobody", SA_COL_U64, 0, 0 },
	[WK_COND_WAKEUPS] = { "cond_wakeups", "cond wakeups", SA_COL_U64, 0, 0 },
	[WK_SEM_WAKEUPS] = { "sem_wakeups", "sem wakeups", SA_COL_U64, 0, 0 },
	[WK_FUTEX_WAKES_PER_UNIT] = { "futex_wakes_per_unit", "wakes/unit", SA_COL_F64, 0, 0 },
	[WK_THREADS_WOKEN_PER_UNIT] = { "threads_woken_per_unit", "woken/unit", SA_COL_F64, 0, 0 },
	[WK_WASTED_WAKES_PER_UNIT] = { "wasted_wakes_per_unit", "nobody/unit", SA_COL_F64, 0, 0 },
	[WK_COND_WAKEUPS_PER_UNIT] = { "cond_wakeups_per_unit", "cond/unit", SA_COL_F64, 0, 0 },
	[WK_SEM_WAKEUPS_PER_UNIT] = { "sem_wakeups_per_unit", "sem/unit", SA_COL_F64, 0, 0 },
};

enum {
	WKT_VPID, WKT_VTID, WKT_NAME, WKT_UNITS, WKT_WOKEN, WKT_WOKEN_PER_UNIT, WKT_FUTEX_WAKES,
	WKT_THREADS_WOKEN, WKT_WASTED_WAKES, WKT_COND_WAKEUPS, WKT_SEM_WAKEUPS,
	WKT_THREADS_WOKEN_PER_UNIT, WKT_N
};
static const struct sa_col work_thread_cols[WKT_N] = {
	[WKT_VPID] = { "vpid", "pid", SA_COL_I64, 0, 0 },
	[WKT_VTID] = { "vtid", "tid", SA_COL_I64, 0, 0 },
	[WKT_NAME] = { "name", "name", SA_COL_STR, 0, 0 },
	[WKT_UNITS] = { "units", "units", SA_COL_U64, 0, 0 },
	[WKT_WOKEN] = { "woken", "was woken", SA_COL_U64, 0, 0 },
	[WKT_WOKEN_PER_UNIT] = { "woken_per_unit", "was woken/unit", SA_COL_F64, 0, 0 },
	[WKT_FUTEX_WAKES] = { "futex_wakes", "wakes", SA_COL_U64, 0, 0 },
	[WKT_THREADS_WOKEN] = { "threads_woken", "woke", SA_COL_U64, 0, 0 },
	[WKT_WASTED_WAKES] = { "wasted_wakes", "woke nobody", SA_COL_U64, 0, 0 },
	[WKT_COND_WAKEUPS] = { "cond_wakeups", "cond wakeups", SA_COL_U64, 0, 0 },
	[WKT_SEM_WAKEUPS] = { "sem_wakeups", "sem wakeups", SA_COL_U64, 0, 0 },
	[WKT_THREADS_WOKEN_PER_UNIT] = { "threads_woken_per_unit", "woke/unit", SA_COL_F64, 0, 0 },
};

static void per_unit(struct sa_cell *c, uint64_t v, uint64_t units)
{
	if (units)
		sa_set_f(c, (double)v / (double)units);
}

static void work_tables(const struct sa_model *m, const struct sa_report_opts *o,
			struct sa_report *r)
{
	uint32_t nprocs = 0;
	for (uint32_t p = 0; p < m->nprocs; p++)
		nprocs += m->procs[p].unit_events > 0;
	if (!nprocs && !m->work_name)
		return; /* the workload declared no unit */
	struct sa_table *t = sa_report_table(r, "wakes.work", "Wakeups per unit of work",
					     work_cols, WK_N);
	struct sa_table *tt = sa_report_table(r, "wakes.work_threads",
					      "Wakeups per unit of work, per thread",
					      work_thread_cols, WKT_N);
	if (!t || !tt)
		return;
	t->minor = tt->minor = 2;
	const char *unit = sa_model_work_name(m);
	uint64_t all_units = 0, all_woken = 0;
	for (uint32_t p = 0; p < m->nprocs; p++) {
		const struct sa_proc *pr = &m->procs[p];
		if (!pr->unit_events)
			continue;
		uint64_t wakes = 0, woke = 0, wasted = 0, cw = 0, sw = 0;
		for (uint32_t i = 0; i < m->nthreads; i++) {
			const struct sa_thread *th = &m->threads[i];
			if (th->proc != p)
				continue;
			wakes += th->fx_wakes;
			woke += th->fx_woke;
			wasted += th->fx_wasted;
			cw += th->cond_wakeups;
			sw += th->sem_wakeups;
		}
		all_units += pr->units;
		all_woken += woke;
		struct sa_cell *c = sa_table_row(t);
		if (!c)
			return;
		sa_set_i(&c[WK_VPID], pr->vpid);
		sa_cell_str(&c[WK_PROCNAME], pr->procname);
		sa_cell_str(&c[WK_UNIT], unit);
		sa_set_u(&c[WK_UNIT_EVENTS], pr->unit_events);
		sa_set_u(&c[WK_UNITS], pr->units);
		sa_set_u(&c[WK_FUTEX_WAKES], wakes);
		sa_set_u(&c[WK_THREADS_WOKEN], woke);
		sa_set_u(&c[WK_WASTED_WAKES], wasted);
		sa_set_u(&c[WK_COND_WAKEUPS], cw);
		sa_set_u(&c[WK_SEM_WAKEUPS], sw);
		per_unit(&c[WK_FUTEX_WAKES_PER_UNIT], wakes, pr->units);
		per_unit(&c[WK_THREADS_WOKEN_PER_UNIT], woke, pr->units);
		per_unit(&c[WK_WASTED_WAKES_PER_UNIT], wasted, pr->units);
		per_unit(&c[WK_COND_WAKEUPS_PER_UNIT], cw, pr->units);
		per_unit(&c[WK_SEM_WAKEUPS_PER_UNIT], sw, pr->units);

		unsigned shown = 0;
		for (uint32_t i = 0; i < m->nthreads; i++) {
			const struct sa_thread *th = &m->threads[i];
			if (th->proc != p || (!th->units && !th->fx_woken && !th->fx_wakes &&
					      !th->cond_wakeups && !th->sem_wakeups))
				continue;
			if (o->top && shown >= o->top)
				break;
			struct sa_cell *d = sa_table_row(tt);
			if (!d)
				return;
			shown++;
			sa_set_i(&d[WKT_VPID], pr->vpid);
			sa_set_i(&d[WKT_VTID], th->vtid);
			sa_cell_str(&d[WKT_NAME], th->procname);
			sa_set_u(&d[WKT_UNITS], th->units);
			sa_set_u(&d[WKT_WOKEN], th->fx_woken);
			per_unit(&d[WKT_WOKEN_PER_UNIT], th->fx_woken, th->units);
			sa_set_u(&d[WKT_FUTEX_WAKES], th->fx_wakes);
			sa_set_u(&d[WKT_THREADS_WOKEN], th->fx_woke);
			sa_set_u(&d[WKT_WASTED_WAKES], th->fx_wasted);
			sa_set_u(&d[WKT_COND_WAKEUPS], th->cond_wakeups);
			sa_set_u(&d[WKT_SEM_WAKEUPS], th->sem_wakeups);
			per_unit(&d[WKT_THREADS_WOKEN_PER_UNIT], th->fx_woke, th->units);
		}
	}
	if (!nprocs)
		sa_table_note(t, "no %s event in the trace: no unit of work", unit);
	else if (nprocs > 1)
		sa_table_note(t, "all %u processes: %llu units, %.6g threads woken per unit", nprocs,
			      (unsigned long long)all_units,
			      all_units ? (double)all_woken / (double)all_units : 0.0);
	sa_table_note(t, "unit: %s%s; wakes: futex wakes issued, woken: threads the kernel "
		      "says they woke, cond wakeups: condvar waiters released by signals and "
		      "broadcasts (cond:signal moved), sem wakeups: posts that handed a token to "
		      "a registered sleeper; each divided by the process's units",
		      unit, m->work_name ? (m->work_field ? " (its field's value per event)"
						 : " (one unit per event)")
					 : " (the units the program declared)");
	sa_table_note(tt, "was woken: its futex waits that returned woken, per unit it did; "
		      "wakes, woke, cond and sem wakeups: those it issued; woke/unit: threads "
		      "its wakes woke per unit it did");
}

/* Wait returns of 0 beyond what wakes and requeues on the object account
 * for: a lower bound (a requeued waiter is woken through another word). */
static uint64_t spurious(const struct sa_object *o)
{
	uint64_t credit = o->fx_woken + o->fx_requeued;
	return o->fx_woken_ret > credit ? o->fx_woken_ret - credit : 0;
}

struct row {
	uint32_t i;
	uint64_t k1, k2;
};

static int by_wakes(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->k1 != y->k1)
		return x->k1 < y->k1 ? 1 : -1;
	if (x->k2 != y->k2)
		return x->k2 < y->k2 ? 1 : -1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The ledger's numbers, the same columns in both of its tables. */
enum {
	L_CALLS, L_NOBODY, L_WOKEN, L_WON, L_LOST, L_FUTILE, L_PASSED_ON, L_UNDECIDED,
	L_USEFUL_SHARE, L_MET_LEAVING, L_WENT_ON, L_MULTI, L_FAN_MEAN, L_FAN_MAX, L_USEFUL_PER_MULTI,
	L_SCHED_MEAN, L_SCHED_MAX, L_REACQ_MEAN, L_REACQ_MAX, L_N
};
#define L_COLS(base) \
	[(base) + L_CALLS] = { "wake_calls", "calls", SA_COL_U64, 0, 0 }, \
	[(base) + L_NOBODY] = { "woke_nobody", "woke nobody", SA_COL_U64, 0, 0 }, \
	[(base) + L_WOKEN] = { "woken", "woken", SA_COL_U64, 0, 0 }, \
	[(base) + L_WON] = { "won", "won", SA_COL_U64, 0, 0 }, \
	[(base) + L_LOST] = { "lost", "lost, slept", SA_COL_U64, 0, 0 }, \
	[(base) + L_FUTILE] = { "futile", "futile", SA_COL_U64, 0, 0 }, \
	[(base) + L_PASSED_ON] = { "passed_on", "passed on", SA_COL_U64, SA_COL_WIDE, 0 }, \
	[(base) + L_UNDECIDED] = { "undecided", "undecided", SA_COL_U64, SA_COL_WIDE, 0 }, \
	[(base) + L_USEFUL_SHARE] = { "useful_share", "useful%", SA_COL_PCT, 0, 0 }, \
	[(base) + L_MET_LEAVING] = { "met_leaving", "met leaving", SA_COL_U64, 0, 0 }, \
	[(base) + L_WENT_ON] = { "went_on", "went on", SA_COL_U64, SA_COL_WIDE, 0 }, \
	[(base) + L_MULTI] = { "multi_calls", "broadcasts", SA_COL_U64, SA_COL_WIDE, 0 }, \
	[(base) + L_FAN_MEAN] = { "fanout_mean", "woken/bcast", SA_COL_F64, 0, 0 }, \
	[(base) + L_FAN_MAX] = { "fanout_max", "max woken", SA_COL_U64, SA_COL_WIDE, 0 }, \
	[(base) + L_USEFUL_PER_MULTI] = { "useful_per_multi", "won/bcast", SA_COL_F64, 0, 0 }, \
	[(base) + L_SCHED_MEAN] = { "sched_delay_mean_ns", "sched delay", SA_COL_NS, 0, 0 }, \
	[(base) + L_SCHED_MAX] = { "sched_delay_max_ns", "sched max", SA_COL_NS, SA_COL_WIDE, 0 }, \
	[(base) + L_REACQ_MEAN] = { "reacquire_mean_ns", "reacquire", SA_COL_NS, 0, 0 }, \
	[(base) + L_REACQ_MAX] = { "reacquire_max_ns", "reacq max", SA_COL_NS, SA_COL_WIDE, 0 }

enum { LO_ID, LO_L = LO_ID + SA_ID_N, LO_N = LO_L + L_N };
static const struct sa_col outcome_cols[LO_N] = { SA_ID_COLS(LO_ID), L_COLS(LO_L) };

enum { LS_ID, LS_OP = LS_ID + SA_ID_N, LS_CALL_SITE, LS_CALL_ADDR, LS_L, LS_N = LS_L + L_N };
static const struct sa_col site_cols[LS_N] = {
	SA_ID_COLS(LS_ID),
	[LS_OP] = { "call", "call", SA_COL_STR, 0, 0 },
	[LS_CALL_SITE] = { "call_site", "from", SA_COL_STR, 0, 30 },
	[LS_CALL_ADDR] = { "call_site_address", "from address", SA_COL_HEX, SA_COL_WIDE, 0 },
	L_COLS(LS_L),
};

static void ledger_cells(struct sa_cell *c, const struct sa_wl_counts *k)
{
	uint64_t decided = 0;
	for (int i = 0; i < SA_WL_NOUTCOMES; i++)
		decided += k->out[i];
	sa_set_u(&c[L_CALLS], k->calls);
	sa_set_u(&c[L_NOBODY], k->nobody);
	sa_set_u(&c[L_WOKEN], k->woken);
	sa_set_u(&c[L_WON], k->out[SA_WL_WON]);
	sa_set_u(&c[L_LOST], k->out[SA_WL_LOST]);
	sa_set_u(&c[L_FUTILE], k->out[SA_WL_FUTILE]);
	sa_set_u(&c[L_PASSED_ON], k->out[SA_WL_PASSED_ON]);
	sa_set_u(&c[L_UNDECIDED], k->woken > decided ? k->woken - decided : 0);
	if (decided) /* of the wakes whose outcome is known (not undecided) */
		sa_set_f(&c[L_USEFUL_SHARE], (double)k->out[SA_WL_WON] / (double)decided);
	sa_set_u(&c[L_MET_LEAVING], k->met_leaving);
	sa_set_u(&c[L_WENT_ON], k->went_on);
	sa_set_u(&c[L_MULTI], k->multi);
	if (k->multi && k->multi == k->calls) { /* fan-out: every call could wake many */
		sa_set_f(&c[L_FAN_MEAN], (double)k->woken / (double)k->calls);
		sa_set_u(&c[L_FAN_MAX], k->fan_max);
		sa_set_f(&c[L_USEFUL_PER_MULTI], (double)k->out[SA_WL_WON] / (double)k->calls);
	}
	if (k->sched_n) {
		sa_set_u(&c[L_SCHED_MEAN], k->sched_ns / k->sched_n);
		sa_set_u(&c[L_SCHED_MAX], k->sched_max);
	}
	if (k->reacq_n) {
		sa_set_u(&c[L_REACQ_MEAN], k->reacq_ns / k->reacq_n);
		sa_set_u(&c[L_REACQ_MAX], k->reacq_max);
	}
}

/* What a wake bought nothing: woke nobody, lost to a barger, futile. */
static uint64_t waste(const struct sa_wl_counts *k)
{
	return k->nobody + k->out[SA_WL_LOST] + k->out[SA_WL_FUTILE];
}

struct lrow {
	uint32_t obj, e; /* e: entry index (sites), UINT32_MAX for an object's total */
	uint64_t k1, k2;
};

static int by_waste(const void *a, const void *b)
{
	const struct lrow *x = a, *y = b;
	if (x->k1 != y->k1)
		return x->k1 < y->k1 ? 1 : -1;
	if (x->k2 != y->k2)
		return x->k2 < y->k2 ? 1 : -1;
	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	return x->e < y->e ? -1 : x->e > y->e;
}

static void ledger_tables(const struct sa_model *m, const struct sa_report_opts *o,
			  struct sa_report *r)
{
	struct sa_table *t = sa_report_table(r, "wakes.outcomes", "Wake outcomes per object",
					     outcome_cols, LO_N);
	struct sa_table *ts = sa_report_table(r, "wakes.sites", "Wake outcomes per waking call site",
					      site_cols, LS_N);
	if (!t || !ts)
		return;
	t->flags = ts->flags = SA_TAB_WIDE;
	uint32_t nobj = 0, nsite = 0, cap = 64;
	struct lrow *ob = malloc(cap * sizeof(*ob)), *si = malloc(cap * sizeof(*si));
	for (uint32_t i = 0; ob && si && i < m->nobjs; i++) {
		const struct sa_wl_entry *e;
		unsigned n = m->objs[i].instances ? sa_wl_entries(m, i, &e) : 0;
		if (!n)
			continue;
		struct sa_wl_counts k;
		sa_wl_totals(m, i, &k);
		if (nobj == cap || nsite + n > cap) {
			cap = (cap + n) * 2;
			struct lrow *a = realloc(ob, cap * sizeof(*ob)), *b = a ? realloc(si, cap * sizeof(*si)) : NULL;
			if (a)
				ob = a;
			if (!a || !b)
				break;
			si = b;
		}
		if (!k.calls)
			continue;
		ob[nobj++] = (struct lrow){ i, UINT32_MAX, waste(&k), k.calls };
		for (unsigned j = 0; j < n; j++)
			if (e[j].c.calls) /* (a provisional entry all of whose wakes were named) */
				si[nsite++] = (struct lrow){ i, j, waste(&e[j].c), e[j].c.calls };
	}
	if (!ob || !si) {
		free(ob);
		free(si);
		return;
	}
	qsort(ob, nobj, sizeof(*ob), by_waste);
	qsort(si, nsite, sizeof(*si), by_waste);
	struct sa_cell *c;
	for (uint32_t i = 0; i < nobj && (!o->top || i < o->top); i++) {
		struct sa_wl_counts k;
		if (!(c = sa_table_row(t)))
			break;
		sa_wl_totals(m, ob[i].obj, &k);
		sa_id_fill(m, ob[i].obj, &c[LO_ID]);
		ledger_cells(&c[LO_L], &k);
	}
	char buf[256];
	for (uint32_t i = 0; i < nsite && (!o->top || i < o->top); i++) {
		const struct sa_wl_entry *e;
		sa_wl_entries(m, si[i].obj, &e);
		e += si[i].e;
		if (!(c = sa_table_row(ts)))
			break;
		sa_id_fill(m, si[i].obj, &c[LS_ID]);
		sa_cell_str(&c[LS_OP], sa_wl_op_name(e));
		if (e->site) {
			sa_cell_str(&c[LS_CALL_SITE],
				    sa_site_name(m, m->objs[si[i].obj].proc, e->site, buf, sizeof(buf)));
			sa_set_u(&c[LS_CALL_ADDR], e->site);
		}
		ledger_cells(&c[LS_L], &e->c);
	}
	if (nobj > t->nrows)
		sa_table_note(t, "%u of %u objects shown (--top)", t->nrows, nobj);
	if (nsite > ts->nrows)
		sa_table_note(ts, "%u of %u call sites shown (--top)", ts->nrows, nsite);
	sa_table_note(t, "calls: waking calls (futex wakes, condvar signals and broadcasts, "
		      "semaphore posts); woken: threads they woke; won: got past the object; "
		      "lost, slept: slept on it again first (a barger or spinner took it); futile: "
		      "a condvar waiter that waited again without releasing the mutex; passed on: "
		      "cancelled holding its signal; undecided: not matched (a waiter's wait "
		      "below SYNCTRACE_THRESHOLD has no events), or the trace ended; useful%%: won "
		      "of the decided");
	sa_table_note(t, "met leaving: condvar waiters already timing out or cancelled that a "
		      "signal met (went on: it took the next one); sched delay: wake call to the "
		      "woken thread running; reacquire: from then to owning the object "
		      "(doc/wakes.md)");
	sa_table_note(ts, "call: the event that says what the waking call was (cond:broadcast, "
		      "sem:post, mutex:released ...; futex:wake: a primitive's internal wake), "
		      "from: its call site; columns as in wakes.outcomes");
	free(ob);
	free(si);
}

void sa_wakes_build(const struct sa_model *m, const struct sa_report_opts *o,
		    struct sa_report *r)
{
	struct sa_table *tt = sa_report_table(r, "wakes.total", "Wakes (all objects)",
					      total_cols, WT_N);
	struct sa_table *t = sa_report_table(r, "wakes.objects", "Wakes per object", obj_cols,
					     W_N);
	if (!t || !tt)
		return;
	t->flags = tt->flags = SA_TAB_WIDE;
	struct row *rows = malloc((m->nobjs + 1) * sizeof(*rows));
	if (!rows)
		return;
	uint32_t n = 0;
	uint64_t w = 0, wasted = 0, woken = 0, waits = 0, ret = 0, wtb = 0, sp = 0, bc = 0,
		 rq = 0, slept = 0;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const struct sa_object *ob = &m->objs[i];
		if (!ob->instances || (!ob->fx_wakes && !ob->fx_waits && !ob->fx_requeues))
			continue;
		w += ob->fx_wakes;
		wasted += ob->fx_wasted;
		woken += ob->fx_woken;
		waits += ob->fx_waits;
		ret += ob->fx_woken_ret;
		wtb += ob->wake_then_block;
		sp += spurious(ob);
		bc += ob->herd.n;
		rq += ob->fx_requeues;
		slept += ob->fx_slept_ns;
		rows[n++] = (struct row){ i, ob->fx_wasted, ob->fx_wakes };
	}
	qsort(rows, n, sizeof(*rows), by_wakes);
	struct sa_cell *c = sa_table_row(tt);
	if (c) {
		sa_set_u(&c[WT_FUTEX_WAKES], w);
		sa_set_u(&c[WT_WASTED_WAKES], wasted);
		if (w)
			sa_set_f(&c[WT_WASTED_SHARE], (double)wasted / (double)w);
		sa_set_u(&c[WT_THREADS_WOKEN], woken);
		sa_set_u(&c[WT_FUTEX_WAITS], waits);
		sa_set_u(&c[WT_RETURNED_WOKEN], ret);
		sa_set_u(&c[WT_WAKE_THEN_BLOCK], wtb);
		sa_set_u(&c[WT_SPURIOUS], sp);
		sa_set_u(&c[WT_BROADCASTS], bc);
		sa_set_u(&c[WT_REQUEUES], rq);
		sa_set_u(&c[WT_SLEPT_NS], slept);
		struct sa_wl_counts k;
		sa_wl_totals(m, UINT32_MAX, &k);
		sa_set_u(&c[WT_WAKE_CALLS], k.calls);
		sa_set_u(&c[WT_WOKEN], k.woken);
		sa_set_u(&c[WT_WON], k.out[SA_WL_WON]);
		sa_set_u(&c[WT_LOST], k.out[SA_WL_LOST]);
		sa_set_u(&c[WT_FUTILE], k.out[SA_WL_FUTILE]);
		sa_set_u(&c[WT_MET_LEAVING], k.met_leaving);
	}
	sa_table_note(tt, "woke nobody: FUTEX_WAKE returned 0 (a wasted system call); "
		      "wake→block: a thread woken from a futex wait on an object slept on "
		      "it again before getting past it; spurious: wait returns of 0 beyond "
		      "the wakes issued on that object (a lower bound)");
	for (uint32_t i = 0; i < n && (!o->top || i < o->top); i++) {
		const struct sa_object *ob = &m->objs[rows[i].i];
		if (!(c = sa_table_row(t)))
			break;
		sa_id_fill(m, rows[i].i, &c[W_ID]);
		sa_set_u(&c[W_FUTEX_WAKES], ob->fx_wakes);
		sa_set_u(&c[W_WASTED_WAKES], ob->fx_wasted);
		if (ob->fx_wakes)
			sa_set_f(&c[W_WASTED_SHARE], (double)ob->fx_wasted / (double)ob->fx_wakes);
		sa_set_u(&c[W_THREADS_WOKEN], ob->fx_woken);
		sa_set_u(&c[W_FUTEX_WAITS], ob->fx_waits);
		sa_set_u(&c[W_RETURNED_WOKEN], ob->fx_woken_ret);
		sa_set_u(&c[W_RETURNED_EAGAIN], ob->fx_eagain);
		sa_set_u(&c[W_RETURNED_TIMEDOUT], ob->fx_timedout);
		sa_set_u(&c[W_RETURNED_EINTR], ob->fx_eintr);
		sa_set_u(&c[W_WAKE_THEN_BLOCK], ob->wake_then_block);
		sa_set_u(&c[W_SPURIOUS], spurious(ob));
		sa_set_u(&c[W_BROADCASTS], ob->herd.n);
		if (ob->herd.n) {
			sa_set_f(&c[W_HERD_MEAN], (double)ob->herd.sum / (double)ob->herd.n);
			sa_set_u(&c[W_HERD_MAX], ob->herd.max);
		}
		sa_set_u(&c[W_REQUEUES], ob->fx_requeues);
		sa_set_u(&c[W_REQUEUED], ob->fx_requeued);
		sa_set_u(&c[W_SLEPT_NS], ob->fx_slept_ns);
		sa_set_hist(&c[W_HERD_LOG2_HIST], &ob->herd);
	}
	if (n > t->nrows)
		sa_table_note(t, "%u of %u objects shown (--top)", t->nrows, n);
	free(rows);
	ledger_tables(m, o, r);
	work_tables(m, o, r);
}
