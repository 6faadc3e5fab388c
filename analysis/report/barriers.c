/* Barriers and once objects: barriers.objects (rounds, the serial thread,
 * waiting for the last arriver), barriers.threads (who made whom wait),
 * once.objects (who ran the routine, how long, who waited, cancelled
 * runs). Tables only when the trace has such objects (schema 1.2). */
#include <stdio.h>
#include <stdlib.h>

#include "sa_report_util.h"
#include "sa_symbols.h"
#include "sa_barrier.h"
#include "sa_once.h"

enum {
	BA_VPID, BA_PROCNAME, BA_ADDRESS, BA_INSTANCE, BA_CALLER, BA_COUNT, BA_ROUNDS, BA_WAITS,
	BA_DEPARTURES, BA_WOKEN, BA_SERIAL_THREADS, BA_TOP_SERIAL_TID, BA_TOP_SERIAL_ROUNDS,
	BA_TOP_SERIAL_SHARE, BA_WAIT_TOTAL_NS, BA_WAIT_MEAN_NS, BA_WAIT_P50_NS, BA_WAIT_P99_NS,
	BA_WAIT_MAX_NS, BA_WAIT_LAST_TOTAL_NS, BA_WAIT_LAST_MEAN_NS, BA_WAIT_LAST_MAX_NS,
	BA_WAKEUP_MEAN_NS, BA_WAKEUP_MAX_NS, BA_SPREAD_MEAN_NS, BA_SPREAD_MAX_NS, BA_DESTROY_BUSY,
	BA_WAIT_LOG2_HIST, BA_N
};
static const struct sa_col bar_cols[BA_N] = {
	[BA_VPID] = { "vpid", "pid", SA_COL_I64, 0, 0 },
	[BA_PROCNAME] = { "procname", "process", SA_COL_STR, 0, 0 },
	[BA_ADDRESS] = { "address", "address", SA_COL_HEX, 0, 0 },
	[BA_INSTANCE] = { "instance", "inst", SA_COL_U64, 0, 0 },
	[BA_CALLER] = { "caller", "first call site", SA_COL_HEX, 0, 0 },
	[BA_COUNT] = { "count", "count", SA_COL_I64, 0, 0 },
	[BA_ROUNDS] = { "rounds", "rounds", SA_COL_U64, 0, 0 },
	[BA_WAITS] = { "waits", "waits", SA_COL_U64, 0, 0 },
	[BA_DEPARTURES] = { "departures", "departed", SA_COL_U64, 0, 0 },
	[BA_WOKEN] = { "woken", "woken", SA_COL_U64, 0, 0 },
	[BA_SERIAL_THREADS] = { "serial_threads", "last arrivers", SA_COL_U64, 0, 0 },
	[BA_TOP_SERIAL_TID] = { "top_serial_tid", "most often last", SA_COL_I64, 0, 0 },
	[BA_TOP_SERIAL_ROUNDS] = { "top_serial_rounds", "its rounds", SA_COL_U64, 0, 0 },
	[BA_TOP_SERIAL_SHARE] = { "top_serial_share", "its share", SA_COL_PCT, 0, 0 },
	[BA_WAIT_TOTAL_NS] = { "wait_total_ns", "wait total", SA_COL_NS, 0, 0 },
	[BA_WAIT_MEAN_NS] = { "wait_mean_ns", "mean", SA_COL_NS, 0, 0 },
	[BA_WAIT_P50_NS] = { "wait_p50_ns", "p50", SA_COL_NS, 0, 0 },
	[BA_WAIT_P99_NS] = { "wait_p99_ns", "p99", SA_COL_NS, 0, 0 },
	[BA_WAIT_MAX_NS] = { "wait_max_ns", "max", SA_COL_NS, 0, 0 },
	[BA_WAIT_LAST_TOTAL_NS] = { "wait_last_total_ns", "for last total", SA_COL_NS, 0, 0 },
	[BA_WAIT_LAST_MEAN_NS] = { "wait_last_mean_ns", "for last mean", SA_COL_NS, 0, 0 },
	[BA_WAIT_LAST_MAX_NS] = { "wait_last_max_ns", "for last max", SA_COL_NS, 0, 0 },
	[BA_WAKEUP_MEAN_NS] = { "wakeup_mean_ns", "wakeup mean", SA_COL_NS, 0, 0 },
	[BA_WAKEUP_MAX_NS] = { "wakeup_max_ns", "wakeup max", SA_COL_NS, 0, 0 },
	[BA_SPREAD_MEAN_NS] = { "spread_mean_ns", "spread mean", SA_COL_NS, 0, 0 },
	[BA_SPREAD_MAX_NS] = { "spread_max_ns", "spread max", SA_COL_NS, 0, 0 },
	[BA_DESTROY_BUSY] = { "destroy_busy", "destroy EBUSY", SA_COL_U64, 0, 0 },
	[BA_WAIT_LOG2_HIST] = { "wait_log2_hist", "wait log2(ns) histogram", SA_COL_HIST, 0, 0 },
};

