/* Spin: per object, spin loops, how they ended, iterations, time spinning
 * against time sleeping; and what that says about SYNCTRACE_SPIN. */
#include <stdlib.h>
#include <string.h>

#include "sa_report.h"

static const struct sa_col cols[] = {
	{ "type", "type", SA_COL_STR },
	{ "vpid", "pid", SA_COL_I64 },
	{ "procname", "process", SA_COL_STR },
	{ "address", "address", SA_COL_HEX },
	{ "instance", "inst", SA_COL_U64 },
	{ "loops", "loops", SA_COL_U64 },
	{ "acquired", "acquired", SA_COL_U64 },
	{ "gave_up", "gave up", SA_COL_U64 },
	{ "saw_waiters", "saw waiters", SA_COL_U64 },
	{ "success_rate", "success", SA_COL_PCT },
	{ "iterations_mean", "iter mean", SA_COL_F64 },
	{ "iterations_p50", "iter p50", SA_COL_U64 },
	{ "iterations_max", "iter max", SA_COL_U64 },
	{ "spin_ns", "spinning (ns)", SA_COL_U64 },
	{ "sleep_ns", "sleeping (ns)", SA_COL_U64 },
	{ "spin_share", "spin%", SA_COL_PCT },
	{ "modes", "modes", SA_COL_STR },
	{ "iterations_log2_hist", "iterations log2 histogram", SA_COL_HIST },
};

static const char *mode_name(int mode)
{
	const char *s = st_spin_mode_name(mode);
	return s ? s : "?";
}

void sa_spin_build(const struct sa_model *m, const struct sa_report_opts *o,
		   struct sa_report *r)
{
	struct sa_table *t = sa_report_table(r, "spin.objects", "Spinning per object", cols,
					     SA_N(cols));
	struct sa_rank *rows = malloc((m->nobjs + 1) * sizeof(*rows));
	if (!t || !rows) {
		free(rows);
		return;
	}
	uint32_t n = 0;
	uint64_t loops = 0, ok = 0, sat = 0, gave = 0, spin_ns = 0, sleep_ns = 0;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const struct sa_object *ob = &m->objs[i];
		if (!ob->sp_loops)
			continue;
		rows[n++] = (struct sa_rank){ i, ob->sp_loops };
		loops += ob->sp_loops;
		ok += ob->sp_acquired;
		sat += ob->sp_saw_waiters;
		gave += ob->sp_gave_up;
		spin_ns += ob->sp_ns;
		sleep_ns += ob->fx_slept_ns;
	}
	qsort(rows, n, sizeof(*rows), sa_rank_desc);
	for (uint32_t i = 0; i < n && (!o->top || i < o->top); i++) {
		const struct sa_object *ob = &m->objs[rows[i].i];
		struct sa_cell *c = sa_table_row(t);
		char modes[32] = "";
		if (!c)
			break;
		for (int k = 0; k < ST_SPIN_MODE_N; k++)
			if (ob->sp_modes & (1u << k))
				snprintf(modes + strlen(modes), sizeof(modes) - strlen(modes), "%s%s",
					 modes[0] ? "," : "", mode_name(k));
		sa_cell_str(&c[0], sa_obj_type_name(ob->type));
		sa_set_i(&c[1], m->procs[ob->proc].vpid);
		sa_cell_str(&c[2], sa_proc_name(m, ob->proc));
		sa_set_u(&c[3], ob->addr);
		sa_set_u(&c[4], ob->instance);
		sa_set_u(&c[5], ob->sp_loops);
		sa_set_u(&c[6], ob->sp_acquired);
		sa_set_u(&c[7], ob->sp_gave_up);
		sa_set_u(&c[8], ob->sp_saw_waiters);
		sa_set_f(&c[9], (double)ob->sp_acquired / (double)ob->sp_loops);
		sa_set_f(&c[10], (double)ob->sp_iter.sum / (double)ob->sp_iter.n);
		sa_set_u(&c[11], sa_dist_pct(&ob->sp_iter, 0.5));
		sa_set_u(&c[12], ob->sp_iter.max);
		sa_set_u(&c[13], ob->sp_ns);
		sa_set_u(&c[14], ob->fx_slept_ns);
		if (ob->sp_ns + ob->fx_slept_ns)
			sa_set_f(&c[15], (double)ob->sp_ns / (double)(ob->sp_ns + ob->fx_slept_ns));
		sa_cell_str(&c[16], modes);
		sa_set_hist(&c[17], &ob->sp_iter);
	}
	if (n > t->nrows)
		sa_table_note(t, "%u of %u objects shown (--top)", t->nrows, n);
	if (loops) {
		sa_table_note(t, "%llu spin loops: %.1f %% acquired, %.1f %% gave up at the "
			      "limit, %.1f %% stopped on seeing sleepers; %.1f %% of the time "
			      "spent waiting was spinning",
			      (unsigned long long)loops, 100.0 * ok / loops, 100.0 * gave / loops,
			      100.0 * sat / loops,
			      spin_ns + sleep_ns ? 100.0 * spin_ns / (spin_ns + sleep_ns) : 0.0);
		if (sat > ok && sat * 2 > loops)
			sa_table_note(t, "verdict: most loops bail out on seeing sleepers; "
				      "SYNCTRACE_SPIN=full may acquire more while spinning "
				      "(the 2015 seed's finding under load)");
		else if (ok * 2 < loops && gave * 2 > loops)
			sa_table_note(t, "verdict: most loops spin to the limit and fail; "
				      "spinning costs CPU here without avoiding sleeps "
				      "(try a smaller limit or SYNCTRACE_SPIN=none)");
		else if (ok * 2 > loops)
			sa_table_note(t, "verdict: spinning pays: most loops acquire before "
				      "the limit");
		else
			sa_table_note(t, "verdict: mixed: no outcome has a majority of the "
				      "loops; see each object's success and spin%%");
	} else {
		sa_table_note(t, "no spin loops in the trace (SYNCTRACE_SPIN=none, or no "
			      "contention)");
	}
	free(rows);
}
