/* Findings: what a reader should look at first, ranked, each one sentence
 * with its evidence and what to try. In JSON/CSV a finding is data (its
 * kind, the object's identity, the numbers); `text` says it in words.
 * Kinds, in the order they rank:
 *   incomplete   a check or the report could not complete (never "no finding");
 *                checks not run for want of the full level rank last
 *   discarded    the tracer discarded events: counts are lower bounds
 *   hang         a wait nothing can end, explained along its wakers (find_hang.c)
 *   lock_order   a lock-order cycle (--checks, full level)
 *   misuse       any other debug-check finding
 *   wait         where most waiting is (the top rows of waits.top), with
 *                who held the lock or who woke the waiters
 *   futile_wakes wakes that bought nothing: woke nobody, woken threads that
 *                lost the object and slept again, condvar waiters woken only
 *                to wait again (find_wakes.c: the wake-outcome ledger)
 *   timeout_race whether condvar timeout races matter here
 *   spin         how spin loops ended, and the SYNCTRACE_SPIN the what-if
 *                replay recommends (find_spin_plan.c)
 *   no_wait      nothing waited */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sa_checks.h"
#include "sa_findings.h"
#include "sa_report_util.h"
#include "sa_symbols.h"
#include "sa_verdicts.h"
#include "sa_waits_view.h"

static const struct sa_col cols[SA_FND_N] = {
	[SA_FND_RANK] = { "rank", "#", SA_COL_U64, 0, 0 },
	[SA_FND_KIND] = { "kind", "kind", SA_COL_STR, 0, 0 },
	[SA_FND_WAIT_KIND] = { "wait_kind", "waited for", SA_COL_STR, 0, 0 },
	SA_ID_COLS(SA_FND_ID),
	[SA_FND_SHARE] = { "wait_share", "share", SA_COL_PCT, 0, 0 },
	[SA_FND_WAITS] = { "waits", "waits", SA_COL_U64, 0, 0 },
	[SA_FND_CONT] = { "contended", "contended", SA_COL_U64, 0, 0 },
	[SA_FND_TIMEOUTS] = { "timeouts", "timeouts", SA_COL_U64, 0, 0 },
	[SA_FND_WAIT] = { "wait_total_ns", "total", SA_COL_NS, 0, 0 },
	[SA_FND_MEAN] = { "wait_mean_ns", "mean", SA_COL_NS, 0, 0 },
	[SA_FND_COUNT] = { "count", "count", SA_COL_U64, 0, 0 },   /* the kind's own count (see README) */
	[SA_FND_OF] = { "of", "of", SA_COL_U64, 0, 0 },            /* ... out of this many */
	[SA_FND_BY_TID] = { "by_tid", "tid", SA_COL_I64, 0, 0 },
	[SA_FND_BY_THREAD] = { "by_thread", "by thread", SA_COL_STR, 0, 0 },
	[SA_FND_BY_SITE] = { "by_site", "from", SA_COL_STR, 0, 0 },
	[SA_FND_PER_HOLD] = { "hold_mean_ns", "per hold", SA_COL_NS, 0, 0 },
	[SA_FND_CAUSED] = { "caused_ns", "caused", SA_COL_NS, 0, 0 },
	[SA_FND_VERDICT] = { "verdict", "verdict", SA_COL_STR, 0, 0 },
	[SA_FND_TRY] = { "try", "try", SA_COL_STR, 0, 0 },
	[SA_FND_TEXT] = { "text", "finding", SA_COL_STR, 0, 0 },
	[SA_FND_IDLE] = { "idle_wait_ns", "idle", SA_COL_NS, 0, 0 }, /* (1.5) */
};

#define MAX_WAIT_FINDINGS 3
#define MAX_CHECK_FINDINGS 5


#define say sa_finding_say

static struct sa_cell *row(struct sa_fb *f, const char *kind)
{
	struct sa_cell *c = sa_table_row(f->t);
	if (!c)
		return NULL;
	sa_set_u(&c[SA_FND_RANK], f->t->nrows);
	sa_cell_str(&c[SA_FND_KIND], kind);
	f->len = 0;
	f->text[0] = 0;
	return c;
}

static void done(struct sa_fb *f, struct sa_cell *c)
{
	if (f->len >= sizeof(f->text))
		memcpy(f->text + sizeof(f->text) - 4, "\xe2\x80\xa6", 4);
	sa_cell_str(&c[SA_FND_TEXT], f->text);
}

struct sa_cell *sa_finding_row(struct sa_fb *f, const char *kind)
{
	return row(f, kind);
}

void sa_finding_say(struct sa_fb *f, const char *fmt, ...)
{
	va_list ap;
	if (f->len >= sizeof(f->text))
		return;
	va_start(ap, fmt);
	int w = vsnprintf(f->text + f->len, sizeof(f->text) - f->len, fmt, ap);
	va_end(ap);
	if (w > 0)
		f->len += (size_t)w;
}

