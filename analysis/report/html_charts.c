/* The HTML report's charts, drawn from the report tables (so they show
 * exactly the numbers of the text and JSON reports): top waits by total
 * (every kind of wait: waits.top), their wait-time log2 histograms,
 * condvar outcomes, spin success. Elements carry classes the browser test
 * counts: rect.bar per wait row drawn, svg.hist per histogram, g.cv per
 * condvar, g.spinrow per object. */
#include <stdlib.h>
#include <string.h>

#include "sa_html.h"

#define TOP 20
#define W 1100
#define LABEL 330

static const char *cell_s(const struct sa_table *t, unsigned row, int col)
{
	if (col < 0 || row >= t->nrows)
		return "";
	const struct sa_cell *x = &t->cells[(size_t)row * t->ncols + (unsigned)col];
	return x->null ? "" : x->s;
}

/* "mutex queue_lock · prog (pid 42)", "cond-relock 0x1234 #1 · ..." */
static void row_label(FILE *out, const struct sa_table *t, unsigned row)
{
	int ty = sa_html_col(t, "kind"), ad = sa_html_col(t, "address");
	int pn = sa_html_col(t, "procname"), pid = sa_html_col(t, "vpid");
	int nm = sa_html_col(t, "name");
	if (ty < 0)
		ty = sa_html_col(t, "type");
	sa_html_esc(out, ty >= 0 ? cell_s(t, row, ty) : "condvar");
	if (nm >= 0 && cell_s(t, row, nm)[0]) {
		fputc(' ', out);
		sa_html_esc(out, cell_s(t, row, nm));
	} else {
		fprintf(out, " 0x%llx", (unsigned long long)sa_html_u(t, row, ad));
	}
	uint64_t inst = sa_html_u(t, row, sa_html_col(t, "instance"));
	if (inst)
		fprintf(out, " #%llu", (unsigned long long)inst);
	fputs(" \xc2\xb7 ", out);
	sa_html_esc(out, cell_s(t, row, pn));
	fprintf(out, " (pid %llu)", (unsigned long long)sa_html_u(t, row, pid));
}

/* The row's process (by pid; the first of that pid when a pid was reused). */
static uint32_t row_proc(const struct sa_model *m, const struct sa_table *t, unsigned row)
{
	uint64_t pid = sa_html_u(t, row, sa_html_col(t, "vpid"));
	for (uint32_t p = 0; p < m->nprocs; p++)
		if ((uint64_t)m->procs[p].vpid == pid)
			return p;
	return UINT32_MAX;
}

static void caller_note(FILE *out, const struct sa_model *m, const struct sa_table *t,
			unsigned row)
{
	uint64_t v = sa_html_u(t, row, sa_html_col(t, "caller"));
	int site = sa_html_col(t, "site");
	if (site >= 0 && cell_s(t, row, site)[0]) {
		fputs("; site ", out);
		sa_html_esc(out, cell_s(t, row, site));
	} else if (v) {
		fputs("; first call site ", out);
		sa_html_site(out, m, row_proc(m, t, row), v);
	}
}

/* Rows of waits.top with some waiting, ordered by total wait, at most TOP. */
static unsigned top_rows(const struct sa_table *t, unsigned *rows)
{
	int w = sa_html_col(t, "wait_total_ns");
	unsigned n = 0;
	for (unsigned r = 0; r < t->nrows; r++) {
		if (!sa_html_u(t, r, w))
			continue; /* no bar for 0 ns of waiting */
		unsigned i = n < TOP ? n++ : TOP;
		if (i == TOP) {
			if (sa_html_u(t, r, w) <= sa_html_u(t, rows[TOP - 1], w))
				continue;
			i = TOP - 1;
		}
		rows[i] = r;
		while (i > 0 && sa_html_u(t, rows[i], w) > sa_html_u(t, rows[i - 1], w)) {
			unsigned x = rows[i];
			rows[i] = rows[i - 1];
			rows[i - 1] = x;
			i--;
		}
	}
	return n;
}

