/* Barriers and once objects: barriers.objects (rounds, the serial thread,
 * waiting for the last arriver), barriers.threads (who made whom wait),
 * once.objects (who ran the routine, how long, who waited, cancelled
 * runs). Tables only when the trace has such objects (schema 1.2). */
#include <stdlib.h>

#include "sa_config.h"
#include "sa_report.h"
#include "sa_symbols.h"
#if SA_HAVE_barrier
#include "sa_barrier.h"
#endif
#if SA_HAVE_once
#include "sa_once.h"
#endif

#if SA_HAVE_barrier
static const struct sa_col bar_cols[] = {
	{ "vpid", "pid", SA_COL_I64 },
	{ "procname", "process", SA_COL_STR },
	{ "address", "address", SA_COL_HEX },
	{ "instance", "inst", SA_COL_U64 },
	{ "caller", "first call site", SA_COL_HEX },
	{ "count", "count", SA_COL_I64 },
	{ "rounds", "rounds", SA_COL_U64 },
	{ "waits", "waits", SA_COL_U64 },
	{ "departures", "departed", SA_COL_U64 },
	{ "woken", "woken", SA_COL_U64 },
	{ "serial_threads", "last arrivers", SA_COL_U64 },
	{ "top_serial_tid", "most often last", SA_COL_I64 },
	{ "top_serial_rounds", "its rounds", SA_COL_U64 },
	{ "top_serial_share", "its share", SA_COL_PCT },
	{ "wait_total_ns", "wait total", SA_COL_U64 },
	{ "wait_mean_ns", "mean", SA_COL_U64 },
	{ "wait_p50_ns", "p50", SA_COL_U64 },
	{ "wait_p99_ns", "p99", SA_COL_U64 },
	{ "wait_max_ns", "max", SA_COL_U64 },
	{ "wait_last_total_ns", "for last total", SA_COL_U64 },
	{ "wait_last_mean_ns", "for last mean", SA_COL_U64 },
	{ "wait_last_max_ns", "for last max", SA_COL_U64 },
	{ "wakeup_mean_ns", "wakeup mean", SA_COL_U64 },
	{ "wakeup_max_ns", "wakeup max", SA_COL_U64 },
	{ "spread_mean_ns", "spread mean", SA_COL_U64 },
	{ "spread_max_ns", "spread max", SA_COL_U64 },
	{ "destroy_busy", "destroy EBUSY", SA_COL_U64 },
	{ "wait_log2_hist", "wait log2(ns) histogram", SA_COL_HIST },
};

static const struct sa_col bar_thread_cols[] = {
	{ "vpid", "pid", SA_COL_I64 },
	{ "address", "barrier", SA_COL_HEX },
	{ "instance", "inst", SA_COL_U64 },
	{ "vtid", "tid", SA_COL_I64 },
	{ "name", "name", SA_COL_STR },
	{ "passes", "passes", SA_COL_U64 },
	{ "waits", "waits", SA_COL_U64 },
	{ "serial", "last", SA_COL_U64 },
	{ "serial_share", "last%", SA_COL_PCT },
	{ "released_others", "released", SA_COL_U64 },
	{ "wait_ns", "wait", SA_COL_U64 },
	{ "wait_last_ns", "waited for last", SA_COL_U64 },
	{ "made_wait_ns", "made others wait", SA_COL_U64 },
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
					     SA_N(bar_cols));
	struct sa_table *tt = sa_report_table(r, "barriers.threads", "Barrier rounds per thread",
					      bar_thread_cols, SA_N(bar_thread_cols));
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
		sa_set_i(&c[0], m->procs[ob->proc].vpid);
		sa_cell_str(&c[1], sa_proc_name(m, ob->proc));
		sa_set_u(&c[2], ob->addr);
		sa_set_u(&c[3], ob->instance);
		if (ob->caller)
			sa_set_u(&c[4], ob->caller);
		if (b->count > 0)
			sa_set_i(&c[5], b->count);
		sa_set_u(&c[6], b->rounds);
		sa_set_u(&c[7], b->waits);
		sa_set_u(&c[8], b->departures);
		sa_set_u(&c[9], b->woken);
		sa_set_u(&c[10], nserial);
		if (top >= 0) {
			const struct sa_bar_thread *bt = &b->th[top];
			sa_set_i(&c[11], m->threads[bt->ti].vtid);
			sa_set_u(&c[12], bt->serial);
			if (b->rounds)
				sa_set_f(&c[13], (double)bt->serial / (double)b->rounds);
			if (b->rounds >= 2 && 2 * bt->serial > b->rounds && verdicts < 5) {
				verdicts++;
				sa_table_note(t, "barrier 0x%llx: thread %d (%s) arrived last in %llu "
					      "of %llu rounds; the others waited %.3f ms for it",
					      (unsigned long long)ob->addr, (int)m->threads[bt->ti].vtid,
					      m->threads[bt->ti].procname,
					      (unsigned long long)bt->serial,
					      (unsigned long long)b->rounds, (double)bt->made_wait_ns / 1e6);
			}
		}
		sa_set_u(&c[14], b->wait.sum);
		if (b->wait.n) {
			sa_set_u(&c[15], mean(&b->wait));
			sa_set_u(&c[16], sa_dist_pct(&b->wait, 0.50));
			sa_set_u(&c[17], sa_dist_pct(&b->wait, 0.99));
			sa_set_u(&c[18], b->wait.max);
		}
		sa_set_u(&c[19], b->wait_last.sum);
		if (b->wait_last.n) {
			sa_set_u(&c[20], mean(&b->wait_last));
			sa_set_u(&c[21], b->wait_last.max);
			sa_set_u(&c[22], mean(&b->wakeup));
			sa_set_u(&c[23], b->wakeup.max);
		}
		if (b->spread.n) {
			sa_set_u(&c[24], mean(&b->spread));
			sa_set_u(&c[25], b->spread.max);
		}
		sa_set_u(&c[26], b->destroy_busy);
		sa_set_hist(&c[27], &b->wait);

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
			sa_set_i(&d[0], m->procs[ob->proc].vpid);
			sa_set_u(&d[1], ob->addr);
			sa_set_u(&d[2], ob->instance);
			sa_set_i(&d[3], th->vtid);
			sa_cell_str(&d[4], th->procname);
			sa_set_u(&d[5], bt->passes);
			sa_set_u(&d[6], bt->waits);
			sa_set_u(&d[7], bt->serial);
			if (bt->passes)
				sa_set_f(&d[8], (double)bt->serial / (double)bt->passes);
			sa_set_u(&d[9], bt->released_others);
			sa_set_u(&d[10], bt->wait_ns);
			sa_set_u(&d[11], bt->wait_last_ns);
			sa_set_u(&d[12], bt->made_wait_ns);
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
#endif

