/* The wait-for graph as report tables (only when a thread is blocked at
 * the end of the trace, or at --at): hangs.graph, one row per blocked
 * thread and who can end its wait; hangs.objects, the objects of the
 * graph with who holds them (mutex, rwlock) or who ever signalled, posted,
 * arrived or runs (condvar, semaphore, barrier, once). And the sentences
 * the hang findings use (sa_hangs.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa_hangs.h"
#include "sa_report.h"
#include "sa_symbols.h"
#include "sa_waits_view.h"

void sa_sb_say(struct sa_sb *s, const char *fmt, ...)
{
	va_list ap;
	if (s->len >= s->n)
		return;
	va_start(ap, fmt);
	int w = vsnprintf(s->b + s->len, s->n - s->len, fmt, ap);
	va_end(ap);
	if (w > 0)
		s->len = s->len + (size_t)w < s->n ? s->len + (size_t)w : s->n;
}

static const char *type_word(enum sa_obj_type t)
{
	switch (t) {
	case SA_OBJ_COND: return "condvar";
	case SA_OBJ_SEM: return "semaphore";
	default: return sa_obj_type_name(t);
	}
}

void sa_hang_object(struct sa_sb *s, const struct sa_model *m, uint32_t oi)
{
	struct sa_objname nm;
	if (oi >= m->nobjs || sa_object_name(m, oi, &nm))
		sa_sb_say(s, "an object");
	else
		sa_sb_say(s, "%s `%s`", type_word(m->objs[oi].type), nm.name);
}

static void when(struct sa_sb *s, const struct sa_model *m, int64_t ts)
{
	char b[32];
	sa_sb_say(s, "%s", sa_fmt_ns(b, sizeof(b), ts > m->first_ts ? (double)(ts - m->first_ts) : 0));
}

static void who(struct sa_sb *s, const struct sa_model *m, uint32_t ti)
{
	char b[64];
	sa_thread_label(m, ti, b, sizeof(b));
	sa_sb_say(s, "`%s`", b);
}

static void site(struct sa_sb *s, const struct sa_model *m, uint32_t proc, uint64_t ip,
		 const char *prefix)
{
	char b[192];
	if (ip)
		sa_sb_say(s, "%s%s", prefix, sa_site_name(m, proc, ip, b, sizeof(b)));
}

static const char *role(const struct sa_wf_thread *t, int plural)
{
	switch (t->kind) {
	case SA_WAIT_SEM: return plural ? "posters" : "poster";
	case SA_WAIT_ONCE: return "runner";
	case SA_WAIT_BARRIER: return plural ? "threads not arrived" : "thread not arrived";
	default: return plural ? "signalers" : "signaler";
	}
}

static int lockish(enum sa_wait_kind k)
{
	return k == SA_WAIT_MUTEX || k == SA_WAIT_COND_RELOCK || k == SA_WAIT_RWLOCK_READ ||
	       k == SA_WAIT_RWLOCK_WRITE;
}

static const struct sa_wf_who *who_entry(const struct sa_wf_obj *o, uint32_t ti)
{
	for (unsigned i = 0; o && i < o->nwho; i++)
		if (o->who[i].ti == ti)
			return &o->who[i];
	return NULL;
}

/* "held by `h` since [at least] T" for a lock. */
static void holder(struct sa_sb *s, const struct sa_model *m, const struct sa_wf_obj *o,
		   const struct sa_wf_thread *t)
{
	if (o && o->held == 1) {
		sa_sb_say(s, "held by ");
		who(s, m, o->holder);
		sa_sb_say(s, " since %s", o->since_exact ? "" : "at least ");
		when(s, m, o->held_since);
	} else if (o && o->held == 2) {
		sa_sb_say(s, "held by thread %d, which the trace never names otherwise", (int)o->holder_tid);
	} else if (o && !o->held && o->readers > 0 && t->kind != SA_WAIT_MUTEX &&
		   t->kind != SA_WAIT_COND_RELOCK) {
		sa_sb_say(s, "held for reading by %d thread%s", o->readers, o->readers == 1 ? "" : "s");
		for (unsigned i = 0; i < o->nreaders; i++) {
			sa_sb_say(s, i ? ", " : " (");
			who(s, m, o->reader[i]);
		}
		sa_sb_say(s, "%s", o->nreaders ? (unsigned)o->readers > o->nreaders ? ", ...)" : ")" : "");
	} else {
		sa_sb_say(s, "held by an unknown thread (an uncontended acquisition has no event)");
		if (t->all_blocked && t->kind != SA_WAIT_MUTEX && t->kind != SA_WAIT_COND_RELOCK)
			return;
	}
}

