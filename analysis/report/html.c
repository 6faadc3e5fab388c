/* --format html: one self-contained file (no script, no network: the
 * Content-Security-Policy forbids both), inline SVG charts, the thread
 * timeline, then every table. Trace text (process and thread names, paths,
 * anything) is untrusted: it reaches the page only through sa_html_esc. */
#include <string.h>

#include "sa_html.h"
#include "sa_symbols.h"

/* Length of the valid UTF-8 sequence at p (shortest form), or 0. */
static int utf8_len(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	int n = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
		: p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
	for (int i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if (n == 3 && ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0)))
		return 0; /* overlong, surrogate */
	if (n == 4 && ((p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90)))
		return 0;
	return n;
}

void sa_html_esc(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
		switch (*p) {
		case '&': fputs("&amp;", out); p++; continue;
		case '<': fputs("&lt;", out); p++; continue;
		case '>': fputs("&gt;", out); p++; continue;
		case '"': fputs("&quot;", out); p++; continue;
		case '\'': fputs("&#39;", out); p++; continue;
		default: break;
		}
		if (*p < 0x20 || *p == 0x7f) {
			fputs(*p == '\n' || *p == '\t' ? " " : "\xef\xbf\xbd", out);
			p++;
			continue;
		}
		int n = utf8_len(p);
		if (!n) {
			fputs("\xef\xbf\xbd", out); /* U+FFFD */
			p++;
			continue;
		}
		fwrite(p, 1, (size_t)n, out);
		p += n;
	}
}

int sa_html_col(const struct sa_table *t, const char *name)
{
	for (unsigned c = 0; t && c < t->ncols; c++)
		if (!strcmp(t->cols[c].name, name))
			return (int)c;
	return -1;
}

uint64_t sa_html_u(const struct sa_table *t, unsigned row, int col)
{
	if (!t || col < 0 || row >= t->nrows)
		return 0;
	const struct sa_cell *x = &t->cells[(size_t)row * t->ncols + (unsigned)col];
	if (x->null)
		return 0;
	return t->cols[col].type == SA_COL_I64 ? (uint64_t)(x->i > 0 ? x->i : 0) : x->u;
}

static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;background:#fff}"
	"h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;font-size:12px;margin:.5em 0}"
	"td,th{border:1px solid #ddd;padding:2px 6px;text-align:right;white-space:nowrap}"
	"td.s,th{text-align:left}th{background:#f3f3f3}"
	".note{color:#555;font-size:12px;margin:.2em 0}.warn{color:#a00;font-weight:bold}"
	"svg{font:11px sans-serif;display:block;margin:.4em 0}"
	".bar{fill:#d9534f}.hbar{fill:#5b8bd9}.axis{stroke:#888}.grid{stroke:#eee}"
	".seg-signaled{fill:#5cb85c}.seg-timedout{fill:#f0ad4e}.seg-cancelled{fill:#999}"
	".seg-raced{fill:#d9534f}.seg-acquired{fill:#5cb85c}.seg-gave_up{fill:#f0ad4e}"
	".seg-saw_waiters{fill:#5bc0de}"
	".seg-won{fill:#5cb85c}.seg-lost{fill:#d9534f}.seg-futile{fill:#f0ad4e}.seg-passed{fill:#999}"
	".seg-undecided{fill:#ddd}.seg-nobody{fill:#8e44ad}"
	".run{fill:#eaf6ea}.span-hold{fill:#3b7dd8}.span-wait{fill:#f0ad4e}"
	".span-spin{fill:#9b59b6}.span-sleep{fill:#d9534f}"
	".wake{stroke:#111;stroke-width:1}.lane-label{font-size:11px}"
	".legend rect{stroke:#888}.hist-box{display:inline-block;margin:0 1em 1em 0;vertical-align:top}"
	"details{margin:.5em 0}summary{cursor:pointer;font-weight:bold}"
	".finding td{white-space:normal;text-align:left}";

