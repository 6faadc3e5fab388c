/* The thread timeline (sa_timeline.h collects it): one lane per thread,
 * the time it is known to be alive drawn as running, on top of it what it
 * held (upper band) and how it waited (lower band: waiting, spinning,
 * asleep in the kernel), and an arrow from each futex wake to the thread
 * it woke. Hovering (SVG <title>) names the object and the call sites. */
#include <stdlib.h>
#include <string.h>

#include "sa_html.h"
#include "sa_timeline.h"

#define LABELW 230
#define PW 1080
#define LANE 30
#define TOPY 34
#define MAX_LANES 64

struct tl {
	const struct sa_model *m;
	const struct sa_tl_window *w;
	int32_t *lane;  /* by thread index: lane, or -1 */
	FILE *out;
};

static double xof(const struct tl *t, int64_t ts)
{
	int64_t span = t->w->end - t->w->start;
	if (ts < t->w->start)
		ts = t->w->start;
	if (ts > t->w->end)
		ts = t->w->end;
	return LABELW + (double)(ts - t->w->start) / (double)(span > 0 ? span : 1) * PW;
}

static void thread_name(const struct tl *t, uint32_t ti)
{
	const struct sa_thread *th = &t->m->threads[ti];
	fprintf(t->out, "thread %d (", (int)th->vtid);
	sa_html_esc(t->out, th->procname);
	fputs(")", t->out);
}

static void obj_name(const struct tl *t, uint32_t oi)
{
	const struct sa_object *o = &t->m->objs[oi];
	fprintf(t->out, "%s 0x%llx", sa_obj_type_name(o->type), (unsigned long long)o->addr);
}

static void rel(const struct tl *t, char *b, size_t n, int64_t ts)
{
	snprintf(b, n, "+%.6f s", (double)(ts - t->m->first_ts) / 1e9);
}

static void span(const struct tl *t, const struct sa_span *s)
{
	static const char *const cls[SA_SPAN_N] = { "span-hold", "span-wait", "span-spin",
						    "span-sleep" };
	static const char *const verb[SA_SPAN_N] = { "holding", "waiting for", "spinning on",
						     "asleep (futex wait) on" };
	if (s->thread >= t->m->nthreads || t->lane[s->thread] < 0 || s->obj >= t->m->nobjs ||
	    s->b >= t->w->end || s->e < t->w->start)
		return;
	double x0 = xof(t, s->b), x1 = xof(t, s->e);
	uint32_t proc = t->m->threads[s->thread].proc;
	double y = TOPY + t->lane[s->thread] * LANE + (s->kind == SA_SPAN_HOLD ? 3 : 15);
	char a[64], b[32], e[32];
	sa_fmt_ns(a, sizeof(a), (double)(s->e - s->b));
	rel(t, b, sizeof(b), s->b);
	rel(t, e, sizeof(e), s->e);
	fprintf(t->out, "<rect class=\"span %s\" x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" "
		"height=\"11\"><title>", cls[s->kind], x0, y, x1 - x0 < 0.5 ? 0.5 : x1 - x0);
	thread_name(t, s->thread);
	fprintf(t->out, ": %s ", verb[s->kind]);
	obj_name(t, s->obj);
	fprintf(t->out, " for %s (%s \xe2\x86\x92 %s)", a, b, e);
	if (s->kind == SA_SPAN_HOLD) {
		if (s->caller2) {
			fputs("; locked at ", t->out);
			sa_html_site(t->out, t->m, proc, s->caller2);
		}
		if (s->caller) {
			fputs("; unlocked at ", t->out);
			sa_html_site(t->out, t->m, proc, s->caller);
		}
	} else if (s->caller) {
		fputs("; call site ", t->out);
		sa_html_site(t->out, t->m, proc, s->caller);
	}
	fputs("</title></rect>", t->out);
	if (s->kind == SA_SPAN_HOLD && x1 - x0 > 90)
		fprintf(t->out, "<text x=\"%.1f\" y=\"%.0f\" fill=\"#fff\" font-size=\"9\">%s 0x%llx"
			"</text>", x0 + 3, y + 9, sa_obj_type_name(t->m->objs[s->obj].type),
			(unsigned long long)t->m->objs[s->obj].addr);
	fputc('\n', t->out);
}