void sa_finding_done(struct sa_fb *f, struct sa_cell *c)
{
	done(f, c);
}

static const char *ns(char *b, uint64_t v)
{
	return sa_fmt_ns(b, 32, (double)v);
}

static const char *cnt(char *b, uint64_t v)
{
	return sa_fmt_count(b, 32, v);
}

/* "`queue_lock` (queue.c:41)" */
void sa_finding_object(struct sa_fb *f, uint32_t obj)
{
	struct sa_objname nm;
	if (sa_object_name(f->m, obj, &nm)) {
		say(f, "`?`");
		return;
	}
	say(f, "%s `%s`", sa_obj_type_name(f->m->objs[obj].type), nm.name);
	if (nm.site[0] && nm.how != SA_NAME_SITE)
		say(f, " (%s)", nm.site);
}

static void checks_findings(struct sa_fb *f, const struct sa_report_opts *o, int lock_order)
{
	struct sa_checks *k = o->checks;
	unsigned shown = 0, more = 0;
	for (uint32_t i = 0; i < k->nfindings; i++) {
		const struct sa_finding *x = &k->findings[i];
		if ((x->check == SA_CHK_LOCK_ORDER) != lock_order)
			continue;
		if (shown == MAX_CHECK_FINDINGS) {
			more++;
			continue;
		}
		struct sa_cell *c = row(f, lock_order ? "lock_order" : "misuse");
		if (!c)
			return;
		shown++;
		sa_cell_str(&c[SA_FND_VERDICT], sa_check_name(x->check));
		sa_set_u(&c[SA_FND_COUNT], x->count);
		if (x->nobj)
			sa_id_fill(f->m, x->obj[0], &c[SA_FND_ID]);
		say(f, "%s", lock_order ? "lock-order cycle: " : "");
		say(f, "%s (%s, pid %d", x->detail, sa_check_name(x->check),
		    (int)f->m->procs[x->proc].vpid);
		if (x->count > 1)
			say(f, ", %llu times", (unsigned long long)x->count);
		say(f, ")");
		if (x->ncaller) {
			char s[256];
			say(f, " at %s", sa_site_name(f->m, x->proc, x->caller[0], s, sizeof(s)));
		}
		say(f, lock_order ? "; take these locks in one order everywhere." : ".");
		sa_cell_str(&c[SA_FND_TRY], lock_order ? "one lock order" : "fix the misuse");
		done(f, c);
	}
	if (more) {
		struct sa_cell *c = row(f, lock_order ? "lock_order" : "misuse");
		if (!c)
			return;
		sa_set_u(&c[SA_FND_COUNT], more);
		say(f, "%u more %s findings: --wide (the Debug checks table) or --format json.", more,
		    lock_order ? "lock-order" : "debug-check");
		done(f, c);
	}
}

static void incomplete(struct sa_fb *f, const struct sa_report_opts *o)
{
	char a[32], b[32], d[32];
	if (o->partial) {
		struct sa_cell *c = row(f, "incomplete");
		if (!c)
			return;
		sa_cell_str(&c[SA_FND_VERDICT], "partial");
		say(f, "incomplete: the trace could not be read to its end; every number is a "
		    "lower bound.");
		done(f, c);
	}
	if (f->m->oom) {
		struct sa_cell *c = row(f, "incomplete");
		if (!c)
			return;
		sa_cell_str(&c[SA_FND_VERDICT], "out_of_memory");
		say(f, "incomplete: the analyzer ran out of memory; the report covers what it kept.");
		done(f, c);
	}
	struct sa_checks *k = o->checks;
	if (!k)
		return;
	if (k->lockorder_incomplete || k->edges_dropped) {
		struct sa_cell *c = row(f, "incomplete");
		if (!c)
			return;
		unsigned why = k->lockorder_incomplete | (k->edges_dropped ? SA_CHK_INCOMPLETE_EDGES : 0);
		sa_cell_str(&c[SA_FND_VERDICT], "lock_order");
		sa_set_u(&c[SA_FND_COUNT], k->edges_dropped);
		sa_set_u(&c[SA_FND_OF], k->edges_dropped + k->nedges);
		say(f, "lock-order check incomplete:");
		if (why & SA_CHK_INCOMPLETE_EDGES)
			say(f, " its graph is full (%s edges kept, %s dropped at the %s-edge limit),",
			    cnt(a, k->nedges), cnt(b, k->edges_dropped), cnt(d, SA_CHK_MAX_EDGES));
		if (why & SA_CHK_INCOMPLETE_CYCLES)
			say(f, " the cycle search stopped at its limit,");
		if (why & SA_CHK_INCOMPLETE_OOM)
			say(f, " it ran out of memory,");
		say(f, " so a cycle may be missed (this is not \"no finding\"); try a shorter trace.");
		sa_cell_str(&c[SA_FND_TRY], "a shorter trace");
		done(f, c);
	}
	if (k->dropped) {
		struct sa_cell *c = row(f, "incomplete");
		if (!c)
			return;
		sa_cell_str(&c[SA_FND_VERDICT], "findings");
		sa_set_u(&c[SA_FND_COUNT], k->dropped);
		say(f, "debug checks incomplete: %s findings beyond the first %d were not kept.",
		    cnt(a, k->dropped), SA_CHK_MAX_FINDINGS);
		done(f, c);
	}
}

