/* Spin: per object, spin loops, how they ended, iterations, time spinning
 * against time sleeping; and what that says about SYNCTRACE_SPIN. Then the
 * what-if replay (spin.plan): per object and wait kind, and over all of
 * them, what each setting of the ladder would have done (sa_spin_replay.h). */
#include <stdlib.h>
#include <string.h>

#include "sa_report_util.h"
#include "sa_spin_replay.h"
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

enum {
	P_GROUP, P_KIND, P_ID, P_SETTING = P_ID + SA_ID_N, P_CHOSEN, P_WAITS, P_SPUN, P_SLEEPS,
	P_SLEEPS_CHANGE, P_SPIN_NS, P_WAIT_NS, P_WAIT_CHANGE, P_WAIT_MEAN, P_N
};
static const struct sa_col plan_cols[P_N] = {
	[P_GROUP] = { "group", "#", SA_COL_U64, 0, 0 },
	[P_KIND] = { "wait_kind", "waited for", SA_COL_STR, 0, 0 },
	SA_ID_COLS(P_ID),
	[P_SETTING] = { "setting", "SYNCTRACE_SPIN", SA_COL_STR, 0, 0 },
	[P_CHOSEN] = { "recommended", "rec", SA_COL_BOOL, 0, 0 },
	[P_WAITS] = { "waits", "waits", SA_COL_U64, 0, 0 },
	[P_SPUN] = { "spun", "spun", SA_COL_U64, 0, 0 },
	[P_SLEEPS] = { "futex_waits", "futex waits", SA_COL_U64, 0, 0 },
	[P_SLEEPS_CHANGE] = { "futex_waits_change", "change", SA_COL_I64, 0, 0 },
	[P_SPIN_NS] = { "spin_ns", "spin CPU", SA_COL_NS, 0, 0 },
	[P_WAIT_NS] = { "wait_ns", "wait", SA_COL_NS, 0, 0 },
	[P_WAIT_CHANGE] = { "wait_change_ns", "wait change", SA_COL_I64, 0, 0 },
	[P_WAIT_MEAN] = { "wait_mean_ns", "mean", SA_COL_NS, 0, 0 },
};

struct plan_want {
	const struct sa_model *m;
	uint32_t row;
	enum sa_wait_kind kind;
};

static int want_group(const struct sa_sr_acc *a, void *ctx)
{
	const struct plan_want *w = ctx;
	return sa_model_row(w->m, a->oi) == w->row && a->kind == w->kind;
}

static void plan_row(struct sa_table *t, const struct sa_model *m, uint64_t group, int oi,
		     const char *kind, const char *setting, int chosen, uint64_t waits,
		     const struct sa_sr_total *p, const struct sa_sr_eval *ev)
{
	struct sa_cell *c = sa_table_row(t);
	if (!c)
		return;
	sa_set_u(&c[P_GROUP], group);
	sa_cell_str(&c[P_KIND], kind);
	if (oi >= 0)
		sa_id_fill(m, (uint32_t)oi, &c[P_ID]);
	else
		sa_cell_str(&c[P_ID + SA_ID_NAME], "(every object)");
	sa_cell_str(&c[P_SETTING], setting);
	c[P_CHOSEN].null = 0;
	c[P_CHOSEN].u = chosen;
	sa_set_u(&c[P_WAITS], waits);
	sa_set_u(&c[P_SPUN], p->spun);
	sa_set_u(&c[P_SLEEPS], p->sleeps);
	sa_set_i(&c[P_SLEEPS_CHANGE], (int64_t)p->sleeps - (int64_t)ev->rec_sleeps);
	sa_set_u(&c[P_SPIN_NS], p->spin_ns);
	sa_set_u(&c[P_WAIT_NS], p->wait_ns);
	sa_set_i(&c[P_WAIT_CHANGE], (int64_t)p->wait_ns - (int64_t)ev->rec_wait_ns);
	if (waits)
		sa_set_u(&c[P_WAIT_MEAN], p->wait_ns / waits);
}

/* One group's rows: as recorded, then the settings up to its last useful
 * rung (at least the default count's). */
static void plan_group(struct sa_table *t, const struct sa_model *m, uint64_t group, int oi,
		       const char *kind, const struct sa_sr_eval *ev)
{
	struct sa_sr_total rec = { ev->rec_spun, ev->rec_sleeps, ev->rec_spin_ns, ev->rec_wait_ns,
				   0 };
	char name[32];
	unsigned last = ev->last_rung < 2 ? 2 : ev->last_rung;
	plan_row(t, m, group, oi, kind, "(recorded)", 0, ev->waits, &rec, ev);
	for (unsigned s = 0; s < SA_SR_N; s++) {
		unsigned rung = s >= SA_SR_FULL0 ? s - SA_SR_FULL0 : s - SA_SR_BAIL0;
		if (s != SA_SR_NONE && s != SA_SR_DEFAULT && rung > last)
			continue;
		plan_row(t, m, group, oi, kind, sa_sr_name(s, name, sizeof(name)), s == ev->rec,
			 ev->waits, &ev->s[s], ev);
	}
}