static void arrow(const struct tl *t, const struct sa_arrow *a)
{
	if (a->from >= t->m->nthreads || a->to >= t->m->nthreads || t->lane[a->from] < 0 ||
	    t->lane[a->to] < 0 || a->obj >= t->m->nobjs || a->b >= t->w->end || a->e < t->w->start)
		return;
	char b[32], e[32];
	rel(t, b, sizeof(b), a->b);
	rel(t, e, sizeof(e), a->e);
	fprintf(t->out, "<line class=\"wake\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" "
		"marker-end=\"url(#wake-head)\"><title>wake on ", xof(t, a->b),
		TOPY + t->lane[a->from] * LANE + 15, xof(t, a->e), TOPY + t->lane[a->to] * LANE + 15);
	obj_name(t, a->obj);
	fputs(": ", t->out);
	thread_name(t, a->from);
	fprintf(t->out, " at %s woke ", b);
	thread_name(t, a->to);
	fprintf(t->out, ", which returned at %s</title></line>\n", e);
}

static const struct sa_model *cmp_m;
static int by_thread(const void *x, const void *y)
{
	const struct sa_thread *a = &cmp_m->threads[*(const uint32_t *)x];
	const struct sa_thread *b = &cmp_m->threads[*(const uint32_t *)y];
	if (a->proc != b->proc)
		return a->proc < b->proc ? -1 : 1;
	if (a->vtid != b->vtid)
		return a->vtid < b->vtid ? -1 : 1;
	return (a->instance > b->instance) - (a->instance < b->instance);
}