static void html_table(const struct sa_table *t, FILE *out, int open)
{
	char buf[1024];
	fprintf(out, "<details%s class=\"table\" id=\"table-", open ? " open" : "");
	sa_html_esc(out, t->name);
	fputs("\"><summary>", out);
	sa_html_esc(out, t->title);
	fprintf(out, " (%u rows)</summary>\n<table><tr>", t->nrows);
	for (unsigned c = 0; c < t->ncols; c++) {
		fputs("<th title=\"", out);
		sa_html_esc(out, t->cols[c].name);
		fputs("\">", out);
		sa_html_esc(out, t->cols[c].head);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	for (unsigned r = 0; r < t->nrows; r++) {
		fputs("<tr>", out);
		for (unsigned c = 0; c < t->ncols; c++) {
			const struct sa_col *col = &t->cols[c];
			sa_cell_text(col, &t->cells[(size_t)r * t->ncols + c], buf, sizeof(buf));
			fputs(col->type == SA_COL_STR || col->type == SA_COL_HIST ? "<td class=\"s\">"
										  : "<td>", out);
			sa_html_esc(out, buf);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	for (unsigned i = 0; i < t->nnotes; i++) {
		fputs("<p class=\"note\">", out);
		sa_html_esc(out, t->notes[i]);
		fputs("</p>\n", out);
	}
	fputs("</details>\n", out);
}

/* The findings, one block each (readable with long details). */
static void html_findings(const struct sa_table *t, FILE *out)
{
	fprintf(out, "<section id=\"checks\"><h2>Debug checks: %u finding%s</h2>\n", t->nrows,
		t->nrows == 1 ? "" : "s");
	if (t->nrows) {
		fputs("<table class=\"findings\"><tr><th>check</th><th>process</th><th>t (s)</th>"
		      "<th>count</th><th>objects</th><th>threads</th><th>call sites</th>"
		      "<th>what</th></tr>\n", out);
		static const char *const keys[] = { "check", "procname", "time_s", "count",
						    "objects", "threads", "callers", "detail" };
		char buf[1024];
		for (unsigned r = 0; r < t->nrows; r++) {
			fputs("<tr class=\"finding\">", out);
			for (unsigned k = 0; k < 8; k++) {
				int c = sa_html_col(t, keys[k]);
				buf[0] = 0;
				if (c >= 0)
					sa_cell_text(&t->cols[c], &t->cells[(size_t)r * t->ncols + (unsigned)c],
						     buf, sizeof(buf));
				fputs("<td>", out);
				sa_html_esc(out, buf);
				fputs("</td>", out);
			}
			fputs("</tr>\n", out);
		}
		fputs("</table>\n", out);
	}
	for (unsigned i = 0; i < t->nnotes; i++) {
		fputs("<p class=\"note\">", out);
		sa_html_esc(out, t->notes[i]);
		fputs("</p>\n", out);
	}
	fputs("</section>\n", out);
}

void sa_html_render(const struct sa_model *m, const struct sa_report_opts *o,
		    const struct sa_report *r, FILE *out)
{
	char a[64];
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n<title>synctrace report</title>\n<style>", out);
	fputs(style, out);
	fputs("</style></head><body>\n<h1>synctrace report</h1>\n", out);
	sa_fmt_ns(a, sizeof(a), (double)sa_model_span(m));
	fprintf(out, "<p class=\"meta\">%u process%s, %u threads, %u objects, %llu events over "
		"%s. Hover a bar, a lane or an interval for details and call sites.</p>\n",
		m->nprocs, m->nprocs == 1 ? "" : "es", m->nthreads, m->nobjs,
		(unsigned long long)m->events, a);
	if (o->partial)
		fputs("<p class=\"warn\">PARTIAL REPORT: the trace could not be read to its end; "
		      "every number is a lower bound.</p>\n", out);
	if (sa_lower_bounds(m))
		fputs("<p class=\"warn\">LOWER BOUNDS: the tracer discarded events; event-derived "
		      "counts are lower bounds.</p>\n", out);
	char sampled[320];
	if (sa_sampled_line(m, sampled, sizeof(sampled))) {
		fputs("<p class=\"warn\">", out);
		sa_html_esc(out, sampled);
		fputs("</p>\n", out);
	}
	for (unsigned i = 0; i < o->nmessages; i++) {
		fputs("<p class=\"warn\">", out);
		sa_html_esc(out, o->messages[i]);
		fputs("</p>\n", out);
	}
	const struct sa_table *top = sa_report_find(r, "findings");
	int text = top ? sa_html_col(top, "text") : -1;
	if (top && text >= 0) { /* the report opens with its findings, as in text */
		fputs("<section id=\"findings\"><h2>Findings</h2>\n<ol class=\"findings\">\n", out);
		for (unsigned i = 0; i < top->nrows; i++) {
			const struct sa_cell *x = &top->cells[(size_t)i * top->ncols + (unsigned)text];
			fputs("<li class=\"fnd\">", out);
			sa_html_esc(out, x->null ? "" : x->s);
			fputs("</li>\n", out);
		}
		fputs("</ol></section>\n", out);
	}
	sa_html_hangs(m, out);
	const struct sa_table *f = sa_report_find(r, "checks.findings");
	if (f)
		html_findings(f, out);
	sa_html_charts(m, r, out);
	sa_html_flame(m, o, out);
	sa_html_timeline(m, o, out);
	fputs("<section id=\"tables\"><h2>Tables</h2>\n", out);
	for (unsigned i = 0; i < r->n; i++)
		html_table(r->tables[i], out, 0);
	fputs("</section>\n</body></html>\n", out);
}

void sa_html_site(FILE *out, const struct sa_model *m, uint32_t proc, uint64_t addr)
{
	char buf[512];
	const char *sym = proc < m->nprocs ? sa_symbols_addr(m, m->procs[proc].trace,
							     m->procs[proc].vpid, addr, buf,
							     sizeof(buf)) : NULL;
	fprintf(out, "0x%llx", (unsigned long long)addr);
	if (sym) {
		fputs(" (", out);
		sa_html_esc(out, sym); /* symbol and file names come from the trace's binaries */
		fputc(')', out);
	}
}
