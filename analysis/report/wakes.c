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

#define N(a) (sizeof(a) / sizeof((a)[0]))

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
}