enum {
	BT_VPID, BT_ADDRESS, BT_INSTANCE, BT_VTID, BT_NAME, BT_PASSES, BT_WAITS, BT_SERIAL,
	BT_SERIAL_SHARE, BT_RELEASED_OTHERS, BT_WAIT_NS, BT_WAIT_LAST_NS, BT_MADE_WAIT_NS, BT_N
};
static const struct sa_col bar_thread_cols[BT_N] = {
	[BT_VPID] = { "vpid", "pid", SA_COL_I64, 0, 0 },
	[BT_ADDRESS] = { "address", "barrier", SA_COL_HEX, 0, 0 },
	[BT_INSTANCE] = { "instance", "inst", SA_COL_U64, 0, 0 },
	[BT_VTID] = { "vtid", "tid", SA_COL_I64, 0, 0 },
	[BT_NAME] = { "name", "name", SA_COL_STR, 0, 0 },
	[BT_PASSES] = { "passes", "passes", SA_COL_U64, 0, 0 },
	[BT_WAITS] = { "waits", "waits", SA_COL_U64, 0, 0 },
	[BT_SERIAL] = { "serial", "last", SA_COL_U64, 0, 0 },
	[BT_SERIAL_SHARE] = { "serial_share", "last%", SA_COL_PCT, 0, 0 },
	[BT_RELEASED_OTHERS] = { "released_others", "released", SA_COL_U64, 0, 0 },
	[BT_WAIT_NS] = { "wait_ns", "wait", SA_COL_NS, 0, 0 },
	[BT_WAIT_LAST_NS] = { "wait_last_ns", "waited for last", SA_COL_NS, 0, 0 },
	[BT_MADE_WAIT_NS] = { "made_wait_ns", "made others wait", SA_COL_NS, 0, 0 },
};

static uint64_t mean(const struct sa_dist *d)
{
	return d->n ? d->sum / d->n : 0;
}

/* The thread entry that was the serial thread most often (-1: none). */
static int64_t top_serial(const struct sa_barrier *b, uint64_t *nthreads)
{
	int64_t best = -1;
	*nthreads = 0;
	for (uint32_t i = 0; i < b->nth; i++) {
		if (!b->th[i].serial)
			continue;
		++*nthreads;
		if (best < 0 || b->th[i].serial > b->th[best].serial)
			best = i;
	}
	return best;
}

