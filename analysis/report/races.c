/* Races, per condvar: waits, signals, timeouts, cancellations, the
 * WAITING→LEAVING transitions a signaler met, and what they cost — the
 * evidence the 2014 seed asked for. Built only with the cond family. */
#include <stdlib.h>

#include "sa_config.h"
#include "sa_report.h"

#if SA_HAVE_cond
#include "sa_cond.h"

static const struct sa_col cols[] = {
	{ "vpid", "pid", SA_COL_I64 },
	{ "procname", "process", SA_COL_STR },
	{ "address", "address", SA_COL_HEX },
	{ "instance", "inst", SA_COL_U64 },
	{ "caller", "first call site", SA_COL_HEX },
	{ "waits", "waits", SA_COL_U64 },
	{ "timed_waits", "timed", SA_COL_U64 },
	{ "signals", "signals", SA_COL_U64 },
	{ "broadcasts", "broadcasts", SA_COL_U64 },
	{ "signaled_waiters", "signaled", SA_COL_U64 },
	{ "timeouts", "timeouts", SA_COL_U64 },
	{ "cancellations", "cancels", SA_COL_U64 },
	{ "leaving", "leaving", SA_COL_U64 },
	{ "races", "met leaving", SA_COL_U64 },
	{ "races_per_1000_signals", "per 1k sig", SA_COL_F64 },
	{ "signaler_wait_ns", "signaler wait", SA_COL_U64 },
	{ "waiter_wait_ns", "waiter wait", SA_COL_U64 },
	{ "relock_ns", "relock", SA_COL_U64 },
	{ "race_share_of_wait", "race%", SA_COL_PCT },
	{ "spurious", "spurious", SA_COL_U64 },
	{ "relock_contended", "relock blocked", SA_COL_U64 },
	{ "herd_max", "herd max", SA_COL_U64 },
	{ "verdict", "verdict", SA_COL_STR },
};

void sa_races_build(const struct sa_model *m, const struct sa_report_opts *o,
		    struct sa_report *r)
{
	struct sa_table *t = sa_report_table(r, "races.condvars", "Races per condvar", cols,
					     SA_N(cols));
	struct sa_rank *rows = malloc((m->nobjs + 1) * sizeof(*rows));
	if (!t || !rows) {
		free(rows);
		return;
	}
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const struct sa_object *ob = &m->objs[i];
		const struct sa_cond *c = ob->ext;
		if (ob->type == SA_OBJ_COND && c)
			rows[n++] = (struct sa_rank){ i, c->ref_wait_ns * 4096 + c->met_leaving +
							      c->waits };
	}
	qsort(rows, n, sizeof(*rows), sa_rank_desc);
	for (uint32_t i = 0; i < n && (!o->top || i < o->top); i++) {
		const struct sa_object *ob = &m->objs[rows[i].i];
		const struct sa_cond *c = ob->ext;
		struct sa_cell *x = sa_table_row(t);
		char verdict[160];
		if (!x)
			break;
		uint64_t sig = c->signals + c->broadcasts;
		uint64_t all = c->ref_wait_ns + c->wait.sum + c->relock_ns;
		double share = all ? (double)c->ref_wait_ns / (double)all : 0.0;
		sa_set_i(&x[0], m->procs[ob->proc].vpid);
		sa_cell_str(&x[1], sa_proc_name(m, ob->proc));
		sa_set_u(&x[2], ob->addr);
		sa_set_u(&x[3], ob->instance);
		if (ob->caller)
			sa_set_u(&x[4], ob->caller);
		sa_set_u(&x[5], c->waits);
		sa_set_u(&x[6], c->timed_waits);
		sa_set_u(&x[7], c->signals);
		sa_set_u(&x[8], c->broadcasts);
		sa_set_u(&x[9], c->moved);
		sa_set_u(&x[10], c->woke[ST_COND_WOKE_TIMEDOUT]);
		sa_set_u(&x[11], c->woke[ST_COND_WOKE_CANCELLED] + c->woke[ST_COND_WOKE_CANCELLED_SIGNALED]);
		sa_set_u(&x[12], c->leaving);
		sa_set_u(&x[13], c->met_leaving);
		if (sig)
			sa_set_f(&x[14], 1000.0 * (double)c->met_leaving / (double)sig);
		sa_set_u(&x[15], c->ref_wait_ns);
		sa_set_u(&x[16], c->wait.sum);
		sa_set_u(&x[17], c->relock_ns);
		if (all)
			sa_set_f(&x[18], share);
		sa_set_u(&x[19], c->spurious);
		sa_set_u(&x[20], c->relock_contended);
		if (c->herd.n)
			sa_set_u(&x[21], c->herd.max);
		if (!c->leaving)
			snprintf(verdict, sizeof(verdict), "no waiter timed out or was cancelled: "
				 "no race possible here");
		else if (!c->met_leaving)
			snprintf(verdict, sizeof(verdict), "%llu waiters left, none met a "
				 "signaler: the race never happened",
				 (unsigned long long)c->leaving);
		else
			snprintf(verdict, sizeof(verdict), "timeout races cost %.3g %% of wait "
				 "time here (%llu races in %llu signals)", 100.0 * share,
				 (unsigned long long)c->met_leaving, (unsigned long long)sig);
		sa_cell_str(&x[22], verdict);
	}
	if (n > t->nrows)
		sa_table_note(t, "%u of %u condvars shown (--top)", t->nrows, n);
	sa_table_note(t, "race: a signaler met a waiter already LEAVING (timed out or "
		      "cancelled) and waited for it to unlink; race%% = signalers' waiting "
		      "time / (waiters' wait + relock + signalers' waiting time)");
	free(rows);
}

#else

void sa_races_build(const struct sa_model *m, const struct sa_report_opts *o,
		    struct sa_report *r)
{
	(void)m;
	(void)o;
	(void)r; /* no condvar provider in this build */
}

#endif