/* Checks that need the full level: scope, not a failure, so it ranks after
 * the answers (an incomplete finding all the same: never "no finding"). */
static void level_note(struct sa_fb *f)
{
	unsigned not_full = 0;
	for (uint32_t p = 0; p < f->m->nprocs; p++)
		not_full += f->m->procs[p].level < 2;
	if (not_full) {
		struct sa_cell *c = row(f, "incomplete");
		if (!c)
			return;
		sa_cell_str(&c[SA_FND_VERDICT], "level");
		sa_set_u(&c[SA_FND_COUNT], not_full);
		sa_set_u(&c[SA_FND_OF], f->m->nprocs);
		say(f, "lock-order and exit-holding checks not run in %u of %u process%s (recorded "
		    "below the full level); record with --level full.", not_full, f->m->nprocs,
		    f->m->nprocs == 1 ? "" : "es");
		sa_cell_str(&c[SA_FND_TRY], "--level full");
		done(f, c);
	}
}

/* synctrace top's re-attachments (analysis/bt2/top.c) are discarded ranges
 * too, named by their stream: not the tracer's loss. */
#define SA_TOP_SKIP_STREAM "skipped by synctrace top"

static void discarded(struct sa_fb *f)
{
	const struct sa_model *m = f->m;
	char a[32];
	if (!m->ndiscards)
		return;
	unsigned impossible = 0, skips = 0, skip_ranges = 0;
	uint64_t skipped_ns = 0;
	int64_t last_begin = INT64_MIN;
	for (uint32_t i = 0; i < m->ndiscards; i++) {
		const struct sa_discard *d = &m->discards[i];
		if (!strncmp(d->stream, SA_TOP_SKIP_STREAM, sizeof(SA_TOP_SKIP_STREAM) - 1)) {
			/* One range per trace for each re-attachment: count it once. */
			skip_ranges++;
			if (skips && d->begin == last_begin)
				continue;
			skips++;
			last_begin = d->begin;
			if (d->begin != INT64_MIN && d->end > d->begin)
				skipped_ns += (uint64_t)(d->end - d->begin);
			continue;
		}
		impossible += !d->count_known && d->raw_count;
	}
	struct sa_cell *c = row(f, "discarded");
	if (!c)
		return;
	sa_set_u(&c[SA_FND_COUNT], m->discarded_total);
	sa_set_u(&c[SA_FND_OF], m->ndiscards);
	sa_cell_str(&c[SA_FND_VERDICT], skips ? "skipped" : m->discarded_unknown ? "at_least"
									 : "exact");
	if (skips) {
		say(f, "the live view fell behind and skipped ahead %u time%s (about %s of the "
		    "stream not read): counts are lower bounds; `synctrace top -o DIR` keeps the "
		    "whole trace for an exact report", skips, skips == 1 ? "" : "s",
		    ns(a, skipped_ns));
		if (m->ndiscards > skip_ranges)
			say(f, "; the tracer also discarded events in %u range%s",
			    m->ndiscards - skip_ranges, m->ndiscards - skip_ranges == 1 ? "" : "s");
		say(f, ".");
		sa_cell_str(&c[SA_FND_TRY], "synctrace top -o DIR");
		done(f, c);
		return;
	}
	say(f, "the tracer discarded %s%s events in %u range%s", m->discarded_unknown ?
	    "at least " : "", cnt(a, m->discarded_total), m->ndiscards, m->ndiscards == 1 ? "" : "s");
	if (impossible)
		say(f, " (%u range%s with a count that cannot be true, shown as unknown)", impossible,
		    impossible == 1 ? "" : "s");
	say(f, ": counts derived from events are lower bounds; record with --blocking to lose "
	    "none.");
	sa_cell_str(&c[SA_FND_TRY], "--blocking");
	done(f, c);
}

/* The thread that waited most on group g's objects for kind k, other
 * than the one the finding names as holder or waker (exclude: by class,
 * node's main thread held one of its 35 libuv mutexes while it waited on
 * another); excluded: that one waited there too. */