static void barriers(const struct sa_model *m, const struct sa_report_opts *o,
		     struct sa_report *r)
{
	struct sa_rank *rk = malloc((m->nobjs + 1) * sizeof(*rk));
	uint32_t n = 0;
	if (!rk)
		return;
	for (uint32_t i = 0; i < m->nobjs; i++)
		if (m->objs[i].type == SA_OBJ_BARRIER && m->objs[i].ext)
			rk[n++] = (struct sa_rank){ i, ((const struct sa_barrier *)m->objs[i].ext)->wait.sum };
	if (!n) {
		free(rk);
		return;
	}
	qsort(rk, n, sizeof(*rk), sa_rank_desc);
	struct sa_table *t = sa_report_table(r, "barriers.objects", "Barriers", bar_cols,
					     BA_N);
	struct sa_table *tt = sa_report_table(r, "barriers.threads", "Barrier rounds per thread",
					      bar_thread_cols, BT_N);
	if (!t || !tt) {
		free(rk);
		return;
	}
	t->minor = tt->minor = 2;
	unsigned verdicts = 0;
	for (uint32_t i = 0; i < n && (!o->top || i < o->top); i++) {
		const struct sa_object *ob = &m->objs[rk[i].i];
		const struct sa_barrier *b = ob->ext;
		struct sa_cell *c = sa_table_row(t);
		if (!c)
			break;
		uint64_t nserial;
		int64_t top = top_serial(b, &nserial);
		/* Pairing a waiter's arrival with another's release needs their
		 * events: none when every departure is a summary's. */
		int paired = b->summarized < b->departures || !b->departures;
		sa_set_i(&c[BA_VPID], m->procs[ob->proc].vpid);
		sa_cell_str(&c[BA_PROCNAME], sa_proc_name(m, ob->proc));
		sa_set_u(&c[BA_ADDRESS], ob->addr);
		sa_set_u(&c[BA_INSTANCE], ob->instance);
		if (ob->caller)
			sa_set_u(&c[BA_CALLER], ob->caller);
		if (b->count > 0)
			sa_set_i(&c[BA_COUNT], b->count);
		sa_set_u(&c[BA_ROUNDS], b->rounds);
		sa_set_u(&c[BA_WAITS], b->waits);
		sa_set_u(&c[BA_DEPARTURES], b->departures);
		sa_set_u(&c[BA_WOKEN], b->woken);
		sa_set_u(&c[BA_SERIAL_THREADS], nserial);
		if (top >= 0) {
			const struct sa_bar_thread *bt = &b->th[top];
			sa_set_i(&c[BA_TOP_SERIAL_TID], m->threads[bt->ti].vtid);
			sa_set_u(&c[BA_TOP_SERIAL_ROUNDS], bt->serial);
			if (b->rounds)
				sa_set_f(&c[BA_TOP_SERIAL_SHARE], (double)bt->serial / (double)b->rounds);
			if (b->rounds >= 2 && 2 * bt->serial > b->rounds && verdicts < 5) {
				verdicts++;
				char others[64] = "";
				if (paired)
					snprintf(others, sizeof(others), "; the others waited %.3f ms for it",
						 (double)bt->made_wait_ns / 1e6);
				sa_table_note(t, "barrier 0x%llx: thread %d (%s) arrived last in %llu "
					      "of %llu rounds%s",
					      (unsigned long long)ob->addr, (int)m->threads[bt->ti].vtid,
					      m->threads[bt->ti].procname,
					      (unsigned long long)bt->serial,
					      (unsigned long long)b->rounds, others);
			}
		}
		sa_set_u(&c[BA_WAIT_TOTAL_NS], b->wait.sum);
		if (b->wait.n) {
			sa_set_u(&c[BA_WAIT_MEAN_NS], mean(&b->wait));
			sa_set_u(&c[BA_WAIT_P50_NS], sa_dist_pct(&b->wait, 0.50));
			sa_set_u(&c[BA_WAIT_P99_NS], sa_dist_pct(&b->wait, 0.99));
			sa_set_u(&c[BA_WAIT_MAX_NS], b->wait.max);
		}
		if (paired)
			sa_set_u(&c[BA_WAIT_LAST_TOTAL_NS], b->wait_last.sum);
		if (b->wait_last.n) {
			sa_set_u(&c[BA_WAIT_LAST_MEAN_NS], mean(&b->wait_last));
			sa_set_u(&c[BA_WAIT_LAST_MAX_NS], b->wait_last.max);
			sa_set_u(&c[BA_WAKEUP_MEAN_NS], mean(&b->wakeup));
			sa_set_u(&c[BA_WAKEUP_MAX_NS], b->wakeup.max);
		}
		if (b->spread.n) {
			sa_set_u(&c[BA_SPREAD_MEAN_NS], mean(&b->spread));
			sa_set_u(&c[BA_SPREAD_MAX_NS], b->spread.max);
		}
		sa_set_u(&c[BA_DESTROY_BUSY], b->destroy_busy);
		sa_set_hist(&c[BA_WAIT_LOG2_HIST], &b->wait);

		/* Its threads, the one that made the others wait most first. */
		struct sa_rank *tr = malloc((b->nth + 1) * sizeof(*tr));
		if (!tr)
			continue;
		for (uint32_t k = 0; k < b->nth; k++)
			tr[k] = (struct sa_rank){ k, b->th[k].made_wait_ns };
		qsort(tr, b->nth, sizeof(*tr), sa_rank_desc);
		for (uint32_t k = 0; k < b->nth; k++) {
			const struct sa_bar_thread *bt = &b->th[tr[k].i];
			const struct sa_thread *th = &m->threads[bt->ti];
			struct sa_cell *d = sa_table_row(tt);
			if (!d)
				break;
			sa_set_i(&d[BT_VPID], m->procs[ob->proc].vpid);
			sa_set_u(&d[BT_ADDRESS], ob->addr);
			sa_set_u(&d[BT_INSTANCE], ob->instance);
			sa_set_i(&d[BT_VTID], th->vtid);
			sa_cell_str(&d[BT_NAME], th->procname);
			sa_set_u(&d[BT_PASSES], bt->passes);
			sa_set_u(&d[BT_WAITS], bt->waits);
			sa_set_u(&d[BT_SERIAL], bt->serial);
			if (bt->passes)
				sa_set_f(&d[BT_SERIAL_SHARE], (double)bt->serial / (double)bt->passes);
			sa_set_u(&d[BT_RELEASED_OTHERS], bt->released_others);
			sa_set_u(&d[BT_WAIT_NS], bt->wait_ns);
			if (paired) {
				sa_set_u(&d[BT_WAIT_LAST_NS], bt->wait_last_ns);
				sa_set_u(&d[BT_MADE_WAIT_NS], bt->made_wait_ns);
			}
		}
		free(tr);
	}
	if (n > t->nrows)
		sa_table_note(t, "%u of %u barriers shown (--top)", t->nrows, n);
	sa_table_note(t, "waits: threads that waited (all but the last arriver of each round); "
		      "wait: their time in pthread_barrier_wait; for last: from their arrival to "
		      "the round's release by the last arriver (the serial thread); wakeup: from "
		      "the release to their return; spread: a round's first arrival to its "
		      "release; woken: threads the kernel woke (the rest were still spinning)");
	sa_table_note(tt, "last: rounds it arrived last in and released (count - 1 others "
		      "each: released); waited for last: its own time waiting for the last "
		      "arrivers; made others wait: the others' waiting for it, summed over the "
		      "rounds it released");
	free(rk);
}

