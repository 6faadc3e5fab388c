/* Where threads wait: one ranked view over the wait ledger (sa_waits.h)
 * of every primitive (waits.top), grouped by lock class by default
 * (--by object|class|site), who made them wait (waits.blame: holders of
 * mutexes and rwlocks, signallers and posters of condvars and semaphores)
 * and per thread (waits.threads: its waiting, on what, which share of its
 * life). Rows with no waiting, no contention and no timeout only with
 * --all. */
#include <stdlib.h>
#include <string.h>

#include "sa_report_util.h"
#include "sa_symbols.h"
#include "sa_waits.h"
#include "sa_waits_view.h"

enum {
	W_RANK, W_KIND, W_ID, W_WAITS = W_ID + SA_ID_N, W_CONT, W_TIMEOUTS, W_WAIT, W_SHARE,
	W_MEAN, W_P50, W_P99, W_MAX, W_HIST, W_IDLE, W_N
};
static const struct sa_col top_cols[W_N] = {
	[W_RANK] = { "rank", "#", SA_COL_U64, 0, 0 },
	[W_KIND] = { "kind", "waited for", SA_COL_STR, 0, 0 },
	SA_ID_COLS(W_ID),
	[W_WAITS] = { "waits", "waits", SA_COL_U64, 0, 0 },
	[W_CONT] = { "contended", "contended", SA_COL_U64, SA_COL_WIDE, 0 },
	[W_TIMEOUTS] = { "timeouts", "timeouts", SA_COL_U64, 0, 0 },
	[W_WAIT] = { "wait_total_ns", "total", SA_COL_NS, 0, 0 },
	[W_SHARE] = { "wait_share", "share", SA_COL_PCT, 0, 0 },
	[W_MEAN] = { "wait_mean_ns", "mean", SA_COL_NS, 0, 0 },
	[W_P50] = { "wait_p50_ns", "p50", SA_COL_NS, SA_COL_WIDE, 0 },
	[W_P99] = { "wait_p99_ns", "p99", SA_COL_NS, SA_COL_WIDE, 0 },
	[W_MAX] = { "wait_max_ns", "max", SA_COL_NS, 0, 0 },
	[W_HIST] = { "wait_log2_hist", "wait log2(ns) histogram", SA_COL_HIST, SA_COL_WIDE, 0 },
	/* (1.5; text: only when a row has some) */
	[W_IDLE] = { "idle_wait_ns", "idle", SA_COL_NS, SA_COL_WIDE, 0 },
};

enum {
	B_RANK, B_ROLE, B_ID, B_TID = B_ID + SA_ID_N, B_THREAD, B_SITE, B_COUNT, B_RELEASED,
	B_CAUSED, B_HOLD, B_HOLD_MEAN, B_HOLD_MAX, B_LATENCY_MEAN, B_N
};
static const struct sa_col blame_cols[B_N] = {
	[B_RANK] = { "rank", "#", SA_COL_U64, 0, 0 },
	[B_ROLE] = { "role", "role", SA_COL_STR, 0, 0 },
	SA_ID_COLS(B_ID),
	[B_TID] = { "by_tid", "tid", SA_COL_I64, SA_COL_WIDE, 0 },
	[B_THREAD] = { "by_thread", "by thread", SA_COL_STR, 0, 24 },
	[B_SITE] = { "by_site", "from", SA_COL_STR, 0, 30 },
	[B_COUNT] = { "count", "count", SA_COL_U64, 0, 0 },
	[B_RELEASED] = { "released", "released", SA_COL_U64, SA_COL_WIDE, 0 },
	[B_CAUSED] = { "caused_ns", "caused", SA_COL_NS, 0, 0 },
	[B_HOLD] = { "hold_ns", "held", SA_COL_NS, SA_COL_WIDE, 0 },
	[B_HOLD_MEAN] = { "hold_mean_ns", "per hold", SA_COL_NS, 0, 0 },
	[B_HOLD_MAX] = { "hold_max_ns", "max hold", SA_COL_NS, SA_COL_WIDE, 0 },
	[B_LATENCY_MEAN] = { "latency_mean_ns", "woke after", SA_COL_NS, 0, 0 },
};