void sa_spin_plan_build(const struct sa_model *m, const struct sa_report_opts *o,
			struct sa_report *r)
{
	struct sa_table *t = sa_report_table(r, "spin.plan", "What-if spin replay", plan_cols,
					     P_N);
	if (!t)
		return;
	t->flags = SA_TAB_WIDE;
	struct sa_sr_eval all;
	sa_spin_replay_eval(m, NULL, NULL, &all);
	if (!all.waits) {
		sa_table_note(t, "no wait to replay (no contended wait ended in the trace)");
		return;
	}
	plan_group(t, m, 0, -1, "all", &all);
	/* The groups: (row, kind) of every accumulator, largest recorded
	 * wait first. */
	struct sa_rank *g = NULL;
	uint32_t n = 0, cap = 0;
	for (uint32_t oi = 0; oi < m->nobjs; oi++)
		for (const struct sa_sr_acc *a = sa_spin_replay_accs(m, oi); a; a = a->next) {
			if (!a->waits || sa_model_row(m, oi) != oi)
				continue;
			if (n == cap) {
				struct sa_rank *x = realloc(g, (cap = cap ? 2 * cap : 16) * sizeof(*g));
				if (!x)
					break;
				g = x;
			}
			g[n++] = (struct sa_rank){ oi * (uint32_t)SA_WAIT_NKINDS + a->kind,
						   a->rec_wait_ns };
		}
	qsort(g, n, sizeof(*g), sa_rank_desc);
	uint32_t shown = 0;
	for (uint32_t i = 0; i < n && (!o->top || i < o->top); i++, shown++) {
		struct plan_want w = { m, g[i].i / SA_WAIT_NKINDS, g[i].i % SA_WAIT_NKINDS };
		struct sa_sr_eval ev;
		sa_spin_replay_eval(m, want_group, &w, &ev);
		plan_group(t, m, i + 1, (int)w.row, sa_wait_kind_name(w.kind), &ev);
	}
	free(g);
	if (shown < n)
		sa_table_note(t, "%u of %u objects shown (--top)", shown, n);
	char a[32], b[32];
	sa_table_note(t, "%llu waits replayed (%llu timed out, not replayed); a pause took %.1f ns%s; "
		      "wake latency %s%s", (unsigned long long)all.waits,
		      (unsigned long long)all.timeouts,
		      sa_spin_replay_pause_ns(m) > 0 ? sa_spin_replay_pause_ns(m) : SA_SR_PAUSE_NS,
		      sa_spin_replay_pause_ns(m) > 0 ? "" : " (assumed: no loop of 16 or more)",
		      sa_fmt_ns(a, sizeof(a), (double)all.wake_ns),
		      all.wake_assumed ? " (assumed: no wait that slept once had its release traced before its end)" : " (median, waits that slept once)");
	if (all.no_wake || all.approx)
		sa_table_note(t, "%llu waits slept with no wake traced after their spin, %llu with "
			      "their first wake out of the ring: their free moment is their end "
			      "(late, at the contention level)", (unsigned long long)all.no_wake,
			      (unsigned long long)all.approx);
	if (all.overloaded)
		sa_table_note(t, "woken threads waited %s (median) for a CPU: a loaded machine, "
			      "where spinning competes with the thread waited for; the replay does "
			      "not see that, so no setting spinning more than the default is "
			      "recommended", sa_fmt_ns(b, sizeof(b), (double)all.wake_ns));
	sa_table_note(t, "recommended: %s%s (confidence %s; best %s, next %s %.1f %% "
		      "worse; free within %s at the longest)",
		      all.rec == SA_SR_DEFAULT ? "SYNCTRACE_SPIN unset" : "SYNCTRACE_SPIN=",
		      all.rec == SA_SR_DEFAULT ? "" : sa_sr_name(all.rec, a, sizeof(a)),
		      all.confidence, sa_sr_name(all.best, b, sizeof(b)),
		      sa_sr_name(all.second, (char[32]){ 0 }, 32), 100.0 * all.gap,
		      sa_fmt_ns((char[32]){ 0 }, 32, (double)all.free_max_ns));
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
	sa_spin_plan_build(m, o, r);
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
