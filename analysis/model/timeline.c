/* The HTML timeline's window collector (sa_timeline.h). */
#include <stdlib.h>
#include <string.h>

#include "sa_timeline.h"

#define NS 1000000000LL

static void win_reset(struct sa_tl_window *w, int64_t start, int64_t end)
{
	w->start = start;
	w->end = end;
	w->events = 0;
	w->wait_ns = 0;
	w->nspans = w->narrows = 0;
	w->spans_capped = w->arrows_capped = 0;
	w->cap_ts = 0;
}

static void win_free(struct sa_tl_window *w)
{
	free(w->spans);
	free(w->arrows);
}

static int grow(void **p, uint32_t n, uint32_t *cap, size_t size)
{
	if (n < *cap)
		return 0;
	uint32_t c = *cap ? *cap * 2 : 256;
	void *q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static void add_span(struct sa_timeline *t, uint32_t ti, uint32_t oi, int64_t b, int64_t e,
		     enum sa_span_kind k, uint64_t caller, uint64_t caller2)
{
	struct sa_tl_window *w = &t->cur;
	if (e < w->start || b >= w->end)
		return;
	if (w->nspans >= SA_TL_MAX_SPANS) {
		if (!w->spans_capped++ && !w->arrows_capped)
			w->cap_ts = e;
		return;
	}
	if (grow((void **)&w->spans, w->nspans, &w->capspans, sizeof(*w->spans))) {
		t->oom = 1;
		return;
	}
	struct sa_span *s = &w->spans[w->nspans++];
	s->thread = ti;
	s->obj = oi;
	s->b = b;
	s->e = e;
	s->kind = k;
	s->caller = caller;
	s->caller2 = caller2;
}

static void add_arrow(struct sa_timeline *t, uint32_t from, uint32_t to, uint32_t oi, int64_t b,
		      int64_t e)
{
	struct sa_tl_window *w = &t->cur;
	if (e < w->start || b >= w->end)
		return;
	if (w->narrows >= SA_TL_MAX_ARROWS) {
		if (!w->arrows_capped++ && !w->spans_capped)
			w->cap_ts = e;
		return;
	}
	if (grow((void **)&w->arrows, w->narrows, &w->caparrows, sizeof(*w->arrows))) {
		t->oom = 1;
		return;
	}
	struct sa_arrow *a = &w->arrows[w->narrows++];
	a->from = from;
	a->to = to;
	a->obj = oi;
	a->b = b;
	a->e = e;
}

static void *per_index(struct sa_timeline *t, void **arr, uint32_t *n, uint32_t i, size_t size)
{
	if (i >= *n) {
		uint32_t c = i + 64;
		void *p = realloc(*arr, c * size);
		if (!p) {
			t->oom = 1;
			return NULL;
		}
		memset((char *)p + *n * size, 0, (c - *n) * size);
		*arr = p;
		*n = c;
	}
	return (char *)*arr + i * size;
}

/* Is window a busier than b? */
static int busier(const struct sa_tl_window *a, const struct sa_tl_window *b)
{
	if (a->wait_ns != b->wait_ns)
		return a->wait_ns > b->wait_ns;
	return a->events > b->events;
}

/* Busiest second: a new second begins; keep the busier of the two. */
static void next_second(struct sa_timeline *t, int64_t ts)
{
	if (busier(&t->cur, &t->best)) {
		struct sa_tl_window x = t->best;
		t->best = t->cur;
		t->cur = x;
	}
	int64_t k = (ts - t->origin) / NS;
	win_reset(&t->cur, t->origin + k * NS, t->origin + (k + 1) * NS);
}

static void observe(void *ctx, struct sa_model *m, const struct sa_event *e, uint32_t pi,
		    uint32_t ti)
{
	struct sa_timeline *t = ctx;
	if (!t->started) {
		t->started = 1;
		t->origin = e->ts;
		if (t->fixed)
			win_reset(&t->cur, e->ts + (int64_t)(t->want_start * 1e9),
				  e->ts + (int64_t)(t->want_end * 1e9));
		else
			win_reset(&t->cur, e->ts, e->ts + NS);
	}
	if (!t->fixed && e->ts >= t->cur.end)
		next_second(t, e->ts);
	if (e->ts >= t->cur.start && e->ts < t->cur.end) {
		if (!t->cur.events++)
			t->cur.ev_first = e->ts;
		t->cur.ev_last = e->ts;
		if (m->ev_wait.valid)
			t->cur.wait_ns += m->ev_wait.ns;
	}
	else if (e->ts < t->cur.start)
		return;

	uint64_t addr;
	if (!sa_ev_obj(e, &addr))
		return;
	int64_t oi = sa_map_get(&m->obj_map, pi, addr);
	if (oi < 0)
		return;
	uint32_t o = (uint32_t)oi;
	uint64_t caller = sa_ev_caller(e);
	int64_t v;
	switch (e->id) {
	case SA_EV_futex_wait:
		v = e->f[SA_F_futex_wait_slept_ns].v;
		if (v > 0)
			add_span(t, ti, o, e->ts - v, e->ts, SA_SPAN_SLEEP, 0, 0);
		if (e->f[SA_F_futex_wait_result].v == 0 && o < t->nwakes && t->wakes[o].valid &&
		    t->wakes[o].ts >= e->ts - (v > 0 ? v : 0) && t->wakes[o].thread != ti)
			add_arrow(t, t->wakes[o].thread, ti, o, t->wakes[o].ts, e->ts);
		break;
	case SA_EV_futex_wake:
		if (e->f[SA_F_futex_wake_woken].v > 0) {
			struct sa_tl_wake *w = per_index(t, (void **)&t->wakes, &t->nwakes, o,
							 sizeof(*t->wakes));
			if (w) {
				w->thread = ti;
				w->ts = e->ts;
				w->valid = 1;
			}
		}
		break;
	case SA_EV_spin_loop:
		v = e->f[SA_F_spin_loop_spin_ns].v;
		if (v > 0)
			add_span(t, ti, o, e->ts - v, e->ts, SA_SPAN_SPIN, 0, 0);
		break;
	case SA_EV_mutex_acquired: {
		v = e->f[SA_F_mutex_acquired_wait_ns].v;
		if (v > 0)
			add_span(t, ti, o, e->ts - v, e->ts, SA_SPAN_WAIT, caller, 0);
		struct sa_tl_thread *th = per_index(t, (void **)&t->threads, &t->nthreads, ti,
						    sizeof(*t->threads));
		if (th) {
			th->obj = o;
			th->ts = e->ts;
			th->caller = caller;
			th->valid = 1;
		}
		break;
	}
	case SA_EV_mutex_released: {
		struct sa_tl_thread *th = ti < t->nthreads ? &t->threads[ti] : NULL;
		int pend = th && th->valid && th->obj == o;
		v = m->ev_hold.valid ? (int64_t)m->ev_hold.ns : 0; /* mutex.c read it */
		if (v > 0)
			add_span(t, ti, o, e->ts - v, e->ts, SA_SPAN_HOLD, caller,
				 pend ? th->caller : 0);
		else if (pend)
			add_span(t, ti, o, th->ts, e->ts, SA_SPAN_HOLD, caller, th->caller);
		if (pend)
			th->valid = 0;
		break;
	}
	default:
		/* The wait this event ended, of any family (the model noted it),
		 * on its object (a condvar's relock: on the mutex). */
		if (m->ev_wait.valid && m->ev_wait.ns)
			add_span(t, ti, m->ev_wait.oi, e->ts - (int64_t)m->ev_wait.ns, e->ts,
				 SA_SPAN_WAIT, caller, 0);
		break;
	}
}

struct sa_timeline *sa_timeline_attach(struct sa_model *m, int fixed, double start, double end)
{
	struct sa_timeline *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->fixed = fixed;
	t->want_start = start;
	t->want_end = end;
	if (sa_model_observe(m, observe, t)) {
		free(t);
		return NULL;
	}
	return t;
}

const struct sa_tl_window *sa_timeline_window(struct sa_timeline *t)
{
	if (!t->fixed && !t->finished && busier(&t->cur, &t->best)) {
		struct sa_tl_window x = t->best;
		t->best = t->cur;
		t->cur = x;
	}
	if (!t->fixed && !t->finished && t->best.events) {
		/* The busiest second, narrowed to its events (a short trace fills the page). */
		t->best.start = t->best.ev_first;
		t->best.end = t->best.ev_last > t->best.ev_first ? t->best.ev_last : t->best.ev_first + 1;
	}
	struct sa_tl_window *w = t->fixed ? &t->cur : &t->best;
	if (!t->finished && (w->spans_capped || w->arrows_capped) && w->cap_ts > w->start &&
	    w->cap_ts < w->end)
		w->end = w->cap_ts; /* complete up to the cap: draw that much */
	t->finished = 1;
	return t->fixed ? &t->cur : &t->best;
}

void sa_timeline_free(struct sa_timeline *t)
{
	if (!t)
		return;
	win_free(&t->best);
	win_free(&t->cur);
	free(t->threads);
	free(t->wakes);
	free(t);
}
