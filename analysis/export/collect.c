/* The exports' observer (rows per stack, the timeline's waits and wakes)
 * and what the formats share: names, frames, notes. See sa_export.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sa_export.h"
#include "sa_symbols.h"
#include "sa_symbols_impl.h"
#include "sa_waits.h"

int sa_export_parse_sample(const char *s)
{
	static const char *const n[] = { [SA_XS_WAIT] = "wait", [SA_XS_CONTENTIONS] = "contentions",
		[SA_XS_HOLD] = "hold", [SA_XS_WASTED] = "wasted_wakes" };
	for (int i = 0; i < (int)SA_N(n); i++)
		if (!strcmp(s, n[i]))
			return i;
	return -1;
}

/* The per-thread slot ti, grown on demand (NULL on out of memory). */
static struct sa_xthr *thr_of(struct sa_export *x, uint32_t ti)
{
	while (ti >= x->nthr) /* n = capacity: grows, new room zeroed */
		if (sa_grow((void **)&x->thr, x->nthr, &x->nthr, sizeof(*x->thr)))
			return NULL;
	return &x->thr[ti];
}

/* The row (ti, oi, kind, stack or site), created zeroed. Kind and the
 * stack/site share the map's second key: user-space code addresses and
 * stack indexes stay below bit 48, kinds go above. */
static struct sa_xrow *row_of(struct sa_export *x, uint32_t ti, uint32_t oi, int kind,
			      uint32_t stack, uint64_t site)
{
	uint64_t a = (uint64_t)ti << 32 | oi;
	uint64_t b = (stack != UINT32_MAX ? (uint64_t)stack | 1ull << 48 : site & ((1ull << 48) - 1)) ^
		     (uint64_t)(kind + 2) << 52;
	int64_t i = sa_map_get(&x->row_map, a, b);
	if (i >= 0)
		return &x->rows[i];
	if (sa_grow((void **)&x->rows, x->nrows, &x->caprows, sizeof(*x->rows)) ||
	    sa_map_put(&x->row_map, a, b, x->nrows)) {
		x->oom = 1;
		return NULL;
	}
	struct sa_xrow *r = &x->rows[x->nrows++];
	*r = (struct sa_xrow){ .thread = ti, .obj = oi, .kind = kind, .stack = stack,
			       .site = stack != UINT32_MAX ? 0 : site };
	return r;
}

/* The stack of thread ti's event on object addr: the one its stack:use
 * announced for this wait (UINT32_MAX: none). */
static uint32_t stack_now(struct sa_xthr *t, uint64_t addr)
{
	return t && t->cur && t->cur_obj == addr ? t->cur_stack : UINT32_MAX;
}

/* Per object: its last wake that woke someone and no wait took yet, its
 * last contended wait no wake was found for (indexes + 1, 0: none),
 * grown on demand. NULL on out of memory. */
static struct sa_xlast *last_of(struct sa_export *x, uint32_t oi)
{
	while (oi >= x->nlast)
		if (sa_grow((void **)&x->last, x->nlast, &x->nlast, sizeof(*x->last))) {
			x->oom = 1;
			return NULL;
		}
	return &x->last[oi];
}

/* Which wake ended which wait: a futex wake on the object of the wait,
 * from another thread, that woke someone. The wake's event is stamped
 * after its syscall returns, so it comes either while the woken thread
 * still waits (matched when the wait ends) or just after the wait ended
 * (matched when the wake comes: the last contended wait on the object
 * that no wake was found for). */
/* A timeline slot (NULL when capped or out of memory: counted). */
static struct sa_xwait *timeline_slot(struct sa_export *x)
{
	if (x->nwaits == SA_X_MAX_WAITS ||
	    sa_grow((void **)&x->waits, x->nwaits, &x->capwaits, sizeof(*x->waits))) {
		x->waits_dropped++;
		return NULL;
	}
	return &x->waits[x->nwaits];
}

