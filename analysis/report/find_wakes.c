/* Findings of the wake-outcome ledger (kind futile_wakes, doc/wakes.md):
 * for each way a wake buys nothing, the waking call site where it happened
 * most, when it is worth saying. verdict:
 *   futile       condvar waiters woken only to wait again (predicate false)
 *   woke_nobody  wake system calls that found nobody asleep
 *   lost         woken threads that slept again on the object at once
 * Ranked by how many wakes each wasted. */
#include <stdlib.h>
#include <string.h>

#include "sa_findings.h"
#include "sa_symbols.h"

enum { V_FUTILE, V_NOBODY, V_LOST, V_N };

struct worst {
	uint32_t obj;
	const struct sa_wl_entry *e;
	uint64_t n, of;    /* at that site */
	uint64_t all, all_of; /* over the trace */
};

/* How many of what a site wasted in verdict v, out of how many. */
static uint64_t wasted(const struct sa_wl_counts *c, int v, uint64_t *of)
{
	switch (v) {
	case V_FUTILE:
		*of = c->woken;
		return c->out[SA_WL_FUTILE];
	case V_NOBODY:
		*of = c->calls;
		return c->nobody;
	default:
		*of = c->woken;
		return c->out[SA_WL_LOST];
	}
}

/* The threads that waited on condvar obj: how many (at most 2 counted). */
struct cond_waiters {
	uint32_t obj, first, n;
};
static void count_waiter(void *ctx, uint32_t thread, uint32_t obj, enum sa_wait_kind k,
			 const struct sa_wait_stat *s)
{
	struct cond_waiters *cw = ctx;
	if (obj != cw->obj || k != SA_WAIT_COND || !s->waits || cw->n >= 2 ||
	    (cw->n && cw->first == thread))
		return;
	if (!cw->n++)
		cw->first = thread;
}

static void say_finding(struct sa_fb *f, int v, const struct worst *w)
{
	static const char *const verdict[V_N] = { "futile", "woke_nobody", "lost" };
	const struct sa_model *m = f->m;
	char site[256], from[300] = "", a[32], b[32];
	struct sa_cell *c = sa_finding_row(f, "futile_wakes");
	if (!c)
		return;
	const struct sa_wl_counts *k = &w->e->c;
	sa_id_fill(m, w->obj, &c[SA_FND_ID]);
	sa_cell_str(&c[SA_FND_VERDICT], verdict[v]);
	sa_set_u(&c[SA_FND_COUNT], w->n);
	sa_set_u(&c[SA_FND_OF], w->of);
	if (w->e->site) {
		sa_site_name(m, m->objs[w->obj].proc, w->e->site, site, sizeof(site));
		sa_cell_str(&c[SA_FND_BY_SITE], site);
	} else {
		snprintf(site, sizeof(site), "inside the primitive");
	}
	/* a summary's aggregates: counted, but by no call site */
	int agg = w->e->ev == SA_EV_summary_object;
	if (!agg)
		snprintf(from, sizeof(from), " from %s", site);
	const char *try_;
	sa_finding_object(f, w->obj);
	switch (v) {
	case V_FUTILE: {
		/* One thread alone waited on it, woken by signals: a consumer
		 * that takes its item under the lock and waits for the next
		 * looks the same in the trace (woken, waits again, the mutex
		 * held throughout), and is not a wasted wake. */
		struct cond_waiters cw = { w->obj, 0, 0 };
		if (!k->multi)
			sa_model_each_pair(m, count_waiter, &cw);
		int one = !k->multi && cw.n == 1;
		sa_finding_say(f, ": %s of %s waiters woken by %s%s waited again at once "
			       "without releasing the mutex (futile wakeups: their predicate was "
			       "false%s)", sa_fmt_count(a, 32, w->n), sa_fmt_count(b, 32, w->of),
			       sa_wl_op_name(w->e), from,
			       one ? "; or, with one thread alone waiting on it, a consumer "
				     "that took its item under the lock and waited for the next, "
				     "which the trace cannot tell apart" : "");
		if (k->multi && k->multi == k->calls)
			sa_finding_say(f, "; each broadcast woke %.1f, %.1f of them usefully",
				       (double)k->woken / (double)k->calls,
				       (double)k->out[SA_WL_WON] / (double)k->calls);
		try_ = k->multi ? "signal instead of broadcast, or one condvar per predicate"
		       : one	? "if its predicate was false, signal only when it can go; a "
				  "consumer looping under the lock needs nothing"
				: "one condvar per predicate, so a signal reaches a waiter that can go";
		break;
	}
	case V_NOBODY:
		sa_finding_say(f, ": %s of %s wake calls (%s%s) woke nobody: system calls "
			       "for no sleeper", sa_fmt_count(a, 32, w->n), sa_fmt_count(b, 32, w->of),
			       sa_wl_op_name(w->e), from);
		try_ = "wake only when a waiter is registered; a mutex taken after a sleep owes one "
		       "such wake (doc/mutex.md)";
		break;
	default:
		sa_finding_say(f, ": %s of %s threads woken by %s%s slept on it again at "
			       "once: a barging or spinning thread took it first (wake-then-block)",
			       sa_fmt_count(a, 32, w->n), sa_fmt_count(b, 32, w->of),
			       sa_wl_op_name(w->e), from);
		try_ = "shorter holds (fewer bargers), or let woken threads spin briefly "
		       "(SYNCTRACE_SPIN)";
		break;
	}
	if (w->all > w->n)
		sa_finding_say(f, "; %s in the whole trace", sa_fmt_count(a, 32, w->all));
	if (k->sched_n && v != V_NOBODY)
		sa_finding_say(f, "; woken threads ran %s after the wake",
			       sa_fmt_ns(b, 32, (double)(k->sched_ns / k->sched_n)));
	if (agg)
		sa_finding_say(f, "; the summary level records no call sites");
	sa_cell_str(&c[SA_FND_TRY], try_);
	sa_finding_say(f, ". Try: %s.", try_);
	sa_finding_done(f, c);
}

