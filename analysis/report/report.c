#include <stdlib.h>
#include <string.h>

#include "sa_report.h"
#include "sa_symbols.h"

struct sa_table *sa_report_table(struct sa_report *r, const char *name, const char *title,
				 const struct sa_col *cols, unsigned ncols)
{
	if (r->n == r->cap) {
		unsigned c = r->cap ? r->cap * 2 : 8;
		struct sa_table **p = realloc(r->tables, c * sizeof(*p));
		if (!p)
			return NULL;
		r->tables = p;
		r->cap = c;
	}
	struct sa_table *t = malloc(sizeof(*t));
	if (!t)
		return NULL;
	r->tables[r->n++] = t;
	sa_table_init(t, name, title, cols, ncols);
	return t;
}

const char *sa_proc_name(const struct sa_model *m, uint32_t proc)
{
	return proc < m->nprocs ? m->procs[proc].procname : "";
}

int sa_lower_bounds(const struct sa_model *m)
{
	return m->ndiscards > 0;
}

void sa_set_u(struct sa_cell *c, uint64_t v)
{
	c->null = 0;
	c->u = v;
}

void sa_set_i(struct sa_cell *c, int64_t v)
{
	c->null = 0;
	c->i = v;
}

void sa_set_f(struct sa_cell *c, double v)
{
	c->null = 0;
	c->f = v;
}

void sa_set_hist(struct sa_cell *c, const struct sa_dist *d)
{
	sa_cell_hist(c, d->log2, (unsigned)sa_dist_nbuckets(d));
}

int sa_report_parse_sort(const char *s)
{
	static const char *const n[] = { "wait", "contended", "acquisitions", "hold" };
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, n[i]))
			return i;
	return -1;
}

int sa_report_parse_format(const char *s)
{
	if (!strcmp(s, "text"))
		return SA_FMT_TEXT;
	if (!strcmp(s, "json"))
		return SA_FMT_JSON;
	if (!strcmp(s, "csv"))
		return SA_FMT_CSV;
	if (!strcmp(s, "html"))
		return SA_FMT_HTML;
	return -1;
}

int sa_report_render(const struct sa_model *m, const struct sa_report_opts *o, FILE *out)
{
	struct sa_report r = { 0 };
	sa_summary_build(m, o, &r);
	sa_contention_build(m, o, &r);
	sa_wakes_build(m, o, &r);
	sa_races_build(m, o, &r);
	sa_spin_build(m, o, &r);
	sa_barriers_build(m, o, &r);
	sa_checks_build(m, o, &r);
	sa_stacks_build(m, o, &r); /* analysis/symbols: only with call stacks */

	int lower = sa_lower_bounds(m);
	unsigned minor = 0;
	for (unsigned i = 0; i < r.n; i++)
		if (r.tables[i]->minor > minor)
			minor = r.tables[i]->minor;
	switch (o->format) {
	case SA_FMT_JSON:
		fprintf(out, "{\"schema\": \"synctrace-report\", \"version\": \"%d.%u\",\n",
			SA_SCHEMA_MAJOR, minor);
		fprintf(out, " \"partial\": %s, \"lower_bounds\": %s,\n \"messages\": [",
			o->partial ? "true" : "false", lower ? "true" : "false");
		for (unsigned i = 0; i < o->nmessages; i++) {
			fputs(i ? ", " : "", out);
			sa_json_str(out, o->messages[i]);
		}
		fputs("],\n \"tables\": [", out);
		for (unsigned i = 0; i < r.n; i++) {
			fputs(i ? ",\n  " : "\n  ", out);
			sa_table_json(r.tables[i], out);
		}
		fputs("]}\n", out);
		break;
	case SA_FMT_HTML:
		sa_html_render(m, o, &r, out);
		break;
	case SA_FMT_CSV:
		if (o->partial)
			fputs("# PARTIAL: the trace could not be read to its end\n", out);
		if (lower)
			fputs("# LOWER BOUNDS: the tracer discarded events\n", out);
		for (unsigned i = 0; i < r.n; i++)
			sa_table_csv(r.tables[i], out);
		break;
	case SA_FMT_TEXT:
	default:
		fputs("synctrace report\n", out);
		if (o->partial)
			fputs("PARTIAL REPORT: the trace could not be read to its end; "
			      "every number is a lower bound.\n", out);
		for (unsigned i = 0; i < o->nmessages; i++)
			fprintf(out, "message: %s\n", o->messages[i]);
		if (lower)
			fputs("LOWER BOUNDS: the tracer discarded events (see the discarded "
			      "table); event-derived counts are lower bounds.\n", out);
		for (unsigned i = 0; i < r.n; i++)
			sa_table_text(r.tables[i], out);
		break;
	}
	for (unsigned i = 0; i < r.n; i++) {
		sa_table_free(r.tables[i]);
		free(r.tables[i]);
	}
	free(r.tables);
	return 0;
}