struct top_waiter {
	const struct sa_waits_view *v;
	const struct sa_wgroup *g;
	enum sa_wait_kind k;
	uint32_t thread;
	uint64_t ns;
	uint32_t exclude;
	int excluded;
};

/* Object obj is one of group g's. */
static int group_has(const struct sa_waits_view *v, const struct sa_wgroup *g, uint32_t obj)
{
	for (uint32_t i = 0; i < g->nobjs; i++)
		if (v->objs[g->first + i] == obj)
			return 1;
	return 0;
}

static void find_waiter(void *ctx, uint32_t thread, uint32_t obj, enum sa_wait_kind k,
			const struct sa_wait_stat *s)
{
	struct top_waiter *w = ctx;
	if (k != w->k || !s->wait_ns || (thread != w->exclude && s->wait_ns <= w->ns) ||
	    !group_has(w->v, w->g, obj))
		return;
	if (thread == w->exclude) {
		w->excluded = 1;
	} else {
		w->thread = thread;
		w->ns = s->wait_ns;
	}
}

/* What the threads that released g's waiters did with their lives,
 * weighted by how many waiters each released: outside, the share spent
 * outside any wait on an object (-1 when unknown: no waker recorded, the
 * summary level, or a waker whose life the trace does not span); cpu, the
 * share on a CPU (-1 unless known for every one of them: thread:exit's
 * and meta:stop's cpu_ns, format minor 16); runq, the share runnable but
 * waiting for a CPU (-1 unless known for every one). */
#define WAKERS_BUSY 0.8 /* outside waits: a wait for their work or input */
#define WAKERS_CPU 0.5  /* on a CPU or wanting one: their work */
#define WAKERS_RUNQ 0.2 /* wanting a CPU: a machine short of them */
struct wakers_life {
	double outside, cpu, runq;
};
static struct wakers_life wakers_life(const struct sa_model *m, const struct sa_wgroup *g)
{
	struct wakers_life r = { -1, -1, -1 };
	double outside = 0, cpu = 0, runq = 0, weight = 0;
	int cpu_known = 1, runq_known = 1;
	for (unsigned k = 0; k < g->nwakers; k++) {
		const struct sa_waker *wk = &g->wakers[k];
		if (wk->thread >= m->nthreads || !wk->released)
			continue;
		const struct sa_thread *th = &m->threads[wk->thread];
		double ws = sa_thread_wait_share(th);
		if (ws < 0)
			return r;
		double c = sa_thread_cpu_share(th), q = sa_thread_runq_share(th);
		outside += (double)wk->released * (1 - ws);
		if (c < 0)
			cpu_known = 0;
		if (q < 0)
			runq_known = 0;
		cpu += (double)wk->released * c;
		runq += (double)wk->released * q;
		weight += (double)wk->released;
	}
	if (weight > 0) {
		r.outside = outside / weight;
		r.cpu = cpu_known ? cpu / weight : -1;
		r.runq = cpu_known && runq_known ? runq / weight : -1;
	}
	return r;
}

/* The wakers hardly ever wait on an object and ran (on a CPU or wanting
 * one) half their lives: the wait is for their work. */
static int wakers_working(const struct wakers_life *wl)
{
	return wl->outside >= WAKERS_BUSY && wl->cpu >= 0 &&
	       wl->cpu + (wl->runq > 0 ? wl->runq : 0) >= WAKERS_CPU;
}

/* The advice for a wait on threads that hardly ever wait on an object
 * (xz -T2's main thread for its two compressing workers): those are the
 * bottleneck, and fewer waiters would not help. On a CPU (or runnable,
 * waiting for one), their work is; blocked elsewhere (I/O, a sleep, a
 * join), their input; with no CPU time in the trace, both are named. A
 * machine whose CPUs they waited for is short of CPUs: more threads would
 * not help either. NULL when the wakers wait on objects too. */
static const char *wakers_try(const struct wakers_life *wl, char *b, size_t n)
{
	if (wl->outside < WAKERS_BUSY)
		return NULL;
	double want = wl->cpu + (wl->runq > 0 ? wl->runq : 0);
	if (wl->cpu >= 0 && want >= WAKERS_CPU && wl->runq >= WAKERS_RUNQ)
		snprintf(b, n,
			 "its wakers ran %.0f %% of their lives and waited for a CPU %.0f %%: "
			 "it waits for their work, on a machine short of CPUs; make that work "
			 "cheaper or the load lighter",
			 100.0 * wl->cpu, 100.0 * wl->runq);
	else if (wl->cpu >= 0 && want >= WAKERS_CPU)
		snprintf(b, n,
			 "its wakers ran %.0f %% of their lives: it waits for their work; make "
			 "that work cheaper or share it among more threads",
			 100.0 * wl->cpu);
	else if (wl->cpu >= 0)
		snprintf(b, n,
			 "its wakers were blocked elsewhere (I/O, a sleep, a join) %.0f %% of "
			 "their lives, ran %.0f %%: it waits for their input; feed them faster",
			 100.0 * (wl->outside - want > 0 ? wl->outside - want : 0),
			 100.0 * wl->cpu);
	else
		snprintf(b, n,
			 "its wakers spent %.0f %% of their lives outside any lock, condvar or "
			 "semaphore: it waits for their work (or input, if they block on I/O); "
			 "make that work cheaper or share it among more threads",
			 100.0 * wl->outside);
	return b;
}