/* A futex-level object of a summary-level process (a mutex, semaphore,
 * rwlock...): its wakes that woke nobody and its woken threads that slept
 * again, as the threads counted them (wakes.objects), by no call site:
 * which thread a wake woke, and so who won, needs the contention level. */
static unsigned summary_wakes(const struct sa_model *m, uint32_t i, struct sa_wl_entry *p)
{
	const struct sa_object *ob = &m->objs[i];
	if (!ob->instances || ob->type == SA_OBJ_COND || ob->proc >= m->nprocs ||
	    m->procs[ob->proc].level != ST_META_LEVEL_SUMMARY || !ob->fx_wakes)
		return 0;
	memset(p, 0, sizeof(*p));
	p->ev = SA_EV_summary_object;
	p->kinds = 4;
	p->c.calls = ob->fx_wakes;
	p->c.nobody = ob->fx_wasted;
	p->c.woken = ob->fx_woken;
	p->c.out[SA_WL_LOST] = ob->wake_then_block;
	return 1;
}

void sa_findings_wakes(struct sa_fb *f)
{
	const struct sa_model *m = f->m;
	struct worst w[V_N] = { 0 };
	struct sa_wl_entry *pseudo = calloc(m->nobjs ? m->nobjs : 1, sizeof(*pseudo));
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const struct sa_wl_entry *e;
		unsigned n = m->objs[i].instances ? sa_wl_entries(m, i, &e) : 0;
		if (!n && pseudo && (n = summary_wakes(m, i, &pseudo[i])))
			e = &pseudo[i];
		for (unsigned j = 0; j < n; j++)
			for (int v = 0; v < V_N; v++) {
				uint64_t of, x = wasted(&e[j].c, v, &of);
				w[v].all += x;
				w[v].all_of += of;
				if (x > w[v].n) {
					w[v].obj = i;
					w[v].e = &e[j];
					w[v].n = x;
					w[v].of = of;
				}
			}
	}
	/* Worth saying: a tenth of that site's wakes, and more than a handful. */
	int order[V_N], k = 0;
	for (int v = 0; v < V_N; v++)
		if (w[v].e && w[v].n >= 4 && w[v].n * 10 >= w[v].of)
			order[k++] = v;
	for (int i = 1; i < k; i++) /* most wasted first */
		for (int j = i; j > 0 && w[order[j]].n > w[order[j - 1]].n; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	/* The two that wasted most: the first screen is for the answer; every
	 * outcome of every site is in the wakes.outcomes and wakes.sites tables. */
	for (int i = 0; i < k && i < 2; i++)
		say_finding(f, order[i], &w[order[i]]);
	free(pseudo);
}