static void timeline_wait(struct sa_export *x, struct sa_model *m, const struct sa_event *e)
{
	uint32_t oi = m->ev_wait.oi;
	struct sa_xlast *l = last_of(x, oi);
	if (!l || !timeline_slot(x))
		return;
	struct sa_xwait *w = &x->waits[x->nwaits];
	*w = (struct sa_xwait){ .thread = m->ev_wait.ti, .obj = oi, .kind = m->ev_wait.kind,
				.b = e->ts - (int64_t)m->ev_wait.ns, .e = e->ts, .woken_by = -1 };
	if (l->wake) {
		const struct sa_xwake *k = &x->wakes[l->wake - 1];
		if (k->thread != w->thread && k->ts >= w->b && k->ts <= w->e) {
			w->woken_by = (int32_t)l->wake - 1;
			l->wake = 0; /* one wake, one arrow */
		}
	}
	if (w->woken_by < 0 && !(m->ev_wait.flags & SA_WAITED_AT_ONCE))
		l->wait = x->nwaits + 1;
	x->nwaits++;
}

static void timeline_wake(struct sa_export *x, uint32_t ti, uint32_t oi, int64_t ts)
{
	struct sa_xlast *l = last_of(x, oi);
	if (!l)
		return;
	if (x->nwakes == SA_X_MAX_WAKES ||
	    sa_grow((void **)&x->wakes, x->nwakes, &x->capwakes, sizeof(*x->wakes))) {
		x->wakes_dropped++;
		return;
	}
	x->wakes[x->nwakes] = (struct sa_xwake){ ti, oi, ts };
	struct sa_xwait *w = l->wait ? &x->waits[l->wait - 1] : NULL;
	if (w && w->thread != ti && w->b <= ts) {
		w->woken_by = (int32_t)x->nwakes;
		l->wait = 0;
	} else {
		l->wake = x->nwakes + 1;
	}
	x->nwakes++;
}

