/* The snapshots of `synctrace top` (sa_top_view.h): a head line, the
 * ranking of the last interval (this snapshot's view of waits minus the
 * previous one's, per class and kind), then the report's own findings and
 * waits.top tables, built by findings.c and top_waits.c over the model as
 * it stands, so the last snapshot of a stream shows exactly what the
 * offline report of the same trace shows. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sa_report.h"
#include "sa_symbols.h"
#include "sa_top_view.h"
#include "sa_waits_view.h"

/* A (class, kind) and its totals at the previous snapshot. */
struct sa_top_prev {
	uint64_t hash;
	char *klass;
	enum sa_wait_kind kind;
	uint64_t waits, wait_ns, timeouts, contended;
};

enum { I_RANK, I_KIND, I_ID, I_WAITS = I_ID + SA_ID_N, I_CONT, I_TIMEOUTS, I_WAIT, I_SHARE,
       I_MEAN, I_N };
static const struct sa_col interval_cols[I_N] = {
	[I_RANK] = { "rank", "#", SA_COL_U64, 0, 0 },
	[I_KIND] = { "kind", "waited for", SA_COL_STR, 0, 0 },
	SA_ID_COLS(I_ID),
	[I_WAITS] = { "waits", "waits", SA_COL_U64, 0, 0 },
	[I_CONT] = { "contended", "contended", SA_COL_U64, SA_COL_WIDE, 0 },
	[I_TIMEOUTS] = { "timeouts", "timeouts", SA_COL_U64, 0, 0 },
	[I_WAIT] = { "wait_total_ns", "total", SA_COL_NS, 0, 0 },
	[I_SHARE] = { "wait_share", "share", SA_COL_PCT, 0, 0 },
	[I_MEAN] = { "wait_mean_ns", "mean", SA_COL_NS, 0, 0 },
};

static uint64_t hash_of(const char *s, enum sa_wait_kind k)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)k;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The entry of (klass, kind), added (zero totals) when new; NULL on out
 * of memory. A linear search: one per row shown, rows <= classes. */
static struct sa_top_prev *prev_of(struct sa_top *t, const char *klass, enum sa_wait_kind k)
{
	uint64_t h = hash_of(klass, k);
	for (uint32_t i = 0; i < t->nprev; i++)
		if (t->prev[i].hash == h && t->prev[i].kind == k && !strcmp(t->prev[i].klass, klass))
			return &t->prev[i];
	if (sa_grow((void **)&t->prev, t->nprev, &t->capprev, sizeof(*t->prev)))
		return NULL;
	struct sa_top_prev *p = &t->prev[t->nprev];
	memset(p, 0, sizeof(*p));
	if (!(p->klass = strdup(klass)))
		return NULL;
	p->hash = h;
	p->kind = k;
	t->nprev++;
	return p;
}

struct delta {
	uint32_t row;                 /* in the view */
	uint64_t waits, wait_ns, timeouts, contended;
};

