/* Races, per condvar: waits, signals, timeouts, cancellations, the
 * WAITING→LEAVING transitions a signaler met, and what they cost — the
 * evidence of whether timeout races matter. */
#include <stdlib.h>
#include <string.h>

#include "sa_report_util.h"
#include "sa_verdicts.h"

#include "sa_cond.h"

enum {
	R_ID, R_CALLER = R_ID + SA_ID_N, R_WAITS, R_TIMED_WAITS, R_SIGNALS, R_BROADCASTS,
	R_SIGNALED_WAITERS, R_TIMEOUTS, R_CANCELLATIONS, R_LEAVING, R_RACES,
	R_RACES_PER_1000_SIGNALS, R_SIGNALER_WAIT_NS, R_WAITER_WAIT_NS, R_RELOCK_NS,
	R_RACE_SHARE_OF_WAIT, R_SPURIOUS, R_RELOCK_CONTENDED, R_HERD_MAX, R_VERDICT, R_VERDICT_CODE, R_N
};
static const struct sa_col cols[R_N] = {
	SA_ID_COLS(R_ID),
	[R_CALLER] = { "caller", "first call site", SA_COL_HEX, SA_COL_WIDE, 0 },
	[R_WAITS] = { "waits", "waits", SA_COL_U64, 0, 0 },
	[R_TIMED_WAITS] = { "timed_waits", "timed", SA_COL_U64, SA_COL_WIDE, 0 },
	[R_SIGNALS] = { "signals", "signals", SA_COL_U64, 0, 0 },
	[R_BROADCASTS] = { "broadcasts", "broadcasts", SA_COL_U64, SA_COL_WIDE, 0 },
	[R_SIGNALED_WAITERS] = { "signaled_waiters", "signaled", SA_COL_U64, 0, 0 },
	[R_TIMEOUTS] = { "timeouts", "timeouts", SA_COL_U64, 0, 0 },
	[R_CANCELLATIONS] = { "cancellations", "cancels", SA_COL_U64, SA_COL_WIDE, 0 },
	[R_LEAVING] = { "leaving", "leaving", SA_COL_U64, SA_COL_WIDE, 0 },
	[R_RACES] = { "races", "met leaving", SA_COL_U64, 0, 0 },
	[R_RACES_PER_1000_SIGNALS] = { "races_per_1000_signals", "per 1k sig", SA_COL_F64, SA_COL_WIDE, 0 },
	[R_SIGNALER_WAIT_NS] = { "signaler_wait_ns", "signaler wait", SA_COL_NS, SA_COL_WIDE, 0 },
	[R_WAITER_WAIT_NS] = { "waiter_wait_ns", "waiter wait", SA_COL_NS, 0, 0 },
	[R_RELOCK_NS] = { "relock_ns", "relock", SA_COL_NS, SA_COL_WIDE, 0 },
	[R_RACE_SHARE_OF_WAIT] = { "race_share_of_wait", "race%", SA_COL_PCT, 0, 0 },
	[R_SPURIOUS] = { "spurious", "spurious", SA_COL_U64, SA_COL_WIDE, 0 },
	[R_RELOCK_CONTENDED] = { "relock_contended", "relock blocked", SA_COL_U64, SA_COL_WIDE, 0 },
	[R_HERD_MAX] = { "herd_max", "herd max", SA_COL_U64, SA_COL_WIDE, 0 },
	[R_VERDICT] = { "verdict", "verdict", SA_COL_STR, 0, 0 },
	[R_VERDICT_CODE] = { "verdict_code", "code", SA_COL_STR, SA_COL_WIDE, 0 }, /* sa_verdicts.h */
};

