/* Wakes: futex wakes issued and wasted, wake-then-block, spurious wakeups,
 * broadcast herd sizes; per object and in total. */
#include <stdlib.h>

#include "sa_report.h"

static const struct sa_col obj_cols[] = {
	{ "type", "type", SA_COL_STR },
	{ "vpid", "pid", SA_COL_I64 },
	{ "procname", "process", SA_COL_STR },
	{ "address", "address", SA_COL_HEX },
	{ "instance", "inst", SA_COL_U64 },
	{ "futex_wakes", "wakes", SA_COL_U64 },
	{ "wasted_wakes", "woke nobody", SA_COL_U64 },
	{ "wasted_share", "wasted%", SA_COL_PCT },
	{ "threads_woken", "woken", SA_COL_U64 },
	{ "futex_waits", "sleeps", SA_COL_U64 },
	{ "returned_woken", "ret woken", SA_COL_U64 },
	{ "returned_eagain", "ret EAGAIN", SA_COL_U64 },
	{ "returned_timedout", "ret TIMEDOUT", SA_COL_U64 },
	{ "returned_eintr", "ret EINTR", SA_COL_U64 },
	{ "wake_then_block", "wake→block", SA_COL_U64 },
	{ "spurious", "spurious", SA_COL_U64 },
	{ "broadcasts", "multi wakes", SA_COL_U64 },
	{ "herd_mean", "herd mean", SA_COL_F64 },
	{ "herd_max", "herd max", SA_COL_U64 },
	{ "requeues", "requeues", SA_COL_U64 },
	{ "requeued", "requeued", SA_COL_U64 },
	{ "slept_ns", "slept (ns)", SA_COL_U64 },
	{ "herd_log2_hist", "herd log2 histogram", SA_COL_HIST },
};

static const struct sa_col total_cols[] = {
	{ "futex_wakes", "wakes", SA_COL_U64 },
	{ "wasted_wakes", "woke nobody", SA_COL_U64 },
	{ "wasted_share", "wasted%", SA_COL_PCT },
	{ "threads_woken", "woken", SA_COL_U64 },
	{ "futex_waits", "sleeps", SA_COL_U64 },
	{ "returned_woken", "ret woken", SA_COL_U64 },
	{ "wake_then_block", "wake→block", SA_COL_U64 },
	{ "spurious", "spurious", SA_COL_U64 },
	{ "broadcasts", "multi wakes", SA_COL_U64 },
	{ "requeues", "requeues", SA_COL_U64 },
	{ "slept_ns", "slept (ns)", SA_COL_U64 },
};

/* Wakeups per unit of work (synctrace_work:done, or --work-event): per
 * process, and per thread of those processes. */
static const struct sa_col work_cols[] = {
	{ "vpid", "pid", SA_COL_I64 },
	{ "procname", "process", SA_COL_STR },
	{ "unit", "unit", SA_COL_STR },
	{ "unit_events", "events", SA_COL_U64 },
	{ "units", "units", SA_COL_U64 },
	{ "futex_wakes", "wakes", SA_COL_U64 },
	{ "threads_woken", "woken", SA_COL_U64 },
	{ "wasted_wakes", "woke nobody", SA_COL_U64 },
	{ "cond_wakeups", "cond wakeups", SA_COL_U64 },
	{ "sem_wakeups", "sem wakeups", SA_COL_U64 },
	{ "futex_wakes_per_unit", "wakes/unit", SA_COL_F64 },
	{ "threads_woken_per_unit", "woken/unit", SA_COL_F64 },
	{ "wasted_wakes_per_unit", "nobody/unit", SA_COL_F64 },
	{ "cond_wakeups_per_unit", "cond/unit", SA_COL_F64 },
	{ "sem_wakeups_per_unit", "sem/unit", SA_COL_F64 },
};

