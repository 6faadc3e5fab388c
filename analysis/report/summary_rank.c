/* The where-threads-wait ranking of a summary (sa_summary.h): a report
 * over summary files, or over the merge of them. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sa_report_util.h"
#include "sa_summary.h"

enum { R_RANK, R_KIND, R_TYPE, R_NAME, R_CLASS, R_OBJS, R_SITE, R_WAITS, R_CONT, R_TIMEOUTS,
       R_WAIT, R_SHARE, R_MEAN, R_P50, R_P99, R_MAX, R_N };
static const struct sa_col rank_cols[R_N] = {
	[R_RANK] = { "rank", "#", SA_COL_U64, 0, 0 },
	[R_KIND] = { "kind", "waited for", SA_COL_STR, 0, 0 },
	[R_TYPE] = { "type", "type", SA_COL_STR, SA_COL_WIDE, 0 },
	[R_NAME] = { "name", "object", SA_COL_STR, 0, 34 },
	[R_CLASS] = { "class", "class", SA_COL_STR, SA_COL_WIDE, 0 },
	[R_OBJS] = { "instances", "objs", SA_COL_U64, SA_COL_WIDE, 0 },
	[R_SITE] = { "site", "site", SA_COL_STR, 0, 20 },
	[R_WAITS] = { "waits", "waits", SA_COL_U64, 0, 0 },
	[R_CONT] = { "contended", "contended", SA_COL_U64, SA_COL_WIDE, 0 },
	[R_TIMEOUTS] = { "timeouts", "timeouts", SA_COL_U64, 0, 0 },
	[R_WAIT] = { "wait_total_ns", "total", SA_COL_NS, 0, 0 },
	[R_SHARE] = { "wait_share", "share", SA_COL_PCT, 0, 0 },
	[R_MEAN] = { "wait_mean_ns", "mean", SA_COL_NS, 0, 0 },
	[R_P50] = { "wait_p50_ns", "p50", SA_COL_NS, SA_COL_WIDE, 0 },
	[R_P99] = { "wait_p99_ns", "p99", SA_COL_NS, 0, 0 },
	[R_MAX] = { "wait_max_ns", "max", SA_COL_NS, 0, 0 },
};

struct rrow {
	uint32_t c;
	int k;
	uint64_t key;
};

static int rrow_desc(const void *a, const void *b)
{
	const struct rrow *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	if (x->c != y->c)
		return x->c < y->c ? -1 : 1;
	return x->k - y->k;
}

static void head_line(const struct sa_summary *s, FILE *out)
{
	char span[32], ev[32];
	sa_fmt_ns(span, sizeof(span), s->have_span ? (double)(s->last_ts - s->first_ts) : 0);
	fprintf(out, "synctrace summary: %" PRIu64 " trace%s from %u host%s", s->traces,
		s->traces == 1 ? "" : "s", s->nhosts, s->nhosts == 1 ? "" : "s");
	for (uint32_t i = 0; i < s->nhosts; i++)
		fprintf(out, "%s%s", i ? ", " : " (", s->hosts[i]);
	fprintf(out, "%s, %" PRIu64 " process%s, %" PRIu64 " thread%s, %u lock class%s, "
		"%s events over %s\n", s->nhosts ? ")" : "", s->processes,
		s->processes == 1 ? "" : "es", s->threads, s->threads == 1 ? "" : "s", s->n,
		s->n == 1 ? "" : "es", sa_fmt_count(ev, sizeof(ev), s->events), span);
	if (s->partial)
		fputs("PARTIAL: some trace could not be read to its end; every number is a lower "
		      "bound.\n", out);
	if (s->discarded || s->discarded_unknown)
		fprintf(out, "LOWER BOUNDS: the tracer discarded %s%" PRIu64 " events; event-derived "
			"counts are lower bounds.\n", s->discarded_unknown ? "at least " : "",
			s->discarded);
}

void sa_summary_report(const struct sa_summary *s, const struct sa_report_opts *o, FILE *out)
{
	struct sa_table t;
	sa_table_init(&t, "waits.top", "Where threads wait (by lock class, from the summary)",
		      rank_cols, R_N);
	t.minor = 3;
	struct rrow *rows = calloc((size_t)s->n * SA_WAIT_NKINDS + 1, sizeof(*rows));
	uint32_t n = 0;
	uint64_t total = 0;
	for (uint32_t i = 0; rows && i < s->n; i++)
		for (int k = 0; k < SA_WAIT_NKINDS; k++) {
			const struct sa_skind *w = &s->c[i].k[k];
			if (!(s->c[i].kinds & (1u << k)))
				continue;
			total += w->d.total_ns;
			if (!o->all && !w->d.total_ns && !w->contended && !w->timeouts)
				continue;
			uint64_t key = o->sort == SA_SORT_CONTENDED ? w->contended
				     : o->sort == SA_SORT_ACQUISITIONS ? w->waits : w->d.total_ns;
			rows[n++] = (struct rrow){ i, k, key };
		}
	if (rows)
		qsort(rows, n, sizeof(*rows), rrow_desc);
	for (uint32_t r = 0; r < n && (!o->top || r < o->top); r++) {
		const struct sa_sclass *c = &s->c[rows[r].c];
		const struct sa_skind *w = &c->k[rows[r].k];
		struct sa_cell *x = sa_table_row(&t);
		if (!x)
			break;
		sa_set_u(&x[R_RANK], r + 1);
		sa_cell_str(&x[R_KIND], sa_wait_kind_name((enum sa_wait_kind)rows[r].k));
		sa_cell_str(&x[R_TYPE], c->type);
		sa_cell_str(&x[R_NAME], c->name);
		sa_cell_str(&x[R_CLASS], c->key);
		sa_set_u(&x[R_OBJS], c->objects);
		if (c->site[0])
			sa_cell_str(&x[R_SITE], c->site);
		sa_set_u(&x[R_WAITS], w->waits);
		sa_set_u(&x[R_CONT], w->contended);
		sa_set_u(&x[R_TIMEOUTS], w->timeouts);
		sa_set_u(&x[R_WAIT], w->d.total_ns);
		sa_set_f(&x[R_SHARE], total ? (double)w->d.total_ns / (double)total : 0);
		sa_set_u(&x[R_MEAN], w->d.n ? w->d.total_ns / w->d.n : 0);
		sa_set_u(&x[R_P50], sa_sdur_pct(&w->d, 500));
		sa_set_u(&x[R_P99], sa_sdur_pct(&w->d, 990));
		sa_set_u(&x[R_MAX], w->d.max_ns);
	}
	if (!rows)
		sa_table_note(&t, "out of memory: no rows");
	else if (!n)
		sa_table_note(&t, "no thread waited");
	else if (o->top && n > o->top)
		sa_table_note(&t, "%u more rows (--top 0: all)", n - o->top);
	sa_table_note(&t, "percentiles from the merged histograms (1/8 octave: within 12.5 %%)");
	free(rows);
	switch (o->format) {
	case SA_FMT_JSON:
		fprintf(out, "{\"schema\": \"synctrace-report\", \"version\": \"%d.%u\",\n"
			" \"partial\": %s, \"lower_bounds\": %s,\n \"messages\": [],\n \"tables\": [\n  ",
			1, t.minor, s->partial ? "true" : "false",
			s->discarded || s->discarded_unknown ? "true" : "false");
		sa_table_json(&t, out);
		fputs("]}\n", out);
		break;
	case SA_FMT_CSV:
		sa_table_csv(&t, out);
		break;
	default:
		head_line(s, out);
		sa_table_text(&t, out, o->wide);
		break;
	}
	sa_table_free(&t);
}