/* A condvar or semaphore row whose waiting is half idle threads' or more
 * (sa_thread_idle: a pool's spare threads; node's four V8 platform workers
 * waited 100 % of their lives on the condvar class their libuv pool
 * shares, 96 % of all the waiting in the trace), with wakers that are not
 * the bottleneck (they did not run: wakers_working), is "idle": its
 * finding says so, and comes after the others, which are weighed against
 * the waiting of threads not idle (so node's main thread's wait on the
 * pool's mutex is named). */
#define IDLE_ROWS 16 /* rows looked at */
static int row_idle(const struct sa_model *m, const struct sa_waits_view *v,
		    const struct sa_wrow *w)
{
	if ((w->kind != SA_WAIT_COND && w->kind != SA_WAIT_SEM) || !w->idle_ns ||
	    w->idle_ns * 2 < w->s.wait_ns)
		return 0;
	struct wakers_life wl = wakers_life(m, &v->groups[w->group]);
	return !wakers_working(&wl);
}

/* The share of g's releases by threads that also waited on the same
 * object for kind k: near 1 when the threads take turns, each waking the
 * next and waiting for its own turn again, as at a lock (CPython's GIL: a
 * condvar with a 5 ms timed wait, signalled by whichever thread drops it);
 * per object, not per class (CPython's locks, one class of hundreds, are
 * each waited on by one thread and released by another); -1 when nothing
 * was released or an object of g is a class of several folded (whose
 * pairs and wakers are the class's). */
struct turn_scan {
	const struct sa_waits_view *v;
	const struct sa_wgroup *g;
	enum sa_wait_kind k;
	uint64_t *keys; /* obj << 32 | thread, of the pairs that waited */
	size_t n, cap;
	int oom;
};

static void turn_pair(void *ctx, uint32_t thread, uint32_t obj, enum sa_wait_kind k,
		      const struct sa_wait_stat *s)
{
	struct turn_scan *x = ctx;
	if (k != x->k || !s->waits || x->oom || !group_has(x->v, x->g, obj))
		return;
	if (x->n == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 64;
		uint64_t *k2 = realloc(x->keys, cap * sizeof(*k2));
		if (!k2) {
			x->oom = 1;
			return;
		}
		x->keys = k2, x->cap = cap;
	}
	x->keys[x->n++] = (uint64_t)obj << 32 | thread;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static double turn_share(const struct sa_model *m, const struct sa_waits_view *v,
			 const struct sa_wgroup *g, enum sa_wait_kind k)
{
	uint64_t all = 0, self = 0;
	struct turn_scan x = { v, g, k, NULL, 0, 0, 0 };
	for (uint32_t i = 0; i < g->nobjs; i++)
		if (sa_obj_instances(&m->objs[v->objs[g->first + i]]) > 1)
			return -1; /* (folded: who waited on which one is gone) */
	sa_model_each_pair(m, turn_pair, &x);
	if (x.oom) {
		free(x.keys);
		return -1;
	}
	qsort(x.keys, x.n, sizeof(*x.keys), u64_cmp);
	for (uint32_t i = 0; i < g->nobjs; i++) {
		uint32_t obj = v->objs[g->first + i];
		const struct sa_waker *wk;
		for (unsigned j = 0, nw = sa_object_wakers(m, obj, &wk); j < nw; j++) {
			uint64_t key = (uint64_t)obj << 32 | wk[j].thread;
			all += wk[j].released;
			if (x.n && bsearch(&key, x.keys, x.n, sizeof(key), u64_cmp))
				self += wk[j].released;
		}
	}
	free(x.keys);
	return all ? (double)self / (double)all : -1;
}
#define TURNS 0.9 /* releases by the waiters themselves: they take turns (a
			  * queue's consumers that pass its signal on, with a
			  * producer that never waits: CPython's SimpleQueue,
			  * 75 %, are not) */