void sa_hang_wakers(struct sa_sb *s, const struct sa_model *m, const struct sa_waitfor *w,
		    uint32_t ti)
{
	const struct sa_wf_thread *t = &w->t[ti];
	const struct sa_wf_obj *o = sa_waitfor_obj(w, t->obj);
	uint32_t proc = m->threads[ti].proc;
	if (lockish(t->kind)) {
		holder(s, m, o, t);
		return;
	}
	if (t->kind == SA_WAIT_BARRIER && o)
		sa_sb_say(s, "%d of %d arrived; ", o->arrived, o->count);
	if (!t->nwakers) {
		sa_sb_say(s, "no %s known%s", role(t, 1), t->all_blocked ? "; every thread of its "
			  "process is blocked" : "");
		return;
	}
	sa_sb_say(s, "%s: ", role(t, t->nwakers > 1));
	for (unsigned k = 0; k < t->nwakers; k++) {
		uint32_t x = t->wakers[k];
		const struct sa_wf_who *e = who_entry(o, x);
		sa_sb_say(s, "%s", k ? ", " : "");
		who(s, m, x);
		if (e && t->kind != SA_WAIT_BARRIER)
			site(s, m, proc, e->site, " from ");
		if (x < w->nt && w->t[x].exited) {
			sa_sb_say(s, " (exited at ");
			when(s, m, w->t[x].exit_ts);
			sa_sb_say(s, ")");
		} else if (x < w->nt && w->t[x].blocked) {
			sa_sb_say(s, " (blocked)");
		}
	}
	if (o && o->who_dropped)
		sa_sb_say(s, ", and more");
}

const char *sa_hang_state(const struct sa_model *m, const struct sa_waitfor *w, uint32_t ti)
{
	const struct sa_wf_thread *t = &w->t[ti];
	(void)m;
	if (t->stuck)
		return "stuck";
	if (t->timed)
		return "timed";
	return t->complete ? "waker_runs" : "unknown";
}

/* The wait of ti: " is blocked on X at SITE" (first: "`t` waits on X at SITE since T"). */
static void wait_of(struct sa_sb *s, const struct sa_model *m, const struct sa_waitfor *w,
		    uint32_t ti, int first)
{
	const struct sa_wf_thread *t = &w->t[ti];
	if (first)
		who(s, m, ti);
	sa_sb_say(s, first ? " waits on " : " is blocked on ");
	if (t->kind == SA_WAIT_COND_RELOCK)
		sa_sb_say(s, "re-acquiring ");
	sa_hang_object(s, m, t->obj);
	site(s, m, m->threads[ti].proc, t->site, " at ");
	if (first) {
		sa_sb_say(s, " since ");
		when(s, m, t->since);
	}
}

static int chain(struct sa_sb *s, const struct sa_model *m, const struct sa_waitfor *w,
		 uint32_t ti, unsigned char *seen, unsigned char *mine, int depth);