static void observe(void *ctx, struct sa_model *m, const struct sa_event *e, uint32_t pi,
		    uint32_t ti)
{
	struct sa_export *x = ctx;
	if (!x->started) {
		x->started = 1;
		x->win_b = e->ts + (int64_t)(x->win_start * 1e9);
		x->win_e = e->ts + (int64_t)(x->win_end * 1e9);
	}
	int inwin = !x->windowed || (e->ts >= x->win_b && e->ts < x->win_e);
	struct sa_xthr *t = thr_of(x, ti);
	if (!t) {
		x->oom = 1;
		return;
	}
	uint64_t addr;
	int has_obj = sa_ev_obj(e, &addr);
	if (e->id == SA_EV_stack_use) {
		/* analysis/symbols saw it first: its pend for this thread holds
		 * the stack's index. */
		const struct sa_symbols *s = m->symbols;
		struct sa_sym_proc *sp = s ? sa_sym_proc(m->symbols, e->trace, e->vpid, 0) : NULL;
		int64_t k = sp ? sa_map_get(&s->pend_map, (uint64_t)(sp - s->procs),
					    (uint32_t)e->vtid) : -1;
		int64_t obj;
		if (k >= 0 && sa_ev_get(e, "obj", &obj) && s->pends[k].live &&
		    s->pends[k].obj == (uint64_t)obj) {
			t->pend = 1;
			t->pend_obj = (uint64_t)obj;
			t->pend_stack = s->pends[k].stack;
		}
		return;
	}
	if (has_obj && t->pend) {
		/* The event the stack:use announced: it begins this wait. */
		t->pend = 0;
		if (t->pend_obj == addr) {
			t->cur = 1;
			t->cur_obj = addr;
			t->cur_stack = t->pend_stack;
		}
	}
	if (!has_obj)
		return;
	int64_t oi = sa_map_get(&m->obj_map, pi, addr);
	uint64_t site = sa_ev_caller(e);
	if (m->ev_wait.valid && inwin) {
		const struct sa_object *o = &m->objs[m->ev_wait.oi];
		uint32_t st = stack_now(t, o->addr);
		struct sa_xrow *r = row_of(x, ti, m->ev_wait.oi, (int)m->ev_wait.kind, st,
					   site ? site : o->caller);
		if (r) {
			r->waits++;
			r->contentions += !(m->ev_wait.flags & SA_WAITED_AT_ONCE);
			r->wait_ns += m->ev_wait.ns;
		}
		if (x->timeline)
			timeline_wait(x, m, e);
		if (t->cur && t->cur_obj == o->addr)
			t->cur = 0;
	}
	if (oi < 0 || !inwin)
		return;
	const struct sa_object *o = &m->objs[oi];
	if (m->ev_hold.valid && m->ev_hold.ns) {
		struct sa_xrow *r = row_of(x, ti, (uint32_t)oi, SA_WAIT_MUTEX, UINT32_MAX,
					   site ? site : o->caller);
		if (r)
			r->hold_ns += m->ev_hold.ns;
		struct sa_xwait *h = x->timeline ? timeline_slot(x) : NULL;
		if (h) {
			*h = (struct sa_xwait){ .thread = ti, .obj = (uint32_t)oi, .kind = SA_XK_HOLD,
						.b = e->ts - (int64_t)m->ev_hold.ns, .e = e->ts,
						.woken_by = -1 };
			x->nwaits++;
		}
	}
	int64_t v;
	switch (e->id) {
	case SA_EV_futex_wake:
		v = e->f[SA_F_futex_wake_woken].v;
		if (v == 0) {
			struct sa_xrow *r = row_of(x, ti, (uint32_t)oi, SA_XK_TYPE,
						   stack_now(t, addr), site ? site : o->caller);
			if (r)
				r->wasted++;
		} else if (v > 0 && x->timeline) {
			timeline_wake(x, ti, (uint32_t)oi, e->ts);
		}
		break;
	case SA_EV_spin_loop:
		v = e->f[SA_F_spin_loop_iterations].v;
		if (v > 0) {
			struct sa_xrow *r = row_of(x, ti, (uint32_t)oi, SA_XK_TYPE,
						   stack_now(t, addr), site ? site : o->caller);
			if (r)
				r->spin_iter += (uint64_t)v;
		}
		break;
	default:
		break;
	}
}

struct sa_export *sa_export_attach(struct sa_model *m, enum sa_xformat f)
{
	struct sa_export *x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	x->timeline = f == SA_X_CHROME;
	if (sa_model_observe(m, observe, x)) {
		free(x);
		return NULL;
	}
	return x;
}

void sa_export_window(struct sa_export *x, double start, double end)
{
	x->windowed = 1;
	x->win_start = start;
	x->win_end = end;
}

void sa_export_free(struct sa_export *x)
{
	if (!x)
		return;
	sa_map_free(&x->row_map);
	free(x->rows);
	free(x->thr);
	free(x->waits);
	free(x->wakes);
	free(x->last);
	free(x);
}

unsigned sa_export_top_locks(const struct sa_model *m, const struct sa_export *x, uint32_t *top,
			  uint64_t *ns, unsigned n)
{
	unsigned k = 0;
	for (uint32_t i = 0; i < x->nrows; i++) {
		uint32_t row = sa_model_row(m, x->rows[i].obj);
		uint64_t v = x->rows[i].wait_ns;
		if (!v || x->rows[i].kind < 0)
			continue;
		unsigned j = 0;
		while (j < k && top[j] != row)
			j++;
		if (j < k) {
			ns[j] += v;
		} else if (k < n) {
			top[k] = row;
			ns[k++] = v;
		} else {
			continue;
		}
	}
	/* sort by ns, descending (n is small) */
	for (unsigned i = 1; i < k; i++)
		for (unsigned j = i; j > 0 && ns[j] > ns[j - 1]; j--) {
			uint64_t t = ns[j];
			ns[j] = ns[j - 1];
			ns[j - 1] = t;
			uint32_t r = top[j];
			top[j] = top[j - 1];
			top[j - 1] = r;
		}
	return k;
}