static void wait_finding(struct sa_fb *f, const struct sa_waits_view *v, const struct sa_wrow *w,
			 int idle, uint64_t busy_total)
{
	const struct sa_model *m = f->m;
	const struct sa_wgroup *g = &v->groups[w->group];
	const struct sa_object *ob = &m->objs[g->rep];
	char a[32], b[32], d[32], s[256];
	struct sa_cell *c = row(f, "wait");
	if (!c)
		return;
	double share = v->total_ns ? (double)w->s.wait_ns / (double)v->total_ns : 0;
	sa_cell_str(&c[SA_FND_WAIT_KIND], sa_wait_kind_name(w->kind));
	sa_id_fill(m, g->rep, &c[SA_FND_ID]);
	sa_set_u(&c[SA_FND_ID + SA_ID_INSTANCES], g->instances);
	sa_set_f(&c[SA_FND_SHARE], share);
	sa_set_u(&c[SA_FND_WAITS], w->s.waits);
	sa_set_u(&c[SA_FND_CONT], w->s.contended);
	sa_set_u(&c[SA_FND_TIMEOUTS], w->s.timeouts);
	sa_set_u(&c[SA_FND_WAIT], w->s.wait_ns);
	if (w->s.waits)
		sa_set_u(&c[SA_FND_MEAN], w->s.wait_ns / w->s.waits);

	sa_finding_object(f, g->rep);
	if (g->instances > 1)
		say(f, " (%llu objects)", (unsigned long long)g->instances);
	say(f, ": %.0f %% of all waiting", 100.0 * share);
	if (busy_total && !idle)
		say(f, ", %.0f %% of working threads'",
		    100.0 * (double)(w->s.wait_ns - w->idle_ns) / (double)busy_total);
	say(f, " (%s", sa_wait_kind_name(w->kind));
	if (w->kind == SA_WAIT_COND_RELOCK)
		say(f, ": taking the mutex back after a condvar wait");
	say(f, "), %s waits", cnt(a, w->s.waits));
	if (w->s.contended && w->s.contended != w->s.waits)
		say(f, ", %s contended", cnt(a, w->s.contended));
	if (w->s.timeouts)
		say(f, ", %s timed out", cnt(a, w->s.timeouts));
	say(f, ", mean wait %s, %s in all", ns(b, w->s.waits ? w->s.wait_ns / w->s.waits : 0),
	    ns(d, w->s.wait_ns));
	/* Who made them wait. */
	uint32_t named = UINT32_MAX; /* the holder or waker named */
	int lockish = w->kind == SA_WAIT_MUTEX || w->kind == SA_WAIT_COND_RELOCK ||
		      w->kind == SA_WAIT_RWLOCK_READ || w->kind == SA_WAIT_RWLOCK_WRITE;
	if (lockish && g->nblame) {
		/* The holder that caused most, over its sites: the site where it
		 * caused most, its mean hold over the holds whose time is known. */
		uint32_t who = g->blame[0].thread;
		named = who;
		uint64_t site = 0, site_caused = 0, caused = 0, holds = 0, hold_ns = 0;
		for (unsigned k = 0; k < g->nblame; k++) {
			const struct sa_blame *bl = &g->blame[k];
			if (bl->thread != who)
				continue;
			caused += bl->caused_ns;
			if (bl->site && bl->caused_ns >= site_caused)
				site = bl->site, site_caused = bl->caused_ns;
			if (bl->hold_ns)
				holds += bl->holds, hold_ns += bl->hold_ns;
		}
		sa_thread_label(m, who, s, sizeof(s));
		sa_cell_str(&c[SA_FND_BY_THREAD], s);
		if (who < m->nthreads)
			sa_set_i(&c[SA_FND_BY_TID], m->threads[who].vtid);
		say(f, "; held by thread `%s`", s);
		if (site) {
			sa_site_name(m, sa_model_thread_proc(m, who, ob->proc), site, s, sizeof(s));
			sa_cell_str(&c[SA_FND_BY_SITE], s);
			say(f, " in %s", s);
		}
		if (holds) {
			sa_set_u(&c[SA_FND_PER_HOLD], hold_ns / holds);
			say(f, ", %s per hold", ns(a, hold_ns / holds));
		}
		sa_set_u(&c[SA_FND_CAUSED], caused);
		say(f, ", causing %s of the wait", ns(a, caused));
	} else if ((w->kind == SA_WAIT_COND || w->kind == SA_WAIT_SEM) && g->nwakers) {
		const struct sa_waker *wk = &g->wakers[0];
		named = wk->thread;
		sa_thread_label(m, wk->thread, s, sizeof(s));
		sa_cell_str(&c[SA_FND_BY_THREAD], s);
		if (wk->thread < m->nthreads)
			sa_set_i(&c[SA_FND_BY_TID], m->threads[wk->thread].vtid);
		say(f, "; woken by thread `%s`", s);
		if (wk->site) {
			sa_site_name(m, sa_model_thread_proc(m, wk->thread, ob->proc), wk->site, s,
				     sizeof(s));
			sa_cell_str(&c[SA_FND_BY_SITE], s);
			say(f, " from %s", s);
		}
		sa_set_u(&c[SA_FND_COUNT], wk->released);
		if (wk->timed)
			say(f, " (%s waiters, %s after their wait began)", cnt(a, wk->released),
			    ns(b, wk->latency_ns / wk->timed));
		else if (wk->released)
			say(f, " (%s waiters)", cnt(a, wk->released));
	}
	struct top_waiter tw = { v, g, w->kind, UINT32_MAX, 0, named, 0 };
	sa_model_each_pair(m, find_waiter, &tw);
	if (tw.thread >= m->nthreads && tw.excluded) { /* (it alone waited) */
		tw.thread = named;
		say(f, ", while it also waited");
	} else if (tw.thread < m->nthreads) {
		sa_thread_label(m, tw.thread, s, sizeof(s));
		say(f, ", while `%s` waited", s);
	}
	if (tw.thread < m->nthreads) {
		if (ob->caller && lockish) {
			char site[256];
			say(f, " (the lock first seen at %s)", sa_site_name(m, ob->proc, ob->caller, site,
									  sizeof(site)));
		}
	}
	if (w->idle_ns)
		sa_set_u(&c[SA_FND_IDLE], w->idle_ns);
	if (idle) {
		sa_cell_str(&c[SA_FND_VERDICT], "idle");
		say(f, "; %u thread%s that did little else (waited %.0f %% or more of %s lives) "
		    "made %.0f %% of it", w->idle_threads, w->idle_threads == 1 ? "" : "s",
		    100.0 * SA_IDLE_WAITING, w->idle_threads == 1 ? "its" : "their",
		    100.0 * (double)w->idle_ns / (double)w->s.wait_ns);
	}
	/* What to try. */
	const char *try_ = NULL;
	char busy_try[256], tick_try[400];
	double turns = -1;
	struct wakers_life wl = { -1, -1, -1 };
	if (w->kind == SA_WAIT_COND || w->kind == SA_WAIT_SEM)
		wl = wakers_life(m, g);
	const char *busy = wakers_try(&wl, busy_try, sizeof(busy_try));
	if (w->kind == SA_WAIT_MUTEX || w->kind == SA_WAIT_RWLOCK_WRITE)
		try_ = "hold it for less time (move work out of the critical section) or split it";
	else if (w->kind == SA_WAIT_RWLOCK_READ)
		try_ = "shorten the writers' holds";
	else if (w->kind == SA_WAIT_COND_RELOCK)
		try_ = "signal after unlocking, or wake fewer waiters at once";
	else if ((w->kind == SA_WAIT_COND || w->kind == SA_WAIT_SEM) && !idle && !busy &&
		 (turns = turn_share(m, v, g, w->kind)) >= TURNS) {
		/* The threads that wake the waiters wait there too: a turn
		 * passed among them (CPython's GIL: 8 threads, 303 of 380 waits
		 * timed out at its 5 ms switch interval). Not a poll, not a
		 * signaller to fix: fewer contenders or shorter turns. */
		if (w->kind == SA_WAIT_COND)
			snprintf(tick_try, sizeof(tick_try),
				 "%.0f %% of its wakes came from threads that waited here too: they "
				 "take turns, as at a lock (a GIL is one); fewer threads contending, "
				 "or less work done per turn", 100.0 * turns);
		else
			snprintf(tick_try, sizeof(tick_try),
				 "%.0f %% of its posts came from threads that waited on it too: a "
				 "lock in all but name, passed among them; fewer threads contending, "
				 "or less work done holding it", 100.0 * turns);
		try_ = tick_try;
	} else if (w->kind == SA_WAIT_COND && w->s.timeouts * 2 > w->s.waits) {
		/* Waits that run to their timeout may be a poll or a periodic
		 * tick (xz's progress timer: 34 of 38, 300 ms each), not a
		 * signal that came late: with wakers that work, what the
		 * others waited for is what matters. */
		if (busy)
			snprintf(tick_try, sizeof(tick_try),
				 "most waits ran to their timeout, as a poll's or a periodic tick's "
				 "do; for the rest, %s", busy);
		else
			snprintf(tick_try, sizeof(tick_try),
				 "most waits time out: if they poll or tick, nothing is lost; if not, "
				 "nothing signals in time: check the timeout or the signaller");
		try_ = tick_try;
	} else if (idle)
		try_ = "spare threads waiting for work: nothing is lost unless they should have had "
		       "some (then feed them faster); else use fewer";
	else if (busy)
		try_ = busy;
	else if (w->kind == SA_WAIT_COND || w->kind == SA_WAIT_SEM)
		try_ = "threads idle here waiting for work: feed them faster or use fewer";
	else if (w->kind == SA_WAIT_BARRIER)
		try_ = "balance the work between rounds";
	else if (w->kind == SA_WAIT_SPINLOCK)
		try_ = "a mutex, if holds are long";
	if (try_) {
		sa_cell_str(&c[SA_FND_TRY], try_);
		say(f, ". Try: %s.", try_);
	} else {
		say(f, ".");
	}
	done(f, c);
}