/* After naming waker x: what keeps it from ending the wait. */
static int next(struct sa_sb *s, const struct sa_model *m, const struct sa_waitfor *w, uint32_t x,
		unsigned char *seen, unsigned char *mine, int depth, int inline_form)
{
	if (x >= w->nt || x >= m->nthreads)
		return 0;
	if (w->t[x].exited) {
		if (!inline_form) {
			sa_sb_say(s, "; ");
			who(s, m, x);
		}
		sa_sb_say(s, " exited at ");
		when(s, m, w->t[x].exit_ts);
		return 0;
	}
	if (mine[x])
		return 1; /* named above: the cycle closes */
	if (seen[x] || depth >= 4) {
		sa_sb_say(s, "%s is blocked (see its own finding)", inline_form ? "," : "");
		return 0;
	}
	if (!inline_form) {
		sa_sb_say(s, "; ");
		who(s, m, x);
	}
	return chain(s, m, w, x, seen, mine, depth + 1);
}

static int chain(struct sa_sb *s, const struct sa_model *m, const struct sa_waitfor *w,
		 uint32_t ti, unsigned char *seen, unsigned char *mine, int depth)
{
	const struct sa_wf_thread *t = &w->t[ti];
	const struct sa_wf_obj *o = sa_waitfor_obj(w, t->obj);
	int cycle = 0;
	seen[ti] = mine[ti] = 1;
	wait_of(s, m, w, ti, depth == 0);
	if (lockish(t->kind)) {
		sa_sb_say(s, ", ");
		holder(s, m, o, t);
		if (t->all_blocked)
			sa_sb_say(s, ", and every thread of its process is blocked");
		for (unsigned k = 0; k < t->nwakers; k++)
			cycle |= next(s, m, w, t->wakers[k], seen, mine, depth, 0);
		return cycle;
	}
	if (t->kind == SA_WAIT_BARRIER && o)
		sa_sb_say(s, " (%d of %d arrived)", o->arrived, o->count);
	if (!t->nwakers) {
		sa_sb_say(s, "; no %s known%s", role(t, 1), t->all_blocked ? ", and every thread "
			  "of its process is blocked" : "");
		return 0;
	}
	sa_sb_say(s, "; its %s%s ", t->nwakers == 1 ? "only " : "", role(t, t->nwakers > 1));
	for (unsigned k = 0; k < t->nwakers; k++) {
		const struct sa_wf_who *e = who_entry(o, t->wakers[k]);
		sa_sb_say(s, "%s", k ? ", " : "");
		who(s, m, t->wakers[k]);
		if (e && e->site && t->kind != SA_WAIT_BARRIER)
			site(s, m, m->threads[ti].proc, e->site, " (from "), sa_sb_say(s, ")");
	}
	for (unsigned k = 0; k < t->nwakers; k++)
		cycle |= next(s, m, w, t->wakers[k], seen, mine, depth, t->nwakers == 1);
	return cycle;
}

int sa_hang_explain(struct sa_sb *s, const struct sa_model *m, const struct sa_waitfor *w,
		    uint32_t ti, unsigned char *seen)
{
	unsigned char *mine = calloc(m->nthreads ? m->nthreads : 1, 1);
	if (!mine)
		return 0;
	int cycle = chain(s, m, w, ti, seen, mine, 0);
	free(mine);
	return cycle;
}

/* ---- the tables ----------------------------------------------------------- */

enum { G_TID, G_THREAD, G_KIND, G_ID, G_SITE = G_ID + SA_ID_N, G_SINCE, G_BLOCKED, G_STATE,
       G_WAKERS, G_WAKER_TIDS, G_N };

static const struct sa_col gcols[G_N] = {
	[G_TID] = { "tid", "tid", SA_COL_I64, 0, 0 },
	[G_THREAD] = { "thread", "thread", SA_COL_STR, 0, 20 },
	[G_KIND] = { "wait_kind", "waits for", SA_COL_STR, 0, 0 },
	SA_ID_COLS(G_ID),
	[G_SITE] = { "wait_site", "wait site", SA_COL_STR, 0, 28 },
	[G_SINCE] = { "since_ns", "since", SA_COL_NS, 0, 0 },
	[G_BLOCKED] = { "blocked_ns", "blocked", SA_COL_NS, 0, 0 },
	[G_STATE] = { "state", "state", SA_COL_STR, 0, 0 },
	[G_WAKERS] = { "wakers", "who can end it", SA_COL_STR, 0, 60 },
	[G_WAKER_TIDS] = { "waker_tids", "waker tids", SA_COL_STR, SA_COL_WIDE, 0 },
};