int sa_export_keep(const struct sa_model *m, const uint32_t *top, unsigned ntop,
		   const struct sa_xrow *r)
{
	if (!top)
		return 1;
	uint32_t row = sa_model_row(m, r->obj);
	for (unsigned i = 0; i < ntop; i++)
		if (top[i] == row)
			return 1;
	return 0;
}

uint32_t *sa_export_top(const struct sa_model *m, const struct sa_report_opts *o,
			unsigned *ntop)
{
	*ntop = 0;
	if (!o->top || !o->exp)
		return NULL;
	uint32_t *top = malloc(o->top * sizeof(*top));
	uint64_t *ns = malloc(o->top * sizeof(*ns));
	if (top && ns)
		*ntop = sa_export_top_locks(m, o->exp, top, ns, o->top);
	free(ns);
	return top;
}

const char *sa_xkind_name(const struct sa_model *m, const struct sa_xrow *r)
{
	if (r->kind >= 0)
		return sa_wait_kind_name((enum sa_wait_kind)r->kind);
	return sa_obj_type_name(m->objs[sa_model_row(m, r->obj)].type);
}

unsigned sa_xrow_frames(const struct sa_model *m, const struct sa_xrow *r,
			const uint64_t **frames)
{
	const struct sa_symbols *s = m->symbols;
	if (r->stack != UINT32_MAX && s && r->stack < s->nstacks && s->stacks[r->stack].frames &&
	    s->stacks[r->stack].n) {
		*frames = s->stacks[r->stack].frames;
		return s->stacks[r->stack].n;
	}
	*frames = &r->site;
	return r->site != 0;
}

const char *sa_xlock_name(const struct sa_model *m, uint32_t obj, char *buf, size_t n)
{
	struct sa_objname nm;
	uint32_t row = sa_model_row(m, obj);
	if (sa_object_name(m, row, &nm))
		snprintf(buf, n, "0x%" PRIx64, m->objs[obj].addr);
	else
		snprintf(buf, n, "%s", nm.name);
	return buf;
}

void sa_export_notes(const struct sa_model *m, const struct sa_report_opts *o,
		     void (*fn)(void *ctx, const char *note), void *ctx)
{
	char b[200];
	if (o->partial)
		fn(ctx, "PARTIAL: the trace could not be read to its end; every number is a "
			"lower bound");
	if (sa_lower_bounds(m)) {
		if (m->discarded_total && !m->discarded_unknown)
			snprintf(b, sizeof(b), "LOWER BOUNDS: the tracer discarded %" PRIu64
				 " events; event-derived numbers are lower bounds",
				 m->discarded_total);
		else
			snprintf(b, sizeof(b), "LOWER BOUNDS: the tracer discarded events; "
				 "event-derived numbers are lower bounds");
		fn(ctx, b);
	}
	for (unsigned i = 0; i < o->nmessages; i++)
		fn(ctx, o->messages[i]);
	const struct sa_export *x = o->exp;
	if (x && x->windowed) {
		snprintf(b, sizeof(b), "window: what ended from %.6f s to %.6f s after the "
			 "first event", x->win_start, x->win_end);
		fn(ctx, b);
	}
	if (x && x->timeline && (x->waits_dropped || x->wakes_dropped)) {
		snprintf(b, sizeof(b), "timeline capped: %" PRIu64 " waits or holds and %" PRIu64
			 " wakes left out (at most %u and %u kept)", x->waits_dropped,
			 x->wakes_dropped, SA_X_MAX_WAITS, SA_X_MAX_WAKES);
		fn(ctx, b);
	}
	if (x && x->oom)
		fn(ctx, "out of memory while collecting: the export is incomplete");
}