static void timeout_races(struct sa_fb *f)
{
	struct sa_race_verdict v;
	char a[32], b[32], d[32];
	sa_race_verdict(f->m, UINT32_MAX, &v);
	if (!v.condvars || v.code == SA_RACE_NONE_POSSIBLE)
		return;
	struct sa_cell *c = row(f, "timeout_race");
	if (!c)
		return;
	sa_cell_str(&c[SA_FND_VERDICT], v.name);
	sa_set_u(&c[SA_FND_COUNT], v.races);
	sa_set_u(&c[SA_FND_OF], v.leaving);
	sa_set_u(&c[SA_FND_CAUSED], v.race_ns);
	sa_set_f(&c[SA_FND_SHARE], v.share);
	if (v.code == SA_RACE_NEVER)
		say(f, "timeout races do not matter here: %s condvar waiters timed out or were "
		    "cancelled and none met a signaler.", cnt(a, v.leaving));
	else
		say(f, "timeout races %s here: %s of %s waiters that left met a signaler, which "
		    "waited %s for them (%.2g %% of condvar waiting).", v.share >= 0.01 ? "matter"
		    : "cost little", cnt(a, v.races), cnt(b, v.leaving), ns(d, v.race_ns),
		    100.0 * v.share);
	done(f, c);
}