static void top_wait(const struct sa_model *m, const struct sa_table *t, FILE *out)
{
	unsigned rows[TOP];
	unsigned n = top_rows(t, rows);
	int w = sa_html_col(t, "wait_total_ns"), acq = sa_html_col(t, "waits");
	int cont = sa_html_col(t, "contended"), to = sa_html_col(t, "timeouts");
	fputs("<section id=\"top-wait\"><h2>Top waits by total (every kind of wait)</h2>\n", out);
	if (!n) {
		fputs("<p class=\"note\">No thread waited.</p></section>\n", out);
		return;
	}
	uint64_t max = sa_html_u(t, rows[0], w);
	char a[64];
	fprintf(out, "<svg class=\"chart\" id=\"chart-top-wait\" width=\"%d\" height=\"%u\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n", W, n * 22 + 10);
	for (unsigned i = 0; i < n; i++) {
		unsigned r = rows[i];
		uint64_t v = sa_html_u(t, r, w);
		double len = max ? (double)v / (double)max * (W - LABEL - 120) : 0;
		unsigned y = 5 + i * 22;
		sa_fmt_ns(a, sizeof(a), (double)v);
		fprintf(out, "<g class=\"lock\"><title>");
		row_label(out, t, r);
		fprintf(out, ": waited %s in total; %llu waits, %llu contended, %llu timeouts",
			a, (unsigned long long)sa_html_u(t, r, acq),
			(unsigned long long)sa_html_u(t, r, cont), (unsigned long long)sa_html_u(t, r, to));
		caller_note(out, m, t, r);
		fprintf(out, "</title><text x=\"%d\" y=\"%u\" text-anchor=\"end\">", LABEL - 6, y + 14);
		row_label(out, t, r);
		fprintf(out, "</text><rect class=\"bar\" x=\"%d\" y=\"%u\" width=\"%.1f\" height=\"16\"/>"
			"<text x=\"%.1f\" y=\"%u\">%s</text></g>\n",
			LABEL, y, len < 1 ? 1 : len, LABEL + (len < 1 ? 1 : len) + 5, y + 13, a);
	}
	fputs("</svg>\n", out);
	if (t->nrows > n)
		fprintf(out, "<p class=\"note\">%u more rows not drawn (fewer waits, or none).</p>\n",
			t->nrows - n);
	fputs("</section>\n", out);
}

static void histograms(const struct sa_table *t, FILE *out)
{
	unsigned rows[TOP];
	unsigned n = top_rows(t, rows), drawn = 0;
	int h = sa_html_col(t, "wait_log2_hist");
	fputs("<section id=\"wait-hist\"><h2>Wait time of the top waits (log2 histograms)</h2>\n", out);
	for (unsigned i = 0; i < n && h >= 0; i++) {
		const struct sa_cell *x = &t->cells[(size_t)rows[i] * t->ncols + (unsigned)h];
		uint64_t max = 0, total = 0;
		if (x->null)
			continue;
		for (unsigned k = 0; k < x->h.n; k++) {
			max = x->h.v[k] > max ? x->h.v[k] : max;
			total += x->h.v[k];
		}
		if (!total)
			continue;
		/* Buckets from the first to the last non-empty one. */
		unsigned lo = 0, hi = x->h.n;
		while (lo < hi && !x->h.v[lo])
			lo++;
		while (hi > lo && !x->h.v[hi - 1])
			hi--;
		unsigned nb = hi - lo, bw = nb > 20 ? 14 : 34;
		unsigned width = 40 + nb * bw + 20;
		if (width < 260)
			width = 260;
		fputs("<div class=\"hist-box\"><div>", out);
		row_label(out, t, rows[i]);
		fprintf(out, "</div><svg class=\"hist\" width=\"%u\" height=\"150\" "
			"xmlns=\"http://www.w3.org/2000/svg\">"
			"<line class=\"axis\" x1=\"38\" y1=\"120\" x2=\"%u\" y2=\"120\"/>"
			"<text x=\"34\" y=\"24\" text-anchor=\"end\">%llu</text>"
			"<text x=\"34\" y=\"120\" text-anchor=\"end\">0</text>\n",
			width, width - 10, (unsigned long long)max);
		for (unsigned k = lo; k < hi; k++) {
			char from[32], to[32];
			double len = (double)x->h.v[k] / (double)max * 100;
			unsigned xx = 40 + (k - lo) * bw;
			sa_fmt_ns(from, sizeof(from), k ? (double)(1ULL << (k - 1)) : 0);
			sa_fmt_ns(to, sizeof(to), k ? (double)(k < 64 ? 1ULL << k : ~0ULL) : 1);
			fprintf(out, "<rect class=\"hbar\" x=\"%u\" y=\"%.1f\" width=\"%u\" "
				"height=\"%.1f\"><title>%s \xe2\x80\x93 %s: %llu waits</title></rect>",
				xx, 120 - len, bw - 2, len, from, to, (unsigned long long)x->h.v[k]);
			if ((k - lo) % (bw < 20 ? 4 : 2) == 0)
				fprintf(out, "<text x=\"%u\" y=\"134\" font-size=\"9\">%s</text>", xx, from);
		}
		fprintf(out, "<text x=\"40\" y=\"148\">wait time (bucket start), %llu waits</text>"
			"</svg></div>\n", (unsigned long long)total);
		drawn++;
	}
	if (!drawn)
		fputs("<p class=\"note\">No contended acquisition: no wait to show.</p>\n", out);
	fputs("</section>\n", out);
}

struct seg {
	const char *key, *cls, *label;
};