enum { O_ID, O_ROLE = O_ID + SA_ID_N, O_THREADS, O_HELD_SINCE, O_EXACT, O_N };

static const struct sa_col ocols[O_N] = {
	SA_ID_COLS(O_ID),
	[O_ROLE] = { "role", "role", SA_COL_STR, 0, 0 },
	[O_THREADS] = { "threads", "threads", SA_COL_STR, 0, 70 },
	[O_HELD_SINCE] = { "held_since_ns", "held since", SA_COL_NS, 0, 0 },
	[O_EXACT] = { "since_exact", "exact", SA_COL_BOOL, SA_COL_WIDE, 0 },
};

static void graph_row(struct sa_table *t, const struct sa_model *m, const struct sa_waitfor *w,
		      uint32_t ti)
{
	const struct sa_wf_thread *x = &w->t[ti];
	struct sa_cell *c = sa_table_row(t);
	char b[1024];
	struct sa_sb s = { b, sizeof(b), 0 };
	if (!c)
		return;
	b[0] = 0;
	sa_set_i(&c[G_TID], m->threads[ti].vtid);
	sa_thread_label(m, ti, b, sizeof(b));
	sa_cell_str(&c[G_THREAD], b);
	sa_cell_str(&c[G_KIND], sa_wait_kind_name(x->kind));
	if (x->obj < m->nobjs)
		sa_id_fill(m, x->obj, &c[G_ID]);
	if (x->site)
		sa_cell_str(&c[G_SITE], sa_site_name(m, m->threads[ti].proc, x->site, b, sizeof(b)));
	sa_set_u(&c[G_SINCE], x->since > m->first_ts ? (uint64_t)(x->since - m->first_ts) : 0);
	sa_set_u(&c[G_BLOCKED], w->end > x->since ? (uint64_t)(w->end - x->since) : 0);
	sa_cell_str(&c[G_STATE], sa_hang_state(m, w, ti));
	b[0] = 0;
	sa_hang_wakers(&s, m, w, ti);
	sa_cell_str(&c[G_WAKERS], b);
	s.len = 0;
	b[0] = 0;
	for (unsigned k = 0; k < x->nwakers; k++)
		if (x->wakers[k] < m->nthreads)
			sa_sb_say(&s, "%s%d", k ? " " : "", (int)m->threads[x->wakers[k]].vtid);
	sa_cell_str(&c[G_WAKER_TIDS], b);
}