void sa_races_build(const struct sa_model *m, const struct sa_report_opts *o,
		    struct sa_report *r)
{
	struct sa_table *t = sa_report_table(r, "races.condvars", "Races per condvar", cols,
					     R_N);
	struct sa_rank *rows = malloc((m->nobjs + 1) * sizeof(*rows));
	if (!t || !rows) {
		free(rows);
		return;
	}
	t->flags = SA_TAB_WIDE;
	t->minor = 3; /* verdict_code */
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const struct sa_object *ob = &m->objs[i];
		const struct sa_cond *c = ob->ext;
		if (ob->type == SA_OBJ_COND && c && ob->instances)
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
		sa_id_fill(m, rows[i].i, &x[R_ID]);
		if (ob->caller)
			sa_set_u(&x[R_CALLER], ob->caller);
		sa_set_u(&x[R_WAITS], c->waits);
		sa_set_u(&x[R_TIMED_WAITS], c->timed_waits);
		sa_set_u(&x[R_SIGNALS], c->signals);
		sa_set_u(&x[R_BROADCASTS], c->broadcasts);
		sa_set_u(&x[R_SIGNALED_WAITERS], c->moved);
		sa_set_u(&x[R_TIMEOUTS], c->woke[SA_WOKE_TIMEDOUT]);
		sa_set_u(&x[R_CANCELLATIONS], c->woke[SA_WOKE_CANCELLED] + c->woke[SA_WOKE_CANCEL_SIGNALED]);
		sa_set_u(&x[R_LEAVING], c->leaving);
		sa_set_u(&x[R_RACES], c->met_leaving);
		if (sig)
			sa_set_f(&x[R_RACES_PER_1000_SIGNALS], 1000.0 * (double)c->met_leaving / (double)sig);
		sa_set_u(&x[R_SIGNALER_WAIT_NS], c->ref_wait_ns);
		sa_set_u(&x[R_WAITER_WAIT_NS], c->wait.sum);
		sa_set_u(&x[R_RELOCK_NS], c->relock_ns);
		if (all)
			sa_set_f(&x[R_RACE_SHARE_OF_WAIT], share);
		sa_set_u(&x[R_SPURIOUS], c->spurious);
		sa_set_u(&x[R_RELOCK_CONTENDED], c->relock_contended);
		if (c->herd.n)
			sa_set_u(&x[R_HERD_MAX], c->herd.max);
		struct sa_race_verdict v;
		sa_race_verdict(m, rows[i].i, &v);
		if (v.code == SA_RACE_NONE_POSSIBLE)
			snprintf(verdict, sizeof(verdict), "no waiter timed out or was cancelled: "
				 "no race possible here");
		else if (v.code == SA_RACE_NEVER)
			snprintf(verdict, sizeof(verdict), "%llu waiters left, none met a "
				 "signaler: the race never happened",
				 (unsigned long long)c->leaving);
		else
			snprintf(verdict, sizeof(verdict), "timeout races cost %.3g %% of wait "
				 "time here (%llu races in %llu signals)", 100.0 * share,
				 (unsigned long long)c->met_leaving, (unsigned long long)sig);
		sa_cell_str(&x[R_VERDICT], verdict);
		sa_cell_str(&x[R_VERDICT_CODE], v.name);
	}
	if (n > t->nrows)
		sa_table_note(t, "%u of %u condvars shown (--top)", t->nrows, n);
	sa_table_note(t, "race: a signaler met a waiter already LEAVING (timed out or "
		      "cancelled) and waited for it to unlink; race%% = signalers' waiting "
		      "time / (waiters' wait + relock + signalers' waiting time)");
	free(rows);
}

void sa_race_verdict(const struct sa_model *m, uint32_t obj, struct sa_race_verdict *v)
{
	static const char *const names[] = { [SA_RACE_NONE_POSSIBLE] = "none_possible",
		[SA_RACE_NEVER] = "never", [SA_RACE_COST] = "cost" };
	memset(v, 0, sizeof(*v));
	for (uint32_t i = obj < m->nobjs ? obj : 0; i < m->nobjs; i++) {
		const struct sa_object *ob = &m->objs[i];
		const struct sa_cond *c = ob->ext;
		if (ob->type == SA_OBJ_COND && c) {
			v->condvars++;
			v->leaving += c->leaving;
			v->races += c->met_leaving;
			v->signals += c->signals + c->broadcasts;
			v->race_ns += c->ref_wait_ns;
			v->wait_ns += c->wait.sum + c->relock_ns;
		}
		if (obj < m->nobjs)
			break;
	}
	v->code = !v->leaving ? SA_RACE_NONE_POSSIBLE : !v->races ? SA_RACE_NEVER : SA_RACE_COST;
	v->name = names[v->code];
	if (v->race_ns + v->wait_ns)
		v->share = (double)v->race_ns / (double)(v->race_ns + v->wait_ns);
}
