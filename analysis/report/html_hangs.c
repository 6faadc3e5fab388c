/* The wait-for graph in the HTML report: one row per blocked thread, an
 * arrow from it (labelled with what it waits on) to each thread that can
 * end its wait, coloured by state (stuck, exited, runs, unknown), hover
 * for the details. Only when a thread is blocked (as the tables). */
#include "sa_hangs.h"
#include "sa_html.h"
#include "sa_waits_view.h"

#define ROW_H 34
#define BOX_W 170
#define LEFT 8
#define ARROW_W 260

/* Colours as SVG presentation attributes (the page's stylesheet is the
 * report's; this section appears only when a thread is blocked). */
#define C_STUCK "fill=\"#f8d7d7\" stroke=\"#c9302c\""
#define C_BLOCKED "fill=\"#fcefd9\" stroke=\"#eea236\""
#define C_EXITED "fill=\"#eeeeee\" stroke=\"#999999\" stroke-dasharray=\"4 2\""
#define C_RUNS "fill=\"#e3f4e3\" stroke=\"#4cae4c\""

static const char *node_colour(const struct sa_waitfor *w, uint32_t ti)
{
	if (ti >= w->nt)
		return C_RUNS;
	if (w->t[ti].exited)
		return C_EXITED;
	if (w->t[ti].stuck)
		return C_STUCK;
	return w->t[ti].blocked ? C_BLOCKED : C_RUNS;
}

static void node(FILE *out, const struct sa_model *m, const struct sa_waitfor *w, uint32_t ti,
		 int x, int y, const char *tip)
{
	char lab[64];
	sa_thread_label(m, ti, lab, sizeof(lab));
	fputs("<g class=\"wf-node\"><title>", out);
	sa_html_esc(out, tip ? tip : lab);
	fprintf(out, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"4\" "
		"stroke-width=\"1.5\" %s/><text x=\"%d\" y=\"%d\">", x, y, BOX_W, ROW_H - 10,
		node_colour(w, ti), x + 6, y + 16);
	sa_html_esc(out, lab);
	fputs("</text></g>", out);
}

void sa_html_hangs(const struct sa_model *m, FILE *out)
{
	const struct sa_waitfor *w = sa_waitfor_solve(m);
	if (!w || !w->blocked)
		return;
	uint32_t n = w->nt < m->nthreads ? w->nt : m->nthreads;
	unsigned rows = 0, widest = 1;
	for (uint32_t i = 0; i < n; i++)
		if (w->t[i].blocked && !w->t[i].exited) {
			rows++;
			if (w->t[i].nwakers > widest)
				widest = w->t[i].nwakers;
		}
	int width = LEFT + BOX_W + ARROW_W + (int)widest * (BOX_W + 10) + 10;
	fprintf(out, "<section id=\"waitfor\"><h2>Wait-for graph: %u blocked, %u stuck</h2>\n",
		w->blocked, w->stuck);
	fputs("<p class=\"note\">Each blocked thread (left) and the threads that can end its wait "
	      "(right): the holder of the lock, the known signalers and posters, the barrier's "
	      "threads not arrived. <b style=\"color:#c9302c\">stuck</b>: nothing can end it; "
	      "<b style=\"color:#c77c0e\">blocked</b>: waiting, but something can still end it; "
	      "<b style=\"color:#777\">exited</b>; <b style=\"color:#3d8b3d\">runs</b>: "
	      "not in a wait. Hover for the details.</p>\n", out);
	fprintf(out, "<svg width=\"%d\" height=\"%u\" role=\"img\" aria-label=\"wait-for graph\">"
		"<defs><marker id=\"wf-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
		"markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" "
		"fill=\"#333\"/>"
		"</marker></defs>\n", width, rows * ROW_H + 6);
	char buf[1024];
	unsigned row = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct sa_wf_thread *t = &w->t[i];
		if (!t->blocked || t->exited)
			continue;
		int y = 4 + (int)row++ * ROW_H, x1 = LEFT + BOX_W, x2 = x1 + ARROW_W;
		struct sa_sb s = { buf, sizeof(buf), 0 };
		buf[0] = 0;
		sa_sb_say(&s, "%s: ", sa_hang_state(m, w, i));
		sa_hang_wakers(&s, m, w, i);
		node(out, m, w, i, LEFT, y, buf);
		s.len = 0;
		buf[0] = 0;
		sa_sb_say(&s, "%s", t->kind == SA_WAIT_COND_RELOCK ? "re-acquiring " : t->kind ==
			  SA_WAIT_RWLOCK_READ ? "read " : t->kind == SA_WAIT_RWLOCK_WRITE ? "write " : "");
		sa_hang_object(&s, m, t->obj);
		fprintf(out, "<g class=\"wf-edge\"><title>");
		sa_html_esc(out, buf);
		fprintf(out, "</title><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\" "
			"marker-end=\"url(#wf-arrow)\"/><text x=\"%d\" y=\"%d\">", x1 + 4,
			y + 12, x2 - 6, y + 12, x1 + 10, y + 8);
		sa_html_esc(out, buf);
		fputs("</text></g>", out);
		if (!t->nwakers) {
			fprintf(out, "<text class=\"wf-none\" x=\"%d\" y=\"%d\">", x2 + 4, y + 16);
			sa_html_esc(out, t->complete ? "" : "not known");
			fputs("</text>", out);
		}
		for (unsigned k = 0; k < t->nwakers; k++)
			node(out, m, w, t->wakers[k], x2 + (int)k * (BOX_W + 10), y, NULL);
		fputc('\n', out);
	}
	fputs("</svg></section>\n", out);
}