/* One stacked horizontal bar per row of t, from the columns in segs. */
static void stacked(const struct sa_model *m, const struct sa_table *t, FILE *out,
		    const char *id, const char *title, const char *gclass, const struct seg *segs,
		    unsigned nsegs, const char *empty)
{
	fprintf(out, "<section id=\"%s\"><h2>%s</h2>\n", id, title);
	if (!t || !t->nrows) {
		fprintf(out, "<p class=\"note\">%s</p></section>\n", empty);
		return;
	}
	unsigned n = t->nrows < 40 ? t->nrows : 40;
	fprintf(out, "<svg class=\"chart\" width=\"%d\" height=\"%u\" "
		"xmlns=\"http://www.w3.org/2000/svg\"><g class=\"legend\">", W, n * 22 + 36);
	unsigned step = nsegs > 4 ? (W - LABEL) / nsegs : 210; /* the legend fits */
	for (unsigned s = 0; s < nsegs; s++)
		fprintf(out, "<rect class=\"%s\" x=\"%u\" y=\"4\" width=\"12\" height=\"12\"/>"
			"<text x=\"%u\" y=\"14\">%s</text>", segs[s].cls, LABEL + s * step,
			LABEL + s * step + 16, segs[s].label);
	fputs("</g>\n", out);
	for (unsigned r = 0; r < n; r++) {
		uint64_t v[8], total = 0;
		for (unsigned s = 0; s < nsegs; s++)
			total += v[s] = sa_html_u(t, r, sa_html_col(t, segs[s].key));
		unsigned y = 28 + r * 22;
		fprintf(out, "<g class=\"%s\"><title>", gclass);
		row_label(out, t, r);
		fputs(":", out);
		for (unsigned s = 0; s < nsegs; s++)
			fprintf(out, " %s %llu%s", segs[s].label, (unsigned long long)v[s],
				s + 1 < nsegs ? "," : "");
		caller_note(out, m, t, r);
		fprintf(out, "</title><text x=\"%d\" y=\"%u\" text-anchor=\"end\">", LABEL - 6, y + 13);
		row_label(out, t, r);
		fputs("</text>", out);
		double x = LABEL, full = W - LABEL - 120;
		for (unsigned s = 0; s < nsegs && total; s++) {
			if (!v[s])
				continue;
			double len = (double)v[s] / (double)total * full;
			fprintf(out, "<rect class=\"seg %s\" x=\"%.1f\" y=\"%u\" width=\"%.1f\" "
				"height=\"16\"/>", segs[s].cls, x, y, len);
			x += len;
		}
		fprintf(out, "<text x=\"%.1f\" y=\"%u\">%llu</text></g>\n", x + 5, y + 13,
			(unsigned long long)total);
	}
	fputs("</svg>\n", out);
	if (t->nrows > n)
		fprintf(out, "<p class=\"note\">%u more rows not drawn.</p>\n", t->nrows - n);
	fputs("</section>\n", out);
}

void sa_html_charts(const struct sa_model *m, const struct sa_report *r, FILE *out)
{
	const struct sa_table *waits = sa_report_find(r, "waits.top");
	if (waits) {
		top_wait(m, waits, out);
		histograms(waits, out);
	}
	static const struct seg cv[] = {
		{ "signaled_waiters", "seg-signaled", "signaled" },
		{ "timeouts", "seg-timedout", "timed out" },
		{ "cancellations", "seg-cancelled", "cancelled" },
		{ "races", "seg-raced", "raced" },
	};
	stacked(m, sa_report_find(r, "races.condvars"), out, "cond-outcomes",
		"Condition variables: how waits ended", "cv", cv, 4, "No condition variable waited on.");
	static const struct seg sp[] = {
		{ "acquired", "seg-acquired", "acquired while spinning" },
		{ "gave_up", "seg-gave_up", "gave up (slept)" },
		{ "saw_waiters", "seg-saw_waiters", "saw waiters (bailed)" },
	};
	stacked(m, sa_report_find(r, "spin.objects"), out, "spin", "Spinning: success per object",
		"spinrow", sp, 3, "No spin loop (SYNCTRACE_SPIN=none, or nothing contended).");
	/* The wake-outcome ledger (doc/wakes.md): what each object's wakes bought. */
	static const struct seg wl[] = {
		{ "won", "seg-won", "won" },
		{ "lost", "seg-lost", "lost (slept again)" },
		{ "futile", "seg-futile", "futile" },
		{ "passed_on", "seg-passed", "passed on" },
		{ "undecided", "seg-undecided", "undecided" },
		{ "woke_nobody", "seg-nobody", "woke nobody" },
	};
	stacked(m, sa_report_find(r, "wakes.outcomes"), out, "wake-outcomes",
		"Wakes: what each wake bought (per object; per call site: table wakes.sites)",
		"wakerow", wl, 6, "No wake was issued.");
}