void sa_findings_build(const struct sa_model *m, const struct sa_report_opts *o,
		       struct sa_report *r)
{
	struct sa_fb f = { .m = m };
	struct sa_waits_view v;
	if (!(f.t = sa_report_table(r, "findings", "Findings", cols, SA_FND_N)))
		return;
	f.t->minor = 5; /* (idle_wait_ns) */
	f.t->flags = SA_TAB_LIST;
	f.t->text_col = SA_FND_TEXT;
	/* The first screen: the findings, ranked, within 30 lines of text
	 * (the rest --wide); the tables under them take about 50. */
	f.t->text_lines = 30;
	incomplete(&f, o);
	discarded(&f);
	sa_findings_hang(&f, o);
	if (o->checks) {
		sa_checks_finish(o->checks, m);
		checks_findings(&f, o, 1);
		checks_findings(&f, o, 0);
	}
	struct sa_report_opts byclass = *o;
	byclass.all = 0;
	byclass.sort = SA_SORT_WAIT;
	const struct sa_waits_view *vv = sa_waits_view_get(m, &byclass, r, &v);
	if (vv) {
		/* The top rows, idle ones after the others: the first of each
		 * always, the next ones when they weigh 5 % (the others of the
		 * waiting of threads not idle). */
		int idle[IDLE_ROWS], dominated = 0;
		uint32_t n = vv->nrows < IDLE_ROWS ? vv->nrows : IDLE_ROWS, shown = 0;
		uint64_t idle_ns = 0, busy_total = 0;
		for (uint32_t i = 0; i < n; i++) {
			idle[i] = row_idle(m, vv, &vv->rows[i]);
			dominated |= idle[i];
			idle_ns += vv->rows[i].idle_ns;
		}
		if (dominated && idle_ns < vv->total_ns)
			busy_total = vv->total_ns - idle_ns;
		for (int pass = 0; pass < 2; pass++) {
			uint32_t taken = 0;
			for (uint32_t i = 0; i < n && shown < MAX_WAIT_FINDINGS; i++) {
				const struct sa_wrow *w = &vv->rows[i];
				if (idle[i] != pass)
					continue;
				/* (with idle rows, a row of the others only if the
				 * waiting of threads not idle there weighs) */
				uint64_t weight = pass ? w->s.wait_ns : w->s.wait_ns - w->idle_ns;
				uint64_t of = pass || !dominated ? vv->total_ns : busy_total;
				if ((taken || (dominated && !pass)) && (!weight || weight * 20 < of))
					continue;
				taken++;
				if (w->s.wait_ns || w->s.timeouts) {
					wait_finding(&f, vv, w, idle[i], busy_total);
					shown++;
				}
			}
		}
		if (!vv->total_ns) {
			struct sa_cell *c = row(&f, "no_wait");
			if (c) {
				say(&f, "no thread waited on a synchronization object in this trace.");
				done(&f, c);
			}
		}
		sa_waits_view_free(&v);
	}
	sa_findings_wakes(&f);
	timeout_races(&f);
	sa_findings_spin_plan(&f);
	level_note(&f);
}
