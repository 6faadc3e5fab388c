/* The top of the reports: every module's tables, built in one order and
 * written in one format. */
#include <stdlib.h>
#include <string.h>

#include "sa_export.h"
#include "sa_html.h"
#include "sa_report.h"
#include "sa_summary.h"
#include "sa_waits_view.h"

typedef void (*sa_build_fn)(const struct sa_model *, const struct sa_report_opts *,
			    struct sa_report *);
/* In the order they are printed: findings first, then where threads
 * wait, then the details (text: behind --wide, except the summary). */
static const sa_build_fn modules[] = {
	sa_findings_build, sa_hosts_build, sa_waits_build, sa_summary_build, sa_contention_build,
	sa_wakes_build, sa_races_build, sa_spin_build, sa_barriers_build, sa_checks_build,
	sa_hangs_build, sa_stacks_build,
};

static int lookup(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

int sa_report_parse_sort(const char *s)
{
	static const char *const n[] = { [SA_SORT_WAIT] = "wait", [SA_SORT_CONTENDED] = "contended",
		[SA_SORT_ACQUISITIONS] = "acquisitions", [SA_SORT_HOLD] = "hold" };
	return lookup(s, n, (int)SA_N(n));
}

int sa_report_parse_format(const char *s)
{
	static const char *const n[] = { [SA_FMT_TEXT] = "text", [SA_FMT_JSON] = "json",
		[SA_FMT_CSV] = "csv", [SA_FMT_HTML] = "html", [SA_FMT_SUMMARY] = "summary",
		[SA_FMT_FOLDED] = "folded",
		[SA_FMT_PPROF] = "pprof", [SA_FMT_CHROME] = "chrome" };
	return lookup(s, n, (int)SA_N(n));
}

int sa_report_parse_by(const char *s)
{
	static const char *const n[] = { [SA_BY_CLASS] = "class", [SA_BY_OBJECT] = "object",
		[SA_BY_SITE] = "site" };
	return lookup(s, n, (int)SA_N(n));
}

static void text_head(const struct sa_model *m, const struct sa_report_opts *o, FILE *out)
{
	char span[32], ev[32];
	uint32_t nobjs = sa_model_objects_seen(m);
	sa_fmt_ns(span, sizeof(span), (double)sa_model_span(m));
	fprintf(out, "synctrace report: %u process%s, %u thread%s, %u object%s, %s events over %s\n",
		m->nprocs, m->nprocs == 1 ? "" : "es", m->nthreads, m->nthreads == 1 ? "" : "s",
		nobjs, nobjs == 1 ? "" : "s", sa_fmt_count(ev, sizeof(ev), m->events), span);
	if (o->partial)
		fputs("PARTIAL REPORT: the trace could not be read to its end; "
		      "every number is a lower bound.\n", out);
	for (unsigned i = 0; i < o->nmessages; i++)
		fprintf(out, "message: %s\n", o->messages[i]);
	if (sa_lower_bounds(m))
		fputs("LOWER BOUNDS: the tracer discarded events (see the discarded "
		      "table); event-derived counts are lower bounds.\n", out);
	char sampled[320];
	if (sa_sampled_line(m, sampled, sizeof(sampled)))
		fprintf(out, "%s\n", sampled);
}

int sa_report_render(const struct sa_model *m, const struct sa_report_opts *o, FILE *out)
{
	switch (o->format) { /* the exports build no table */
	case SA_FMT_FOLDED: return sa_export_folded(m, o, out);
	case SA_FMT_PPROF: return sa_export_pprof(m, o, out);
	case SA_FMT_CHROME: return sa_export_chrome(m, o, out);
	case SA_FMT_SUMMARY: {
		struct sa_summary s;
		int rc = sa_summary_of_model(m, o->partial, &s);
		if (!rc)
			sa_summary_write(&s, out);
		sa_summary_free(&s);
		return rc;
	}
	default: break;
	}
	struct sa_report r = { 0 };
	for (unsigned i = 0; i < SA_N(modules); i++)
		modules[i](m, o, &r);

	int lower = sa_lower_bounds(m);
	unsigned minor = 0, hidden = 0;
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
		text_head(m, o, out);
		for (unsigned i = 0; i < r.n; i++) {
			if (!o->wide && (r.tables[i]->flags & SA_TAB_WIDE)) {
				hidden++;
				continue;
			}
			sa_table_text(r.tables[i], out, o->wide);
		}
		if (hidden)
			fprintf(out, "\n%u more tables and every column: --wide; all of it in exact ns: "
				"--format json|csv\n", hidden);
		break;
	}
	sa_report_free(&r);
	return 0;
}

void sa_report_free(struct sa_report *r)
{
	for (unsigned i = 0; i < r->n; i++) {
		sa_table_free(r->tables[i]);
		free(r->tables[i]);
	}
	free(r->tables);
	if (r->view) {
		sa_waits_view_free(r->view);
		free(r->view);
	}
	memset(r, 0, sizeof(*r));
}
