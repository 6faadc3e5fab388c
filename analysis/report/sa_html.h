/* The HTML report's parts (html.c: the document and tables; html_charts.c:
 * the SVG charts; html_flame.c: the flame graph; html_timeline.c: the thread timeline). Every string that
 * comes from the trace goes through sa_html_esc. */
#ifndef SA_HTML_H
#define SA_HTML_H

#include <stdio.h>

#include "sa_report_util.h"

/* Text with every character HTML gives a meaning to escaped (and bytes
 * that are not UTF-8 replaced): the one way trace text reaches the page. */
void sa_html_esc(FILE *out, const char *s);
/* A column's index, or -1. */
int sa_html_col(const struct sa_table *t, const char *name);
/* Cell (row, col) as an integer (0 if null or no such column). */
uint64_t sa_html_u(const struct sa_table *t, unsigned row, int col);
/* A call site: "0x1234 (func at file.c:12)" when the analyzer can symbolize it. */
void sa_html_site(FILE *out, const struct sa_model *m, uint32_t proc, uint64_t addr);

/* The HTML document of the tables in r, with SVG charts (html.c). */
void sa_html_render(const struct sa_model *m, const struct sa_report_opts *o,
		    const struct sa_report *r, FILE *out);
void sa_html_charts(const struct sa_model *m, const struct sa_report *r, FILE *out);
/* Wait time by stack, an icicle of the folded export's rows (html_flame.c). */
void sa_html_flame(const struct sa_model *m, const struct sa_report_opts *o, FILE *out);
/* The wait-for graph, when a thread is blocked (html_hangs.c). */
void sa_html_hangs(const struct sa_model *m, FILE *out);
void sa_html_timeline(const struct sa_model *m, const struct sa_report_opts *o, FILE *out);

#endif