enum {
	P_VPID, P_VTID, P_NAME, P_LIFE, P_WAIT, P_SHARE, P_CPU_SHARE, P_WAITS, P_TIMEOUTS, P_TOP,
	P_TOP_NS, P_CPU, P_RUNQ_SHARE, P_RUNQ, P_KIND, P_N = P_KIND + SA_WAIT_NKINDS
};
static const struct sa_col thread_cols[P_N] = {
	[P_VPID] = { "vpid", "pid", SA_COL_I64, SA_COL_WIDE, 0 },
	[P_VTID] = { "vtid", "tid", SA_COL_I64, 0, 0 },
	[P_NAME] = { "name", "thread", SA_COL_STR, 0, 16 },
	[P_LIFE] = { "life_ns", "life", SA_COL_NS, 0, 0 },
	[P_WAIT] = { "wait_total_ns", "waiting", SA_COL_NS, 0, 0 },
	[P_SHARE] = { "wait_share_of_life", "of life", SA_COL_PCT, 0, 0 },
	[P_CPU_SHARE] = { "cpu_share_of_life", "on cpu", SA_COL_PCT, SA_COL_WIDE, 0 },
	[P_WAITS] = { "waits", "waits", SA_COL_U64, 0, 0 },
	[P_TIMEOUTS] = { "timeouts", "timeouts", SA_COL_U64, 0, 0 },
	[P_TOP] = { "top_wait", "mostly on", SA_COL_STR, 0, 40 },
	[P_TOP_NS] = { "top_wait_ns", "there", SA_COL_NS, 0, 0 },
	[P_CPU] = { "cpu_ns", "cpu time", SA_COL_NS, SA_COL_WIDE, 0 },
	[P_RUNQ_SHARE] = { "runq_share_of_life", "cpu wait", SA_COL_PCT, SA_COL_WIDE, 0 },
	[P_RUNQ] = { "runq_ns", "cpu wait time", SA_COL_NS, SA_COL_WIDE, 0 },
	[P_KIND + SA_WAIT_MUTEX] = { "mutex_ns", "mutex", SA_COL_NS, SA_COL_WIDE, 0 },
	[P_KIND + SA_WAIT_COND_RELOCK] = { "cond_relock_ns", "cond-relock", SA_COL_NS, SA_COL_WIDE, 0 },
	[P_KIND + SA_WAIT_RWLOCK_READ] = { "rwlock_read_ns", "rwlock-read", SA_COL_NS, SA_COL_WIDE, 0 },
	[P_KIND + SA_WAIT_RWLOCK_WRITE] = { "rwlock_write_ns", "rwlock-write", SA_COL_NS, SA_COL_WIDE, 0 },
	[P_KIND + SA_WAIT_COND] = { "cond_ns", "cond", SA_COL_NS, SA_COL_WIDE, 0 },
	[P_KIND + SA_WAIT_SEM] = { "sem_ns", "sem", SA_COL_NS, SA_COL_WIDE, 0 },
	[P_KIND + SA_WAIT_BARRIER] = { "barrier_ns", "barrier", SA_COL_NS, SA_COL_WIDE, 0 },
	[P_KIND + SA_WAIT_ONCE] = { "once_ns", "once", SA_COL_NS, SA_COL_WIDE, 0 },
	[P_KIND + SA_WAIT_SPINLOCK] = { "spinlock_ns", "spinlock", SA_COL_NS, SA_COL_WIDE, 0 },
};

/* ---- grouping ------------------------------------------------------------ */