static void object_row(struct sa_table *t, const struct sa_model *m, const struct sa_waitfor *w,
		       uint32_t oi)
{
	const struct sa_wf_obj *o = sa_waitfor_obj(w, oi);
	const struct sa_object *ob = &m->objs[oi];
	struct sa_cell *c = sa_table_row(t);
	char b[1024];
	struct sa_sb s = { b, sizeof(b), 0 };
	if (!c || !o)
		return;
	b[0] = 0;
	sa_id_fill(m, oi, &c[O_ID]);
	switch (ob->type) {
	case SA_OBJ_MUTEX:
	case SA_OBJ_RWLOCK:
		sa_cell_str(&c[O_ROLE], o->held || ob->type == SA_OBJ_MUTEX ? "holder" : "readers");
		if (o->held == 1) {
			who(&s, m, o->holder);
			sa_set_u(&c[O_HELD_SINCE], (uint64_t)(o->held_since - m->first_ts));
			sa_set_u(&c[O_EXACT], (uint64_t)o->since_exact);
		} else if (o->held == 2) {
			sa_sb_say(&s, "thread %d", (int)o->holder_tid);
		} else if (ob->type == SA_OBJ_RWLOCK && o->readers > 0) {
			sa_sb_say(&s, "%d reader%s", o->readers, o->readers == 1 ? "" : "s");
			for (unsigned i = 0; i < o->nreaders; i++) {
				sa_sb_say(&s, i ? ", " : ": ");
				who(&s, m, o->reader[i]);
			}
		} else {
			sa_sb_say(&s, "unknown (free, or taken without contention)");
		}
		break;
	default:
		sa_cell_str(&c[O_ROLE], ob->type == SA_OBJ_SEM ? "posters" : ob->type == SA_OBJ_BARRIER
			    ? "participants" : ob->type == SA_OBJ_ONCE ? "runner" : "signalers");
		for (unsigned i = 0; i < o->nwho; i++) {
			sa_sb_say(&s, "%s", i ? ", " : "");
			who(&s, m, o->who[i].ti);
			if (ob->type == SA_OBJ_BARRIER)
				sa_sb_say(&s, " (round %d)", (int)o->who[i].round);
			else
				site(&s, m, ob->proc, o->who[i].site, " from "), sa_sb_say(&s, " x%llu",
							(unsigned long long)o->who[i].count);
		}
		if (o->who_dropped)
			sa_sb_say(&s, ", and %llu more", (unsigned long long)o->who_dropped);
		if (!o->nwho)
			sa_sb_say(&s, "none seen");
		break;
	}
	sa_cell_str(&c[O_THREADS], b);
}

void sa_hangs_build(const struct sa_model *m, const struct sa_report_opts *o, struct sa_report *r)
{
	const struct sa_waitfor *w = sa_waitfor_solve(m);
	static char title[128]; /* the table keeps the pointer */
	char b[32];
	(void)o;
	if (!w || !w->blocked)
		return;
	sa_fmt_ns(b, sizeof(b), w->end > m->first_ts ? (double)(w->end - m->first_ts) : 0);
	snprintf(title, sizeof(title), "Wait-for graph %s %s: %u blocked, %u stuck",
		 w->have_at ? "at --at" : "at the end of the trace,", b, w->blocked, w->stuck);
	struct sa_table *g = sa_report_table(r, "hangs.graph", title, gcols, G_N);
	if (!g)
		return;
	g->minor = SA_SCHEMA_MINOR;
	uint32_t n = w->nt < m->nthreads ? w->nt : m->nthreads;
	unsigned char *used = calloc(m->nobjs ? m->nobjs : 1, 1);
	for (uint32_t ti = 0; ti < n; ti++) {
		const struct sa_wf_thread *x = &w->t[ti];
		if (!x->blocked || x->exited)
			continue;
		graph_row(g, m, w, ti);
		if (used && x->obj < m->nobjs)
			used[x->obj] = 1;
	}
	sa_table_note(g, "stuck: every thread that could end the wait is stuck too or exited; "
			 "waker_runs: one of them still runs; unknown: who can end it is not in "
			 "the trace; timed: it ends by its timeout");
	sa_table_note(g, "times from the first event; a lock's holder is exact when a thread "
			 "waits on it (every release is then an event), else unknown");
	if (!used)
		return;
	/* The objects the blocked threads wait on, and the locks they hold. */
	for (uint32_t oi = 0; oi < m->nobjs && oi < w->no; oi++) {
		const struct sa_wf_obj *x = w->o[oi];
		if (x && x->held == 1 && x->holder < n && w->t[x->holder].blocked &&
		    !w->t[x->holder].exited)
			used[oi] = 1;
	}
	struct sa_table *t = sa_report_table(r, "hangs.objects", "Objects of the wait-for graph",
					     ocols, O_N);
	if (t) {
		t->minor = SA_SCHEMA_MINOR;
		for (uint32_t oi = 0; oi < m->nobjs; oi++)
			if (used[oi])
				object_row(t, m, w, oi);
	}
	free(used);
}
