/* Spin: per object, spin loops, how they ended, iterations, time spinning
 * against time sleeping; and what that says about SYNCTRACE_SPIN. */
#include <stdlib.h>
#include <string.h>

#include "sa_report_util.h"
#include "sa_verdicts.h"

enum {
	S_ID, S_LOOPS = S_ID + SA_ID_N, S_ACQUIRED, S_GAVE_UP, S_SAW_WAITERS, S_SUCCESS_RATE,
	S_ITERATIONS_MEAN, S_ITERATIONS_P50, S_ITERATIONS_MAX, S_SPIN_NS, S_SLEEP_NS,
	S_SPIN_SHARE, S_MODES, S_ITERATIONS_LOG2_HIST, S_N
};
static const struct sa_col cols[S_N] = {
	SA_ID_COLS(S_ID),
	[S_LOOPS] = { "loops", "loops", SA_COL_U64, 0, 0 },
	[S_ACQUIRED] = { "acquired", "acquired", SA_COL_U64, 0, 0 },
	[S_GAVE_UP] = { "gave_up", "gave up", SA_COL_U64, SA_COL_WIDE, 0 },
	[S_SAW_WAITERS] = { "saw_waiters", "saw waiters", SA_COL_U64, SA_COL_WIDE, 0 },
	[S_SUCCESS_RATE] = { "success_rate", "success", SA_COL_PCT, 0, 0 },
	[S_ITERATIONS_MEAN] = { "iterations_mean", "iter mean", SA_COL_F64, SA_COL_WIDE, 0 },
	[S_ITERATIONS_P50] = { "iterations_p50", "iter p50", SA_COL_U64, SA_COL_WIDE, 0 },
	[S_ITERATIONS_MAX] = { "iterations_max", "iter max", SA_COL_U64, SA_COL_WIDE, 0 },
	[S_SPIN_NS] = { "spin_ns", "spinning", SA_COL_NS, 0, 0 },
	[S_SLEEP_NS] = { "sleep_ns", "sleeping", SA_COL_NS, 0, 0 },
	[S_SPIN_SHARE] = { "spin_share", "spin%", SA_COL_PCT, 0, 0 },
	[S_MODES] = { "modes", "modes", SA_COL_STR, SA_COL_WIDE, 0 },
	[S_ITERATIONS_LOG2_HIST] = { "iterations_log2_hist", "iterations log2 histogram", SA_COL_HIST, SA_COL_WIDE, 0 },
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
					     S_N);
	struct sa_rank *rows = malloc((m->nobjs + 1) * sizeof(*rows));
	if (!t || !rows) {
		free(rows);
		return;
	}
	t->flags = SA_TAB_WIDE;
	uint32_t n = 0;
	uint64_t loops = 0, ok = 0, sat = 0, gave = 0, spin_ns = 0, sleep_ns = 0;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const struct sa_object *ob = &m->objs[i];
		if (!ob->sp_loops || !ob->instances)
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
		sa_id_fill(m, rows[i].i, &c[S_ID]);
		sa_set_u(&c[S_LOOPS], ob->sp_loops);
		sa_set_u(&c[S_ACQUIRED], ob->sp_acquired);
		sa_set_u(&c[S_GAVE_UP], ob->sp_gave_up);
		sa_set_u(&c[S_SAW_WAITERS], ob->sp_saw_waiters);
		sa_set_f(&c[S_SUCCESS_RATE], (double)ob->sp_acquired / (double)ob->sp_loops);
		sa_set_f(&c[S_ITERATIONS_MEAN], (double)ob->sp_iter.sum / (double)ob->sp_iter.n);
		sa_set_u(&c[S_ITERATIONS_P50], sa_dist_pct(&ob->sp_iter, 0.5));
		sa_set_u(&c[S_ITERATIONS_MAX], ob->sp_iter.max);
		sa_set_u(&c[S_SPIN_NS], ob->sp_ns);
		sa_set_u(&c[S_SLEEP_NS], ob->fx_slept_ns);
		if (ob->sp_ns + ob->fx_slept_ns)
			sa_set_f(&c[S_SPIN_SHARE], (double)ob->sp_ns / (double)(ob->sp_ns + ob->fx_slept_ns));
		sa_cell_str(&c[S_MODES], modes);
		sa_set_hist(&c[S_ITERATIONS_LOG2_HIST], &ob->sp_iter);
	}
	if (n > t->nrows)
		sa_table_note(t, "%u of %u objects shown (--top)", t->nrows, n);
	struct sa_spin_verdict v;
	sa_spin_verdict(m, &v);
	if (loops) {
		sa_table_note(t, "%llu spin loops: %.1f %% acquired, %.1f %% gave up at the "
			      "limit, %.1f %% stopped on seeing sleepers; %.1f %% of the time "
			      "spent waiting was spinning",
			      (unsigned long long)loops, 100.0 * ok / loops, 100.0 * gave / loops,
			      100.0 * sat / loops,
			      spin_ns + sleep_ns ? 100.0 * spin_ns / (spin_ns + sleep_ns) : 0.0);
		static const char *const say[] = {
			[SA_SPIN_BAILS] = "verdict: most loops bail out on seeing sleepers; "
					  "SYNCTRACE_SPIN=full may acquire more while spinning",
			[SA_SPIN_FAILS] = "verdict: most loops spin to the limit and fail; "
					  "spinning costs CPU here without avoiding sleeps "
					  "(try a smaller limit or SYNCTRACE_SPIN=none)",
			[SA_SPIN_PAYS] = "verdict: spinning pays: most loops acquire before the limit",
			[SA_SPIN_MIXED] = "verdict: mixed: no outcome has a majority of the "
					  "loops; see each object's success and spin%",
		};
		sa_table_note(t, "%s", say[v.code]);
	} else {
		sa_table_note(t, "no spin loops in the trace (SYNCTRACE_SPIN=none, or no "
			      "contention)");
	}
	free(rows);
}

void sa_spin_verdict(const struct sa_model *m, struct sa_spin_verdict *v)
{
	static const char *const names[] = { [SA_SPIN_NO_LOOPS] = "no_loops",
		[SA_SPIN_BAILS] = "bails", [SA_SPIN_FAILS] = "fails", [SA_SPIN_PAYS] = "pays",
		[SA_SPIN_MIXED] = "mixed" };
	memset(v, 0, sizeof(*v));
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const struct sa_object *ob = &m->objs[i];
		if (!ob->sp_loops)
			continue;
		v->loops += ob->sp_loops;
		v->acquired += ob->sp_acquired;
		v->gave_up += ob->sp_gave_up;
		v->saw_waiters += ob->sp_saw_waiters;
		v->spin_ns += ob->sp_ns;
		v->sleep_ns += ob->fx_slept_ns;
	}
	uint64_t n = v->loops;
	if (!n)
		v->code = SA_SPIN_NO_LOOPS;
	else if (v->saw_waiters > v->acquired && v->saw_waiters * 2 > n)
		v->code = SA_SPIN_BAILS, v->try_ = "SYNCTRACE_SPIN=full";
	else if (v->acquired * 2 < n && v->gave_up * 2 > n)
		v->code = SA_SPIN_FAILS, v->try_ = "SYNCTRACE_SPIN=none";
	else if (v->acquired * 2 > n)
		v->code = SA_SPIN_PAYS;
	else
		v->code = SA_SPIN_MIXED;
	v->name = names[v->code];
}