enum {
	ON_VPID, ON_PROCNAME, ON_ADDRESS, ON_INSTANCE, ON_CALLER, ON_ROUTINE, ON_RUNNER,
	ON_RUNNER_NAME, ON_RUN_NS, ON_RUNS, ON_COMPLETED, ON_CANCELLED, ON_CANCELLED_RUNNER,
	ON_RUN_TOTAL_NS, ON_WAITS, ON_MAX_WAITING, ON_WAIT_TOTAL_NS, ON_WAIT_MEAN_NS,
	ON_WAIT_MAX_NS, ON_WOKEN, ON_RUNNING_AT_END, ON_ROUTINE_SITE, ON_N
};
static const struct sa_col once_cols[ON_N] = {
	[ON_VPID] = { "vpid", "pid", SA_COL_I64, SA_COL_WIDE, 0 },
	[ON_PROCNAME] = { "procname", "process", SA_COL_STR, 0, 0 },
	[ON_ADDRESS] = { "address", "address", SA_COL_HEX, 0, 0 },
	[ON_INSTANCE] = { "instance", "inst", SA_COL_U64, SA_COL_WIDE, 0 },
	[ON_CALLER] = { "caller", "first call site", SA_COL_HEX, SA_COL_WIDE, 0 },
	[ON_ROUTINE] = { "routine", "routine", SA_COL_HEX, SA_COL_WIDE, 0 },
	[ON_RUNNER] = { "runner", "tid", SA_COL_I64, SA_COL_WIDE, 0 },
	[ON_RUNNER_NAME] = { "runner_name", "ran it", SA_COL_STR, 0, 0 },
	[ON_RUN_NS] = { "run_ns", "run", SA_COL_NS, 0, 0 },
	[ON_RUNS] = { "runs", "runs", SA_COL_U64, 0, 0 },
	[ON_COMPLETED] = { "completed", "completed", SA_COL_U64, SA_COL_WIDE, 0 },
	[ON_CANCELLED] = { "cancelled", "cancelled", SA_COL_U64, 0, 0 },
	[ON_CANCELLED_RUNNER] = { "cancelled_runner", "cancelled in", SA_COL_I64, SA_COL_WIDE, 0 },
	[ON_RUN_TOTAL_NS] = { "run_total_ns", "runs total", SA_COL_NS, SA_COL_WIDE, 0 },
	[ON_WAITS] = { "waits", "waiters", SA_COL_U64, 0, 0 },
	[ON_MAX_WAITING] = { "max_waiting", "at once", SA_COL_U64, SA_COL_WIDE, 0 },
	[ON_WAIT_TOTAL_NS] = { "wait_total_ns", "wait total", SA_COL_NS, 0, 0 },
	[ON_WAIT_MEAN_NS] = { "wait_mean_ns", "mean", SA_COL_NS, 0, 0 },
	[ON_WAIT_MAX_NS] = { "wait_max_ns", "max", SA_COL_NS, SA_COL_WIDE, 0 },
	[ON_WOKEN] = { "woken", "woken", SA_COL_U64, SA_COL_WIDE, 0 },
	[ON_RUNNING_AT_END] = { "running_at_end", "unfinished", SA_COL_BOOL, 0, 0 },
	[ON_ROUTINE_SITE] = { "routine_site", "routine site", SA_COL_STR, 0, 40 }, /* only with call sites */
};