static const struct sa_col work_thread_cols[] = {
	{ "vpid", "pid", SA_COL_I64 },
	{ "vtid", "tid", SA_COL_I64 },
	{ "name", "name", SA_COL_STR },
	{ "units", "units", SA_COL_U64 },
	{ "woken", "was woken", SA_COL_U64 },
	{ "woken_per_unit", "was woken/unit", SA_COL_F64 },
	{ "futex_wakes", "wakes", SA_COL_U64 },
	{ "threads_woken", "woke", SA_COL_U64 },
	{ "wasted_wakes", "woke nobody", SA_COL_U64 },
	{ "cond_wakeups", "cond wakeups", SA_COL_U64 },
	{ "sem_wakeups", "sem wakeups", SA_COL_U64 },
	{ "threads_woken_per_unit", "woke/unit", SA_COL_F64 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

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
					     work_cols, N(work_cols));
	struct sa_table *tt = sa_report_table(r, "wakes.work_threads",
					      "Wakeups per unit of work, per thread",
					      work_thread_cols, N(work_thread_cols));
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
		sa_set_i(&c[0], pr->vpid);
		sa_cell_str(&c[1], pr->procname);
		sa_cell_str(&c[2], unit);
		sa_set_u(&c[3], pr->unit_events);
		sa_set_u(&c[4], pr->units);
		sa_set_u(&c[5], wakes);
		sa_set_u(&c[6], woke);
		sa_set_u(&c[7], wasted);
		sa_set_u(&c[8], cw);
		sa_set_u(&c[9], sw);
		per_unit(&c[10], wakes, pr->units);
		per_unit(&c[11], woke, pr->units);
		per_unit(&c[12], wasted, pr->units);
		per_unit(&c[13], cw, pr->units);
		per_unit(&c[14], sw, pr->units);

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
			sa_set_i(&d[0], pr->vpid);
			sa_set_i(&d[1], th->vtid);
			sa_cell_str(&d[2], th->procname);
			sa_set_u(&d[3], th->units);
			sa_set_u(&d[4], th->fx_woken);
			per_unit(&d[5], th->fx_woken, th->units);
			sa_set_u(&d[6], th->fx_wakes);
			sa_set_u(&d[7], th->fx_woke);
			sa_set_u(&d[8], th->fx_wasted);
			sa_set_u(&d[9], th->cond_wakeups);
			sa_set_u(&d[10], th->sem_wakeups);
			per_unit(&d[11], th->fx_woke, th->units);
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

void sa_wakes_build(const struct sa_model *m, const struct sa_report_opts *o,
		    struct sa_report *r)
{
	struct sa_table *tt = sa_report_table(r, "wakes.total", "Wakes (all objects)",
					      total_cols, N(total_cols));
	struct sa_table *t = sa_report_table(r, "wakes.objects", "Wakes per object", obj_cols,
					     N(obj_cols));
	if (!t || !tt)
		return;
	struct row *rows = malloc((m->nobjs + 1) * sizeof(*rows));
	if (!rows)
		return;
	uint32_t n = 0;
	uint64_t w = 0, wasted = 0, woken = 0, waits = 0, ret = 0, wtb = 0, sp = 0, bc = 0,
		 rq = 0, slept = 0;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const struct sa_object *ob = &m->objs[i];
		if (!ob->fx_wakes && !ob->fx_waits && !ob->fx_requeues)
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
		sa_set_u(&c[0], w);
		sa_set_u(&c[1], wasted);
		if (w)
			sa_set_f(&c[2], (double)wasted / (double)w);
		sa_set_u(&c[3], woken);
		sa_set_u(&c[4], waits);
		sa_set_u(&c[5], ret);
		sa_set_u(&c[6], wtb);
		sa_set_u(&c[7], sp);
		sa_set_u(&c[8], bc);
		sa_set_u(&c[9], rq);
		sa_set_u(&c[10], slept);
	}
	sa_table_note(tt, "woke nobody: FUTEX_WAKE returned 0 (a wasted system call); "
		      "wake→block: a thread woken from a futex wait on an object slept on "
		      "it again before getting past it; spurious: wait returns of 0 beyond "
		      "the wakes issued on that object (a lower bound)");
	for (uint32_t i = 0; i < n && (!o->top || i < o->top); i++) {
		const struct sa_object *ob = &m->objs[rows[i].i];
		if (!(c = sa_table_row(t)))
			break;
		sa_cell_str(&c[0], sa_obj_type_name(ob->type));
		sa_set_i(&c[1], m->procs[ob->proc].vpid);
		sa_cell_str(&c[2], sa_proc_name(m, ob->proc));
		sa_set_u(&c[3], ob->addr);
		sa_set_u(&c[4], ob->instance);
		sa_set_u(&c[5], ob->fx_wakes);
		sa_set_u(&c[6], ob->fx_wasted);
		if (ob->fx_wakes)
			sa_set_f(&c[7], (double)ob->fx_wasted / (double)ob->fx_wakes);
		sa_set_u(&c[8], ob->fx_woken);
		sa_set_u(&c[9], ob->fx_waits);
		sa_set_u(&c[10], ob->fx_woken_ret);
		sa_set_u(&c[11], ob->fx_eagain);
		sa_set_u(&c[12], ob->fx_timedout);
		sa_set_u(&c[13], ob->fx_eintr);
		sa_set_u(&c[14], ob->wake_then_block);
		sa_set_u(&c[15], spurious(ob));
		sa_set_u(&c[16], ob->herd.n);
		if (ob->herd.n) {
			sa_set_f(&c[17], (double)ob->herd.sum / (double)ob->herd.n);
			sa_set_u(&c[18], ob->herd.max);
		}
		sa_set_u(&c[19], ob->fx_requeues);
		sa_set_u(&c[20], ob->fx_requeued);
		sa_set_u(&c[21], ob->fx_slept_ns);
		sa_set_hist(&c[22], &ob->herd);
	}
	if (n > t->nrows)
		sa_table_note(t, "%u of %u objects shown (--top)", t->nrows, n);
	free(rows);
	work_tables(m, o, r);
}