static int delta_desc(const void *a, const void *b)
{
	const struct delta *x = a, *y = b;
	if (x->wait_ns != y->wait_ns)
		return x->wait_ns < y->wait_ns ? 1 : -1;
	if (x->waits != y->waits)
		return x->waits < y->waits ? 1 : -1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* The ranking of the last interval, and the previous totals moved on. */
static int interval_table(struct sa_top *t, const struct sa_model *m,
			  const struct sa_waits_view *v, const struct sa_top_status *s,
			  struct sa_report *r)
{
	struct delta *d = malloc((v->nrows + 1) * sizeof(*d));
	uint32_t n = 0;
	uint64_t total = 0;
	int oom = !d;
	for (uint32_t i = 0; d && i < v->nrows; i++) {
		const struct sa_wrow *w = &v->rows[i];
		struct sa_objname nm;
		char key[32];
		const char *klass = key;
		if (sa_object_name(m, v->groups[w->group].rep, &nm) == 0)
			klass = nm.klass;
		else
			snprintf(key, sizeof(key), "#%u", v->groups[w->group].rep);
		struct sa_top_prev *p = prev_of(t, klass, w->kind);
		if (!p) {
			oom = 1;
			break;
		}
		struct delta x = { i, w->s.waits - p->waits, w->s.wait_ns - p->wait_ns,
				   w->s.timeouts - p->timeouts, w->s.contended - p->contended };
		p->waits = w->s.waits;
		p->wait_ns = w->s.wait_ns;
		p->timeouts = w->s.timeouts;
		p->contended = w->s.contended;
		if (x.waits || x.wait_ns || x.timeouts || x.contended) {
			d[n++] = x;
			total += x.wait_ns;
		}
	}
	qsort(d, n, sizeof(*d), delta_desc);
	/* The table keeps the title's pointer: t's buffer outlives it. */
	snprintf(t->title, sizeof(t->title), "Waits of the last %.1f s (by class)", s->interval_s);
	struct sa_table *tab = sa_report_table(r, "top.interval", t->title, interval_cols, I_N);
	unsigned top = t->opts.top ? t->opts.top : 10;
	for (uint32_t i = 0; tab && i < n && i < top; i++) {
		const struct sa_wrow *w = &v->rows[d[i].row];
		const struct sa_wgroup *g = &v->groups[w->group];
		struct sa_cell *c = sa_table_row(tab);
		if (!c) {
			oom = 1;
			break;
		}
		sa_set_u(&c[I_RANK], i + 1);
		sa_cell_str(&c[I_KIND], sa_wait_kind_name(w->kind));
		sa_id_fill(m, g->rep, &c[I_ID]);
		sa_set_u(&c[I_ID + SA_ID_INSTANCES], g->instances);
		sa_set_u(&c[I_WAITS], d[i].waits);
		sa_set_u(&c[I_CONT], d[i].contended);
		sa_set_u(&c[I_TIMEOUTS], d[i].timeouts);
		sa_set_u(&c[I_WAIT], d[i].wait_ns);
		if (total)
			sa_set_f(&c[I_SHARE], (double)d[i].wait_ns / (double)total);
		if (d[i].waits)
			sa_set_u(&c[I_MEAN], d[i].wait_ns / d[i].waits);
	}
	if (tab && !n)
		sa_table_note(tab, "no waiting in this interval");
	else if (tab && n > top)
		sa_table_note(tab, "%u of %u rows shown (--top)", top, n);
	free(d);
	return oom || !tab ? -1 : 0;
}

int sa_top_snapshot(struct sa_top *t, const struct sa_model *m, const struct sa_top_status *s,
		    FILE *out)
{
	struct sa_report r = { 0 };
	struct sa_waits_view tmp;
	char span[32], ev[32], rate[32], behind[64] = "";
	int rc = 0;

	t->snapshots++;
	uint64_t new_events = m->events - t->prev_events;
	t->prev_events = m->events;
	sa_fmt_count(ev, sizeof(ev), m->events);
	sa_fmt_count(rate, sizeof(rate),
		     s->interval_s > 0 ? (uint64_t)((double)new_events / s->interval_s) : 0);
	sa_fmt_ns(span, sizeof(span), s->elapsed_s * 1e9);
	if (s->behind_s >= 0)
		snprintf(behind, sizeof(behind), ", %.1f s behind", s->behind_s);
	fprintf(out, "synctrace top%s: %s, %s events (%s/s), %u process%s, %u thread%s, "
		"%u object%s after %s%s\n",
		s->final ? " (final)" : "", s->source ? s->source : "", ev, rate, m->nprocs,
		m->nprocs == 1 ? "" : "es", m->nthreads, m->nthreads == 1 ? "" : "s",
		sa_model_objects_seen(m), sa_model_objects_seen(m) == 1 ? "" : "s", span, behind);
	if (s->note)
		fprintf(out, "note: %s\n", s->note);
	if (sa_lower_bounds(m))
		fputs("LOWER BOUNDS: events were discarded (by the tracer, or skipped by this "
		      "view: see the findings); event-derived counts are lower bounds.\n", out);

	/* The findings build the view of waits (kept in r.view) that
	 * waits.top and the interval ranking read too. */
	sa_findings_build(m, &t->opts, &r);
	sa_waits_build(m, &t->opts, &r);
	const struct sa_waits_view *v = sa_waits_view_get(m, &t->opts, &r, &tmp);
	if (!v || interval_table(t, m, v, s, &r))
		rc = -1;
	static const char *const shown[] = { "top.interval", "waits.top", "findings" };
	for (unsigned i = 0; i < SA_N(shown); i++) {
		const struct sa_table *tab = sa_report_find(&r, shown[i]);
		if (tab)
			sa_table_text(tab, out, t->opts.wide);
	}
	if (rc)
		fputs("out of memory: this snapshot is incomplete\n", out);
	if (v == &tmp)
		sa_waits_view_free(&tmp);
	sa_report_free(&r);
	return rc;
}

void sa_top_free(struct sa_top *t)
{
	for (uint32_t i = 0; i < t->nprev; i++)
		free(t->prev[i].klass);
	free(t->prev);
	t->prev = NULL;
	t->nprev = t->capprev = 0;
}