#if SA_HAVE_once
static const struct sa_col once_cols[] = {
	{ "vpid", "pid", SA_COL_I64 },
	{ "procname", "process", SA_COL_STR },
	{ "address", "address", SA_COL_HEX },
	{ "instance", "inst", SA_COL_U64 },
	{ "caller", "first call site", SA_COL_HEX },
	{ "routine", "routine", SA_COL_HEX },
	{ "runner", "ran it", SA_COL_I64 },
	{ "runner_name", "name", SA_COL_STR },
	{ "run_ns", "run (ns)", SA_COL_U64 },
	{ "runs", "runs", SA_COL_U64 },
	{ "completed", "completed", SA_COL_U64 },
	{ "cancelled", "cancelled", SA_COL_U64 },
	{ "cancelled_runner", "cancelled in", SA_COL_I64 },
	{ "run_total_ns", "runs total", SA_COL_U64 },
	{ "waits", "waiters", SA_COL_U64 },
	{ "max_waiting", "at once", SA_COL_U64 },
	{ "wait_total_ns", "wait total", SA_COL_U64 },
	{ "wait_mean_ns", "mean", SA_COL_U64 },
	{ "wait_max_ns", "max", SA_COL_U64 },
	{ "woken", "woken", SA_COL_U64 },
	{ "running_at_end", "unfinished", SA_COL_BOOL },
	{ "routine_site", "routine site", SA_COL_STR }, /* only with call sites */
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
						 once_cols, SA_N(once_cols) - !m->symbols)
			       : NULL;
	if (!t) {
		free(rk);
		return;
	}
	t->minor = 2;
	qsort(rk, n, sizeof(*rk), sa_rank_desc);
	for (uint32_t i = 0; i < n && (!o->top || i < o->top); i++) {
		const struct sa_object *ob = &m->objs[rk[i].i];
		const struct sa_once *x = ob->ext;
		struct sa_cell *c = sa_table_row(t);
		if (!c)
			break;
		sa_set_i(&c[0], m->procs[ob->proc].vpid);
		sa_cell_str(&c[1], sa_proc_name(m, ob->proc));
		sa_set_u(&c[2], ob->addr);
		sa_set_u(&c[3], ob->instance);
		if (ob->caller)
			sa_set_u(&c[4], ob->caller);
		if (x->routine)
			sa_set_u(&c[5], x->routine);
		if (x->completed) {
			sa_set_i(&c[6], x->runner);
			sa_cell_str(&c[7], thread_name(m, ob->proc, x->runner));
			sa_set_u(&c[8], x->run_done_ns);
		}
		sa_set_u(&c[9], x->runs);
		sa_set_u(&c[10], x->completed);
		sa_set_u(&c[11], x->cancelled);
		if (x->cancelled)
			sa_set_i(&c[12], x->cancelled_runner);
		sa_set_u(&c[13], x->run.sum);
		sa_set_u(&c[14], x->waits);
		sa_set_u(&c[15], x->max_sleeping);
		sa_set_u(&c[16], x->wait.sum);
		if (x->wait.n) {
			sa_set_u(&c[17], x->wait.sum / x->wait.n);
			sa_set_u(&c[18], x->wait.max);
		}
		sa_set_u(&c[19], x->woken);
		sa_set_u(&c[20], (uint64_t)x->running);
		char site[512];
		if (t->ncols > 21 && x->routine &&
		    sa_symbols_addr(m, m->procs[ob->proc].trace, m->procs[ob->proc].vpid, x->routine,
				    site, sizeof(site)))
			sa_cell_str(&c[21], site);
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
#endif

void sa_barriers_build(const struct sa_model *m, const struct sa_report_opts *o,
		       struct sa_report *r)
{
	(void)m, (void)o, (void)r;
#if SA_HAVE_barrier
	barriers(m, o, r);
#endif
#if SA_HAVE_once
	onces(m, o, r);
#endif
}