static uint64_t fnv(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

struct keyed {
	uint64_t key;
	uint32_t obj;
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->obj < y->obj ? -1 : x->obj > y->obj;
}

/* Whether object o has anything in the ledger. */
static int has_waits(const struct sa_object *o)
{
	for (int k = 0; k < SA_WAIT_NKINDS; k++)
		if (sa_object_wait(o, (enum sa_wait_kind)k))
			return 1;
	return 0;
}

static void merge_blame(struct sa_wgroup *g, const struct sa_blame *b)
{
	for (unsigned i = 0; i < g->nblame; i++)
		if (g->blame[i].thread == b->thread && g->blame[i].site == b->site) {
			g->blame[i].holds += b->holds;
			g->blame[i].caused_ns += b->caused_ns;
			g->blame[i].hold_ns += b->hold_ns;
			if (b->max_hold_ns > g->blame[i].max_hold_ns)
				g->blame[i].max_hold_ns = b->max_hold_ns;
			return;
		}
	unsigned i = g->nblame;
	if (i == SA_BLAME_MAX) { /* keep the largest caused */
		i = 0;
		for (unsigned j = 1; j < g->nblame; j++)
			if (g->blame[j].caused_ns < g->blame[i].caused_ns)
				i = j;
		if (g->blame[i].caused_ns >= b->caused_ns)
			return;
	} else {
		g->nblame++;
	}
	g->blame[i] = *b;
}

static void merge_waker(struct sa_wgroup *g, const struct sa_waker *w)
{
	for (unsigned i = 0; i < g->nwakers; i++)
		if (g->wakers[i].thread == w->thread && g->wakers[i].site == w->site) {
			g->wakers[i].wakes += w->wakes;
			g->wakers[i].released += w->released;
			g->wakers[i].latency_ns += w->latency_ns;
			g->wakers[i].timed += w->timed;
			return;
		}
	unsigned i = g->nwakers;
	if (i == SA_BLAME_MAX) {
		i = 0;
		for (unsigned j = 1; j < g->nwakers; j++)
			if (g->wakers[j].released < g->wakers[i].released)
				i = j;
		if (g->wakers[i].released >= w->released)
			return;
	} else {
		g->nwakers++;
	}
	g->wakers[i] = *w;
}

static int blame_desc(const void *a, const void *b)
{
	const struct sa_blame *x = a, *y = b;
	if (x->caused_ns != y->caused_ns)
		return x->caused_ns < y->caused_ns ? 1 : -1;
	return (x->holds < y->holds) - (x->holds > y->holds);
}

static int waker_desc(const void *a, const void *b)
{
	const struct sa_waker *x = a, *y = b;
	if (x->released != y->released)
		return x->released < y->released ? 1 : -1;
	return (x->wakes < y->wakes) - (x->wakes > y->wakes);
}

static int row_desc(const void *a, const void *b)
{
	const struct sa_wrow *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	if (x->s.wait_ns != y->s.wait_ns)
		return x->s.wait_ns < y->s.wait_ns ? 1 : -1;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

void sa_waits_view_free(struct sa_waits_view *v)
{
	for (uint32_t g = 0; v->groups && g < v->ngroups; g++)
		for (int k = 0; k < SA_WAIT_NKINDS; k++)
			sa_dist_free(&v->groups[g].s[k].dist);
	free(v->groups);
	free(v->rows);
	free(v->objs);
	memset(v, 0, sizeof(*v));
}

int sa_thread_idle(const struct sa_model *m, uint32_t ti)
{
	if (ti >= m->nthreads)
		return 0;
	const struct sa_thread *th = &m->threads[ti];
	if (th->proc >= m->nprocs || th->vtid == m->procs[th->proc].vpid ||
	    sa_thread_wait_share(th) < SA_IDLE_WAITING)
		return 0;
	double c = sa_thread_cpu_share(th);
	return c < 0 ? !th->have_cpu : c <= SA_IDLE_CPU;
}

/* Each row's waiting by idle threads: one pass over the (thread, object,
 * kind) pairs. */
struct idle_scan {
	const struct sa_waits_view *v;
	const uint32_t *idle;      /* per thread: its index among the idle + 1, 0 not idle */
	const uint32_t *group_of;  /* per object: its group, UINT32_MAX none */
	const uint32_t *row_of;    /* per group and kind: its row + 1, 0 none */
	uint8_t *seen;             /* rows x idle threads, NULL: not counted */
	uint32_t nidle, nthreads, nobjs;
	struct sa_wrow *rows;
};

static void idle_pair(void *ctx, uint32_t thread, uint32_t obj, enum sa_wait_kind k,
		      const struct sa_wait_stat *s)
{
	struct idle_scan *x = ctx;
	if (thread >= x->nthreads || obj >= x->nobjs || (unsigned)k >= SA_WAIT_NKINDS)
		return;
	uint32_t i = x->idle[thread], g = x->group_of[obj];
	if (!i || g == UINT32_MAX || !x->row_of[(size_t)g * SA_WAIT_NKINDS + k])
		return;
	uint32_t r = x->row_of[(size_t)g * SA_WAIT_NKINDS + k] - 1;
	x->rows[r].idle_ns += s->wait_ns;
	if (x->seen && !x->seen[(size_t)r * x->nidle + i - 1]) {
		x->seen[(size_t)r * x->nidle + i - 1] = 1;
		x->rows[r].idle_threads++;
	}
}

static void idle_rows(const struct sa_model *m, struct sa_waits_view *v)
{
	uint32_t *idle = calloc(m->nthreads + 1, sizeof(*idle)), nidle = 0;
	uint32_t *group_of = malloc((m->nobjs + 1) * sizeof(*group_of));
	uint32_t *row_of = calloc((size_t)(v->ngroups + 1) * SA_WAIT_NKINDS, sizeof(*row_of));
	uint8_t *seen = NULL;
	if (!idle || !group_of || !row_of)
		goto out;
	for (uint32_t t = 0; t < m->nthreads; t++)
		if (sa_thread_idle(m, t))
			idle[t] = ++nidle;
	if (!nidle)
		goto out;
	for (uint32_t o = 0; o < m->nobjs; o++)
		group_of[o] = UINT32_MAX;
	for (uint32_t gi = 0; gi < v->ngroups; gi++)
		for (uint32_t j = 0; j < v->groups[gi].nobjs; j++)
			group_of[v->objs[v->groups[gi].first + j]] = gi;
	for (uint32_t r = 0; r < v->nrows; r++)
		row_of[(size_t)v->rows[r].group * SA_WAIT_NKINDS + v->rows[r].kind] = r + 1;
	if ((uint64_t)v->nrows * nidle <= (64u << 20)) /* (else threads not counted) */
		seen = calloc((size_t)v->nrows * nidle, 1);
	struct idle_scan x = { v, idle, group_of, row_of, seen, nidle, m->nthreads, m->nobjs,
			       v->rows };
	sa_model_each_pair(m, idle_pair, &x);
out:
	free(idle);
	free(group_of);
	free(row_of);
	free(seen);
}

int sa_waits_view_make(const struct sa_model *m, const struct sa_report_opts *o,
		       struct sa_waits_view *v)
{
	memset(v, 0, sizeof(*v));
	v->by = o->by;
	v->sort = o->sort;
	v->all = o->all;
	struct keyed *ks = malloc((m->nobjs + 1) * sizeof(*ks));
	uint32_t n = 0;
	if (!ks)
		return -1;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const struct sa_object *ob = &m->objs[i];
		struct sa_objname nm;
		if (!ob->instances || !has_waits(ob))
			continue;
		uint64_t key = i;
		if (o->by != SA_BY_OBJECT && !sa_object_name(m, i, &nm))
			key = fnv(o->by == SA_BY_SITE && nm.site[0] ? nm.site : nm.klass);
		ks[n++] = (struct keyed){ key, i };
	}
	qsort(ks, n, sizeof(*ks), by_key);
	v->objs = malloc((n + 1) * sizeof(uint32_t));
	v->groups = calloc(n + 1, sizeof(*v->groups));
	v->rows = calloc((size_t)(n + 1) * SA_WAIT_NKINDS, sizeof(*v->rows));
	if (!v->objs || !v->groups || !v->rows) {
		free(ks);
		sa_waits_view_free(v);
		return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		v->objs[i] = ks[i].obj;
		if (!i || ks[i].key != ks[i - 1].key)
			v->groups[v->ngroups++].first = i;
		struct sa_wgroup *g = &v->groups[v->ngroups - 1];
		const struct sa_object *ob = &m->objs[ks[i].obj];
		g->nobjs++;
		g->instances += sa_obj_instances(ob);
		uint64_t w = 0;
		for (int k = 0; k < SA_WAIT_NKINDS; k++) {
			const struct sa_wait_stat *s = sa_object_wait(ob, (enum sa_wait_kind)k);
			if (!s)
				continue;
			struct sa_wait_stat *t = &g->s[k];
			g->has[k] = 1;
			t->waits += s->waits;
			t->wait_ns += s->wait_ns;
			t->timeouts += s->timeouts;
			t->contended += s->contended;
			if (s->max_ns > t->max_ns)
				t->max_ns = s->max_ns;
			if (sa_dist_merge(&t->dist, &s->dist))
				v->oom = 1;
			w += s->wait_ns;
			g->wait_ns += s->wait_ns;
		}
		if (g->nobjs == 1 || w > g->rep_wait) {
			g->rep = ks[i].obj;
			g->rep_wait = w;
		}
		const struct sa_blame *b;
		for (unsigned k = 0, nb = sa_object_blame(m, ks[i].obj, &b); k < nb; k++)
			merge_blame(g, &b[k]);
		const struct sa_waker *wk;
		for (unsigned k = 0, nw = sa_object_wakers(m, ks[i].obj, &wk); k < nw; k++)
			merge_waker(g, &wk[k]);
	}
	free(ks);
	for (uint32_t gi = 0; gi < v->ngroups; gi++) {
		struct sa_wgroup *g = &v->groups[gi];
		qsort(g->blame, g->nblame, sizeof(g->blame[0]), blame_desc);
		qsort(g->wakers, g->nwakers, sizeof(g->wakers[0]), waker_desc);
		for (int k = 0; k < SA_WAIT_NKINDS; k++) {
			const struct sa_wait_stat *s = &g->s[k];
			if (!g->has[k] || (!o->all && !s->wait_ns && !s->contended && !s->timeouts &&
					   !s->waits))
				continue;
			struct sa_wrow *r = &v->rows[v->nrows++];
			r->group = gi;
			r->kind = (enum sa_wait_kind)k;
			r->s = *s;
			r->key = o->sort == SA_SORT_CONTENDED ? s->contended
				 : o->sort == SA_SORT_ACQUISITIONS ? s->waits : s->wait_ns;
			v->total_ns += s->wait_ns;
		}
	}
	qsort(v->rows, v->nrows, sizeof(*v->rows), row_desc);
	for (uint32_t i = 0; i < v->nrows; i++) {
		struct sa_wgroup *g = &v->groups[v->rows[i].group];
		if (!g->rank)
			g->rank = i + 1;
	}
	idle_rows(m, v);
	return 0;
}

const struct sa_waits_view *sa_waits_view_get(const struct sa_model *m,
					      const struct sa_report_opts *o, struct sa_report *r,
					      struct sa_waits_view *tmp)
{
	struct sa_waits_view *v = r->view;
	if (v && v->by == o->by && v->sort == o->sort && v->all == o->all) {
		memset(tmp, 0, sizeof(*tmp));
		return v;
	}
	if (!v && (v = malloc(sizeof(*v)))) {
		if (sa_waits_view_make(m, o, v)) {
			free(v);
			return NULL;
		}
		r->view = v;
		memset(tmp, 0, sizeof(*tmp));
		return v;
	}
	return sa_waits_view_make(m, o, tmp) ? NULL : tmp;
}

/* ---- tables -------------------------------------------------------------- */

void sa_thread_label(const struct sa_model *m, uint32_t ti, char *buf, size_t n)
{
	if (ti >= m->nthreads) {
		snprintf(buf, n, "?");
		return;
	}
	snprintf(buf, n, "%s:%d", m->threads[ti].procname, (int)m->threads[ti].vtid);
}

static void id_group(const struct sa_model *m, const struct sa_waits_view *v,
		     const struct sa_wgroup *g, struct sa_cell *c)
{
	sa_id_fill(m, g->rep, c);
	sa_set_u(&c[SA_ID_INSTANCES], g->instances);
	(void)v;
}

static void top_table(const struct sa_model *m, const struct sa_report_opts *o,
		      const struct sa_waits_view *v, struct sa_report *r)
{
	static const char *const titles[] = {
		[SA_BY_CLASS] = "Where threads wait (by class: --by object|site)",
		[SA_BY_OBJECT] = "Where threads wait (by object)",
		[SA_BY_SITE] = "Where threads wait (by site)",
	};
	struct sa_table *t = sa_report_table(r, "waits.top", titles[o->by], top_cols, W_N);
	if (!t)
		return;
	t->minor = 5; /* (idle_wait_ns) */
	t->text_rows = 10;
	if (m->nprocs > 1) /* which process, when there are several */
		t->text_show = 1ull << (W_ID + SA_ID_PROC);
	for (uint32_t i = 0; i < v->nrows && (!o->top || i < o->top); i++) {
		const struct sa_wrow *w = &v->rows[i];
		const struct sa_wgroup *g = &v->groups[w->group];
		struct sa_cell *c = sa_table_row(t);
		if (!c)
			return;
		sa_set_u(&c[W_RANK], i + 1);
		sa_cell_str(&c[W_KIND], sa_wait_kind_name(w->kind));
		id_group(m, v, g, &c[W_ID]);
		sa_set_u(&c[W_WAITS], w->s.waits);
		sa_set_u(&c[W_CONT], w->s.contended);
		sa_set_u(&c[W_TIMEOUTS], w->s.timeouts);
		sa_set_u(&c[W_WAIT], w->s.wait_ns);
		if (v->total_ns)
			sa_set_f(&c[W_SHARE], (double)w->s.wait_ns / (double)v->total_ns);
		if (w->s.waits)
			sa_set_u(&c[W_MEAN], w->s.wait_ns / w->s.waits);
		if (w->s.dist.n) {
			sa_set_u(&c[W_P50], sa_dist_pct(&w->s.dist, 0.50));
			sa_set_u(&c[W_P99], sa_dist_pct(&w->s.dist, 0.99));
		}
		if (w->s.waits)
			sa_set_u(&c[W_MAX], w->s.max_ns);
		sa_set_hist(&c[W_HIST], &w->s.dist);
		sa_set_u(&c[W_IDLE], w->idle_ns);
		if (w->idle_ns && i < t->text_rows) /* (in max's place: 120 columns) */
			t->text_show |= 1ull << W_IDLE, t->text_hide |= 1ull << W_MAX;
	}
	if (t->nrows < v->nrows)
		sa_table_note(t, "%u of %u rows shown (--top)", t->nrows, v->nrows);
	sa_table_note(t, "every kind of wait in one ranking: share = of all waiting in the trace "
		      "(%s); cond = the condvar wait itself, cond-relock = taking its mutex back "
		      "after it; a timeout counts as a wait%s",
		      o->all ? "every row" : "rows without waiting hidden: --all",
		      o->by == SA_BY_CLASS ? "; objs = objects in the class" : "");
	if (t->text_show & 1ull << W_IDLE)
		sa_table_note(t, "idle = by threads that waited %.0f %%+ of their lives, on a CPU "
			      "%.0f %% or less when known, not main; max: --wide", 100.0 * SA_IDLE_WAITING,
			      100.0 * SA_IDLE_CPU);
}

static void blame_table(const struct sa_model *m, const struct sa_report_opts *o,
			const struct sa_waits_view *v, struct sa_report *r)
{
	struct sa_table *t = sa_report_table(r, "waits.blame", "Who made them wait", blame_cols,
					     B_N);
	if (!t)
		return;
	t->minor = 3;
	t->text_rows = 6;
	/* text: the rank names the row of waits.top; the thread in full */
	t->text_hide = 1ull << (B_ID + SA_ID_SITE) | 1ull << (B_ID + SA_ID_NAME);
	unsigned shown = 0;
	char buf[256];
	/* Groups in rank order. */
	for (uint32_t i = 0; i < v->nrows; i++) {
		const struct sa_wgroup *g = &v->groups[v->rows[i].group];
		if (g->rank != i + 1 || (o->top && shown >= o->top))
			continue;
		const struct sa_object *ob = &m->objs[g->rep];
		shown++;
		for (unsigned k = 0; k < g->nblame; k++) {
			const struct sa_blame *b = &g->blame[k];
			struct sa_cell *c = sa_table_row(t);
			if (!c)
				return;
			sa_set_u(&c[B_RANK], g->rank);
			sa_cell_str(&c[B_ROLE], "held");
			id_group(m, v, g, &c[B_ID]);
			if (b->thread < m->nthreads)
				sa_set_i(&c[B_TID], m->threads[b->thread].vtid);
			sa_thread_label(m, b->thread, buf, sizeof(buf));
			sa_cell_str(&c[B_THREAD], buf);
			if (b->site)
				sa_cell_str(&c[B_SITE],
					    sa_site_name(m, sa_model_thread_proc(m, b->thread, ob->proc),
							 b->site, buf, sizeof(buf)));
			sa_set_u(&c[B_COUNT], b->holds);
			sa_set_u(&c[B_CAUSED], b->caused_ns);
			if (b->hold_ns) {
				sa_set_u(&c[B_HOLD], b->hold_ns);
				if (b->holds)
					sa_set_u(&c[B_HOLD_MEAN], b->hold_ns / b->holds);
				sa_set_u(&c[B_HOLD_MAX], b->max_hold_ns);
			}
		}
		for (unsigned k = 0; k < g->nwakers; k++) {
			const struct sa_waker *w = &g->wakers[k];
			struct sa_cell *c = sa_table_row(t);
			if (!c)
				return;
			sa_set_u(&c[B_RANK], g->rank);
			sa_cell_str(&c[B_ROLE], ob->type == SA_OBJ_SEM ? "posted" : "signalled");
			id_group(m, v, g, &c[B_ID]);
			if (w->thread < m->nthreads)
				sa_set_i(&c[B_TID], m->threads[w->thread].vtid);
			sa_thread_label(m, w->thread, buf, sizeof(buf));
			sa_cell_str(&c[B_THREAD], buf);
			if (w->site)
				sa_cell_str(&c[B_SITE],
					    sa_site_name(m, sa_model_thread_proc(m, w->thread, ob->proc),
							 w->site, buf, sizeof(buf)));
			sa_set_u(&c[B_COUNT], w->wakes);
			sa_set_u(&c[B_RELEASED], w->released);
			if (w->timed)
				sa_set_u(&c[B_LATENCY_MEAN], w->latency_ns / w->timed);
		}
	}
	sa_table_note(t, "held: a thread holding the lock while others waited, from the site of "
		      "its release (or its acquire); caused wait = the waiting that overlapped its "
		      "holds, summed over waiters; per hold needs the full level. signalled/posted: "
		      "who released waiters, woke after = mean time from a waiter's wait to its wake");
	if (sa_model_summary_procs(m))
		sa_table_note(t, "held: not for processes recorded at the summary level (blame needs "
			      "the order of the holder's and the waiters' events); signalled and posted "
			      "there: per thread, without call site or woke after");
}

struct top_pair {
	uint32_t obj;
	enum sa_wait_kind kind;
	uint64_t ns;
};

static void best_pair(void *ctx, uint32_t thread, uint32_t obj, enum sa_wait_kind k,
		      const struct sa_wait_stat *s)
{
	struct top_pair *tp = ctx;
	if (s->wait_ns > tp[thread].ns || (tp[thread].obj == UINT32_MAX && s->waits)) {
		tp[thread].obj = obj;
		tp[thread].kind = k;
		tp[thread].ns = s->wait_ns;
	}
}

static void thread_table(const struct sa_model *m, const struct sa_report_opts *o,
			 struct sa_report *r)
{
	struct sa_table *t = sa_report_table(r, "waits.threads", "Waiting per thread", thread_cols,
					     P_N);
	struct top_pair *tp = malloc((m->nthreads + 1) * sizeof(*tp));
	struct sa_rank *rk = malloc((m->nthreads + 1) * sizeof(*rk));
	if (!t || !tp || !rk)
		goto out;
	t->minor = 4;
	t->text_rows = 8;
	if (m->nprocs > 1)
		t->text_show = 1ull << P_VPID;
	for (uint32_t i = 0; i < m->nthreads; i++)
		tp[i] = (struct top_pair){ UINT32_MAX, SA_WAIT_NKINDS, 0 };
	sa_model_each_pair(m, best_pair, tp);
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->nthreads; i++) {
		const struct sa_thread_waits *w = sa_thread_waits(&m->threads[i]);
		if (o->all || (w && (w->waits || w->wait_ns)))
			rk[n++] = (struct sa_rank){ i, w ? w->wait_ns : 0 };
	}
	qsort(rk, n, sizeof(*rk), sa_rank_desc);
	int based = 0; /* a thread shown alive at its process's announcement */
	for (uint32_t i = 0; i < n && (!o->top || i < o->top); i++) {
		const struct sa_thread *th = &m->threads[rk[i].i];
		const struct sa_thread_waits *w = sa_thread_waits(th);
		struct sa_cell *c = sa_table_row(t);
		if (!c)
			break;
		based |= th->have_base;
		uint64_t life = th->last_ts > th->first_ts ? (uint64_t)(th->last_ts - th->first_ts) : 0;
		sa_set_i(&c[P_VPID], m->procs[th->proc].vpid);
		sa_set_i(&c[P_VTID], th->vtid);
		sa_cell_str(&c[P_NAME], th->procname);
		sa_set_u(&c[P_LIFE], life);
		if (th->have_cpu) {
			sa_set_u(&c[P_CPU], th->cpu_ns);
			double cs = sa_thread_cpu_share(th);
			if (cs >= 0) {
				sa_set_f(&c[P_CPU_SHARE], cs);
				t->text_show |= 1ull << P_CPU_SHARE;
			}
			if (th->have_runq) {
				sa_set_u(&c[P_RUNQ], th->runq_ns);
				double rs = sa_thread_runq_share(th);
				if (rs >= 0)
					sa_set_f(&c[P_RUNQ_SHARE], rs);
			}
		}
		if (!w)
			continue;
		sa_set_u(&c[P_WAIT], w->wait_ns);
		double ws = sa_thread_wait_share(th);
		if (ws >= 0)
			sa_set_f(&c[P_SHARE], ws);
		sa_set_u(&c[P_WAITS], w->waits);
		sa_set_u(&c[P_TIMEOUTS], w->timeouts);
		const struct top_pair *p = &tp[rk[i].i];
		struct sa_objname nm;
		if (p->obj < m->nobjs && !sa_object_name(m, p->obj, &nm)) {
			char buf[200];
			snprintf(buf, sizeof(buf), "%s %s", sa_wait_kind_name(p->kind), nm.name);
			sa_cell_str(&c[P_TOP], buf);
			sa_set_u(&c[P_TOP_NS], p->ns);
		}
		for (int k = 0; k < SA_WAIT_NKINDS; k++)
			sa_set_u(&c[P_KIND + k], w->kind_ns[k]);
	}
	if (t->nrows < n)
		sa_table_note(t, "%u of %u threads shown (--top)", t->nrows, n);
	sa_table_note(t, "life: its first to its last event%s; of life: the share of it spent "
		      "waiting (every kind: --wide)%s%s",
		      based ? " (from its process's announcement, if alive then)" : "",
		      t->text_show & 1ull << P_CPU_SHARE ?
		      "; on cpu: its CPU time over its life" : "",
		      o->all ? "" : "; threads that never waited: --all");
out:
	free(tp);
	free(rk);
}

void sa_waits_build(const struct sa_model *m, const struct sa_report_opts *o,
		    struct sa_report *r)
{
	struct sa_waits_view tmp;
	const struct sa_waits_view *v = sa_waits_view_get(m, o, r, &tmp);
	if (!v)
		return;
	top_table(m, o, v, r);
	blame_table(m, o, v, r);
	thread_table(m, o, r);
	sa_waits_view_free(&tmp);
}