/* The name of thread vtid of process pi ("" if unknown). */
static const char *thread_name(const struct sa_model *m, uint32_t pi, int32_t vtid)
{
	int64_t t = sa_map_get(&m->thread_map, pi, (uint64_t)(uint32_t)vtid);
	return t >= 0 ? m->threads[t].procname : "";
}

static void onces(const struct sa_model *m, const struct sa_report_opts *o, struct sa_report *r)
{
	struct sa_rank *rk = malloc((m->nobjs + 1) * sizeof(*rk));
	uint32_t n = 0;
	if (!rk)
		return;
	for (uint32_t i = 0; i < m->nobjs; i++)
		if (m->objs[i].type == SA_OBJ_ONCE && m->objs[i].ext) {
			const struct sa_once *x = m->objs[i].ext;
			rk[n++] = (struct sa_rank){ i, x->wait.sum + x->run.sum };
		}
	struct sa_table *t = n ? sa_report_table(r, "once.objects", "Once (pthread_once, call_once)",
						 once_cols, ON_N - !m->symbols)
			       : NULL;
	if (!t) {
		free(rk);
		return;
	}
	t->minor = 2;
	/* Text: the once objects something waited on (a caller slept, a run
	 * was cancelled or never ended), the first 8; with none, the table is
	 * --wide's (a program's libraries run tens of once routines that no
	 * thread ever waits for). */
	t->text_rows = 8;
	t->flags = SA_TAB_WIDE;
	if (t->ncols > ON_ROUTINE_SITE) /* (named by its routine: the address is --wide's) */
		t->text_hide = 1ull << ON_ADDRESS;
	qsort(rk, n, sizeof(*rk), sa_rank_desc);
	for (uint32_t i = 0; i < n && (!o->top || i < o->top); i++) {
		const struct sa_object *ob = &m->objs[rk[i].i];
		const struct sa_once *x = ob->ext;
		if (x->waits || x->cancelled || x->running)
			t->flags = 0;
		struct sa_cell *c = sa_table_row(t);
		if (!c)
			break;
		sa_set_i(&c[ON_VPID], m->procs[ob->proc].vpid);
		sa_cell_str(&c[ON_PROCNAME], sa_proc_name(m, ob->proc));
		sa_set_u(&c[ON_ADDRESS], ob->addr);
		sa_set_u(&c[ON_INSTANCE], ob->instance);
		if (ob->caller)
			sa_set_u(&c[ON_CALLER], ob->caller);
		if (x->routine)
			sa_set_u(&c[ON_ROUTINE], x->routine);
		if (x->completed) {
			sa_set_i(&c[ON_RUNNER], x->runner);
			sa_cell_str(&c[ON_RUNNER_NAME], thread_name(m, ob->proc, x->runner));
			sa_set_u(&c[ON_RUN_NS], x->run_done_ns);
		}
		sa_set_u(&c[ON_RUNS], x->runs);
		sa_set_u(&c[ON_COMPLETED], x->completed);
		sa_set_u(&c[ON_CANCELLED], x->cancelled);
		if (x->cancelled)
			sa_set_i(&c[ON_CANCELLED_RUNNER], x->cancelled_runner);
		sa_set_u(&c[ON_RUN_TOTAL_NS], x->run.sum);
		sa_set_u(&c[ON_WAITS], x->waits);
		if (x->summarized < x->waits || !x->waits) /* (a summary's waits have no order) */
			sa_set_u(&c[ON_MAX_WAITING], x->max_sleeping);
		sa_set_u(&c[ON_WAIT_TOTAL_NS], x->wait.sum);
		if (x->wait.n) {
			sa_set_u(&c[ON_WAIT_MEAN_NS], x->wait.sum / x->wait.n);
			sa_set_u(&c[ON_WAIT_MAX_NS], x->wait.max);
		}
		sa_set_u(&c[ON_WOKEN], x->woken);
		sa_set_u(&c[ON_RUNNING_AT_END], (uint64_t)x->running);
		char site[512];
		if (t->ncols > 21 && x->routine &&
		    sa_symbols_function(m, m->procs[ob->proc].trace, m->procs[ob->proc].vpid, x->routine,
				    site, sizeof(site)))
			sa_cell_str(&c[ON_ROUTINE_SITE], site);
	}
	if (n > t->nrows)
		sa_table_note(t, "%u of %u once objects shown (--top)", t->nrows, n);
	sa_table_note(t, "only calls that did not find the routine done are traced; ran it: the "
		      "thread whose run completed, run: that run's time; cancelled: runs "
		      "cancelled inside the routine (the next caller ran it again); waiters: "
		      "callers that slept while it ran, at once: the most asleep together; "
		      "unfinished: a run without its end in the trace");
	free(rk);
}

void sa_barriers_build(const struct sa_model *m, const struct sa_report_opts *o,
		       struct sa_report *r)
{
	(void)m, (void)o, (void)r;
	barriers(m, o, r);
	onces(m, o, r);
}