void sa_html_timeline(const struct sa_model *m, const struct sa_report_opts *o, FILE *out)
{
	fputs("<section id=\"timeline\"><h2>Thread timeline</h2>\n", out);
	if (!o->timeline || !m->nthreads) {
		fputs(o->timeline ? "<p class=\"note\">No timeline: no thread in the trace.</p></section>\n"
				  : "<p class=\"note\">No timeline: it is collected by synctrace-report "
				    "(not by the babeltrace2 plugin).</p></section>\n", out);
		return;
	}
	const struct sa_tl_window *w = sa_timeline_window(o->timeline);
	struct tl t = { m, w, calloc(m->nthreads, sizeof(int32_t)), out };
	uint32_t *order = calloc(m->nthreads, sizeof(uint32_t));
	uint8_t *used = calloc(m->nthreads, 1);
	if (!t.lane || !order || !used) {
		fputs("<p class=\"warn\">out of memory: no timeline</p></section>\n", out);
		goto out;
	}
	/* Lanes: threads with something in the window, or alive in it. */
	for (uint32_t i = 0; i < w->nspans; i++)
		if (w->spans[i].thread < m->nthreads)
			used[w->spans[i].thread] = 1;
	for (uint32_t i = 0; i < w->narrows; i++) {
		if (w->arrows[i].from < m->nthreads)
			used[w->arrows[i].from] = 1;
		if (w->arrows[i].to < m->nthreads)
			used[w->arrows[i].to] = 1;
	}
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->nthreads; i++) {
		t.lane[i] = -1;
		if (used[i] || (m->threads[i].first_ts < w->end && m->threads[i].last_ts >= w->start))
			order[n++] = i;
	}
	cmp_m = m;
	qsort(order, n, sizeof(uint32_t), by_thread);
	uint32_t lanes = n < MAX_LANES ? n : MAX_LANES;
	for (uint32_t i = 0; i < lanes; i++)
		t.lane[order[i]] = (int32_t)i;

	char a[32], b[32], d[64];
	rel(&t, a, sizeof(a), w->start);
	rel(&t, b, sizeof(b), w->end);
	sa_fmt_ns(d, sizeof(d), (double)(w->end - w->start));
	fprintf(out, "<p class=\"note\">Window %s to %s (%s) from the first event: %s; "
		"%u intervals, %u wakes, %u threads.</p>\n", a, b, d,
		o->timeline->fixed ? "as asked (--window)"
				     : "the busiest second (most waiting), narrowed to its first and last event",
		w->nspans, w->narrows, n);
	if (w->spans_capped || w->arrows_capped)
		fprintf(out, "<p class=\"warn\">Capped at %d intervals and %d wakes: the window was "
			"shortened to where the cap was reached (%llu intervals and %llu wakes after it "
			"were left out).</p>\n",
			SA_TL_MAX_SPANS, SA_TL_MAX_ARROWS, (unsigned long long)w->spans_capped,
			(unsigned long long)w->arrows_capped);
	if (n > lanes)
		fprintf(out, "<p class=\"warn\">%u more threads not drawn (limit %d lanes).</p>\n",
			n - lanes, MAX_LANES);

	unsigned height = TOPY + lanes * LANE + 40;
	fprintf(out, "<svg class=\"timeline\" id=\"timeline-svg\" width=\"%d\" height=\"%u\" "
		"xmlns=\"http://www.w3.org/2000/svg\"><defs><marker id=\"wake-head\" "
		"viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" "
		"orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\"/></marker></defs>\n",
		LABELW + PW + 20, height);
	/* Axis: ten ticks. */
	for (int k = 0; k <= 10; k++) {
		int64_t ts = w->start + (w->end - w->start) * k / 10;
		double x = xof(&t, ts);
		rel(&t, a, sizeof(a), ts);
		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%u\"/>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, TOPY - 6, x,
			TOPY + lanes * LANE, x, TOPY - 10, a);
	}
	for (uint32_t i = 0; i < lanes; i++) {
		uint32_t ti = order[i];
		const struct sa_thread *th = &m->threads[ti];
		int y = TOPY + (int)i * LANE;
		double x0 = xof(&t, th->first_ts), x1 = xof(&t, th->last_ts);
		fputs("<g class=\"lane\"><title>", out);
		thread_name(&t, ti);
		fprintf(out, ", pid %d: first event %s, last %s; light green: running (no wait "
			"traced)</title>", (int)m->procs[th->proc].vpid,
			(rel(&t, a, sizeof(a), th->first_ts), a), (rel(&t, b, sizeof(b), th->last_ts), b));
		fprintf(out, "<text class=\"lane-label\" x=\"%d\" y=\"%d\" text-anchor=\"end\">",
			LABELW - 6, y + 19);
		fprintf(out, "%d ", (int)th->vtid);
		sa_html_esc(out, th->procname);
		fprintf(out, "</text><rect class=\"run\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
			"height=\"%d\"/></g>\n", x0, y + 1, x1 - x0, LANE - 4);
	}
	/* Waits under holds, arrows on top. */
	for (int pass = 0; pass < 3; pass++)
		for (uint32_t i = 0; i < w->nspans; i++) {
			enum sa_span_kind k = w->spans[i].kind;
			if ((pass == 0 && k == SA_SPAN_WAIT) || (pass == 1 && (k == SA_SPAN_SPIN ||
			    k == SA_SPAN_SLEEP)) || (pass == 2 && k == SA_SPAN_HOLD))
				span(&t, &w->spans[i]);
		}
	for (uint32_t i = 0; i < w->narrows; i++)
		arrow(&t, &w->arrows[i]);
	/* Legend. */
	static const char *const lcls[] = { "run", "span-hold", "span-wait", "span-spin", "span-sleep" };
	static const char *const ltxt[] = { "running (no wait traced)", "holding a lock",
					    "waiting for an object", "spinning", "asleep in the kernel" };
	int ly = (int)(TOPY + lanes * LANE + 16);
	fputs("<g class=\"legend\">", out);
	for (int k = 0; k < 5; k++)
		fprintf(out, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"12\" height=\"12\"/>"
			"<text x=\"%d\" y=\"%d\">%s</text>", lcls[k], LABELW + k * 180, ly,
			LABELW + k * 180 + 16, ly + 10, ltxt[k]);
	fprintf(out, "<line class=\"wake\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"marker-end=\"url(#wake-head)\"/><text x=\"%d\" y=\"%d\">wake: waker \xe2\x86\x92 "
		"woken</text></g>\n", LABELW + 900, ly + 6, LABELW + 930, ly + 6, LABELW + 936, ly + 10);
	fputs("</svg>\n<p class=\"note\">Intervals are known when they end (the event carries "
	      "the duration); those still open when the window was collected are not drawn. "
	      "Holds of uncontended acquisitions need SYNCTRACE_LEVEL=full.</p>\n", out);
out:
	fputs("</section>\n", out);
	free(t.lane);
	free(order);
	free(used);
}
