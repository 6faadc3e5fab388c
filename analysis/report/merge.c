/* Reading summaries (libjansson) and the where-threads-wait ranking of a
 * summary (sa_summary.h). A summary is checked field by field: a file
 * that is not JSON, not a summary, of a newer major or with a field of the
 * wrong type is refused with its path and the field named, so a merge
 * never silently drops or misreads anything. Derived numbers (p50_ns,
 * duration_ns) are not read: they are computed again from what is. */
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sa_report_util.h"
#include "sa_summary.h"

struct rd {
	const char *path;
	char *err;
	size_t errlen;
	int failed;
};

__attribute__((format(printf, 2, 3))) static int bad(struct rd *r, const char *fmt, ...)
{
	if (r->failed++)
		return -1;
	int n = snprintf(r->err, r->errlen, "%s: ", r->path);
	va_list ap;
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < r->errlen)
		vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static json_t *member(struct rd *r, json_t *o, const char *where, const char *key)
{
	json_t *v = json_object_get(o, key);
	if (!v)
		bad(r, "%s: no \"%s\"", where, key);
	return v;
}

static int get_u64(struct rd *r, json_t *o, const char *where, const char *key, uint64_t *out)
{
	json_t *v = member(r, o, where, key);
	if (!v)
		return -1;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return bad(r, "%s.%s: not a non-negative integer", where, key);
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

static int get_bool(struct rd *r, json_t *o, const char *where, const char *key, int *out)
{
	json_t *v = member(r, o, where, key);
	if (!v)
		return -1;
	if (!json_is_boolean(v))
		return bad(r, "%s.%s: not true or false", where, key);
	*out = json_is_true(v);
	return 0;
}

static int get_str(struct rd *r, json_t *o, const char *where, const char *key, char **out)
{
	json_t *v = member(r, o, where, key);
	if (!v)
		return -1;
	if (!json_is_string(v))
		return bad(r, "%s.%s: not a string", where, key);
	if (!(*out = strdup(json_string_value(v))))
		return bad(r, "out of memory");
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int get_set(struct rd *r, json_t *o, const char *key, char ***out, uint32_t *n)
{
	json_t *v = member(r, o, "trace", key), *x;
	size_t i;
	if (!v)
		return -1;
	if (!json_is_array(v))
		return bad(r, "trace.%s: not an array", key);
	if (!(*out = calloc(json_array_size(v) + 1, sizeof(char *))))
		return bad(r, "out of memory");
	json_array_foreach(v, i, x) {
		if (!json_is_string(x))
			return bad(r, "trace.%s[%zu]: not a string", key, i);
		if (!((*out)[(*n)++] = strdup(json_string_value(x))))
			return bad(r, "out of memory");
		if (*n > 1 && str_cmp(&(*out)[*n - 2], &(*out)[*n - 1]) >= 0)
			return bad(r, "trace.%s: not sorted and unique", key);
	}
	return 0;
}

static int get_ts(struct rd *r, json_t *t, const char *key, int64_t *out, int *have)
{
	json_t *v = member(r, t, "trace", key);
	if (!v)
		return -1;
	if (json_is_null(v)) {
		*have = 0;
		return 0;
	}
	if (!json_is_integer(v))
		return bad(r, "trace.%s: not an integer or null", key);
	*out = json_integer_value(v);
	return 0;
}

static int read_trace(struct rd *r, json_t *t, struct sa_summary *s)
{
	if (!json_is_object(t))
		return bad(r, "trace: not an object");
	int have_first = 1, have_last = 1;
	if (get_set(r, t, "hosts", &s->hosts, &s->nhosts) ||
	    get_set(r, t, "levels", &s->levels, &s->nlevels) ||
	    get_u64(r, t, "trace", "traces", &s->traces) ||
	    get_u64(r, t, "trace", "processes", &s->processes) ||
	    get_u64(r, t, "trace", "threads", &s->threads) ||
	    get_u64(r, t, "trace", "objects", &s->objects) ||
	    get_u64(r, t, "trace", "events", &s->events) ||
	    get_u64(r, t, "trace", "malformed", &s->malformed) ||
	    get_u64(r, t, "trace", "discarded", &s->discarded) ||
	    get_bool(r, t, "trace", "discarded_unknown", &s->discarded_unknown) ||
	    get_bool(r, t, "trace", "partial", &s->partial) ||
	    get_ts(r, t, "first_ns", &s->first_ts, &have_first) ||
	    get_ts(r, t, "last_ns", &s->last_ts, &have_last))
		return -1;
	if (have_first != have_last || (have_first && s->last_ts < s->first_ts))
		return bad(r, "trace: first_ns and last_ns are not a span");
	s->have_span = have_first;
	return 0;
}

static int read_dur(struct rd *r, json_t *o, const char *where, struct sa_sdur *d)
{
	json_t *h, *x;
	size_t i;
	if (get_u64(r, o, where, "n", &d->n) || get_u64(r, o, where, "total_ns", &d->total_ns) ||
	    get_u64(r, o, where, "min_ns", &d->min_ns) || get_u64(r, o, where, "max_ns", &d->max_ns) ||
	    !(h = member(r, o, where, "hist")))
		return -1;
	if (!json_is_array(h))
		return bad(r, "%s.hist: not an array", where);
	if (json_array_size(h) > ST_HIST_BUCKETS)
		return bad(r, "%s.hist: more than %d buckets", where, ST_HIST_BUCKETS);
	if (json_array_size(h) && !(d->h.b = malloc(json_array_size(h) * sizeof(*d->h.b))))
		return bad(r, "out of memory");
	uint64_t total = 0;
	json_array_foreach(h, i, x) {
		json_t *bi = json_array_get(x, 0), *bc = json_array_get(x, 1);
		if (!json_is_array(x) || json_array_size(x) != 2 || !json_is_integer(bi) ||
		    !json_is_integer(bc))
			return bad(r, "%s.hist[%zu]: not an [index, count] pair", where, i);
		json_int_t vi = json_integer_value(bi), vc = json_integer_value(bc);
		if (vi < 0 || vi >= ST_HIST_BUCKETS || vc <= 0 ||
		    (d->h.n && (uint32_t)vi <= d->h.b[d->h.n - 1].i))
			return bad(r, "%s.hist[%zu]: bucket %lld count %lld (indices increase in "
				   "[0, %d), counts > 0)", where, i, (long long)vi, (long long)vc,
				   ST_HIST_BUCKETS);
		d->h.b[d->h.n++] = (struct sa_sbin){ (uint32_t)vi, (uint64_t)vc };
		total += (uint64_t)vc;
	}
	if (total != d->n)
		return bad(r, "%s: n is %" PRIu64 " but the histogram holds %" PRIu64, where, d->n,
			   total);
	if (d->n && (d->min_ns > d->max_ns || st_hist_index(d->min_ns) != d->h.b[0].i ||
		     st_hist_index(d->max_ns) != d->h.b[d->h.n - 1].i))
		return bad(r, "%s: min_ns and max_ns are not in the histogram's first and last "
			   "buckets", where);
	return 0;
}

static int kind_of(const char *name)
{
	for (int k = 0; k < SA_WAIT_NKINDS; k++)
		if (!strcmp(name, sa_wait_kind_name((enum sa_wait_kind)k)))
			return k;
	return -1;
}

static int read_class(struct rd *r, json_t *o, size_t idx, struct sa_sclass *c)
{
	char where[64], kw[96];
	snprintf(where, sizeof(where), "classes[%zu]", idx);
	if (!json_is_object(o))
		return bad(r, "%s: not an object", where);
	json_t *waits, *hold, *wakes, *spin, *v;
	const char *kname;
	if (get_str(r, o, where, "class", &c->key) || get_str(r, o, where, "type", &c->type) ||
	    get_str(r, o, where, "name", &c->name) || get_str(r, o, where, "site", &c->site) ||
	    get_u64(r, o, where, "objects", &c->objects) || !(waits = member(r, o, where, "waits")) ||
	    !(hold = member(r, o, where, "hold")) || !(wakes = member(r, o, where, "wakes")) ||
	    !(spin = member(r, o, where, "spin")))
		return -1;
	if (!json_is_object(waits) || !json_is_object(hold) || !json_is_object(wakes) ||
	    !json_is_object(spin))
		return bad(r, "%s: waits, hold, wakes and spin are objects", where);
	json_object_foreach(waits, kname, v) {
		int k = kind_of(kname);
		snprintf(kw, sizeof(kw), "%s.waits.%s", where, kname);
		if (k < 0)
			return bad(r, "%s: not a kind of wait this analyzer knows", kw);
		if (!json_is_object(v))
			return bad(r, "%s: not an object", kw);
		c->kinds |= 1u << k;
		if (get_u64(r, v, kw, "waits", &c->k[k].waits) ||
		    get_u64(r, v, kw, "contended", &c->k[k].contended) ||
		    get_u64(r, v, kw, "timeouts", &c->k[k].timeouts) || read_dur(r, v, kw, &c->k[k].d))
			return -1;
	}
	snprintf(kw, sizeof(kw), "%s.hold", where);
	if (read_dur(r, hold, kw, &c->hold))
		return -1;
	snprintf(kw, sizeof(kw), "%s.wakes", where);
	if (get_u64(r, wakes, kw, "futex_wakes", &c->futex_wakes) ||
	    get_u64(r, wakes, kw, "wasted", &c->wasted_wakes) ||
	    get_u64(r, wakes, kw, "futile", &c->futile_wakes))
		return -1;
	snprintf(kw, sizeof(kw), "%s.spin", where);
	return get_u64(r, spin, kw, "loops", &c->spin_loops) ||
	       get_u64(r, spin, kw, "acquired", &c->spin_acquired) ||
	       get_u64(r, spin, kw, "gave_up", &c->spin_gave_up) ||
	       get_u64(r, spin, kw, "saw_waiters", &c->spin_saw_waiters) ||
	       get_u64(r, spin, kw, "spin_ns", &c->spin_ns) ? -1 : 0;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct sa_sclass *)a)->key, ((const struct sa_sclass *)b)->key);
}

static int read_doc(struct rd *r, json_t *root, struct sa_summary *s)
{
	json_t *v, *t, *cl, *x;
	if (!json_is_object(root))
		return bad(r, "not a synctrace summary (not a JSON object)");
	v = json_object_get(root, "schema");
	if (!json_is_string(v))
		return bad(r, "not a synctrace summary (no \"schema\")");
	if (!strcmp(json_string_value(v), "synctrace-report"))
		return bad(r, "a synctrace report, not a summary (make one with --format summary)");
	if (strcmp(json_string_value(v), SA_SUM_SCHEMA))
		return bad(r, "not a synctrace summary (schema \"%s\")", json_string_value(v));
	int major, minor;
	v = json_object_get(root, "version");
	if (!json_is_string(v) || sscanf(json_string_value(v), "%d.%d", &major, &minor) != 2)
		return bad(r, "no \"version\" \"MAJOR.MINOR\"");
	if (major != SA_SUM_MAJOR)
		return bad(r, "summary version %s; this analyzer reads %d.x", json_string_value(v),
			   SA_SUM_MAJOR);
	uint64_t nb, nl, ns;
	if (!(v = member(r, root, "summary", "histogram")) || !json_is_object(v) ||
	    get_u64(r, v, "histogram", "buckets", &nb) || get_u64(r, v, "histogram", "log2", &nl) ||
	    get_u64(r, v, "histogram", "sub", &ns))
		return bad(r, "no \"histogram\" boundaries");
	if (nb != ST_HIST_BUCKETS || nl != ST_HIST_LOG2 || ns != ST_HIST_SUB)
		return bad(r, "histogram of %" PRIu64 " buckets (%" PRIu64 " x %" PRIu64 "), not "
			   "tracepoints/st_hist.h's %d (%d x %d)", nb, nl, ns, ST_HIST_BUCKETS,
			   ST_HIST_LOG2, ST_HIST_SUB);
	if (!(t = member(r, root, "summary", "trace")) || read_trace(r, t, s) ||
	    !(cl = member(r, root, "summary", "classes")))
		return -1;
	if (!json_is_array(cl))
		return bad(r, "classes: not an array");
	if (!(s->c = calloc(json_array_size(cl) + 1, sizeof(*s->c))))
		return bad(r, "out of memory");
	size_t i;
	json_array_foreach(cl, i, x) {
		if (read_class(r, x, i, &s->c[s->n++]))
			return -1;
	}
	qsort(s->c, s->n, sizeof(*s->c), by_key);
	for (uint32_t k = 1; k < s->n; k++)
		if (!strcmp(s->c[k - 1].key, s->c[k].key))
			return bad(r, "class \"%s\" appears twice", s->c[k].key);
	return 0;
}

int sa_summary_read(const char *path, struct sa_summary *s, char *err, size_t errlen)
{
	struct rd r = { path, err, errlen, 0 };
	json_error_t je;
	memset(s, 0, sizeof(*s));
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		if (je.line > 0)
			bad(&r, "not JSON: line %d, column %d: %s", je.line, je.column, je.text);
		else
			bad(&r, "%s", je.text);
		return -1;
	}
	int rc = read_doc(&r, root, s);
	json_decref(root);
	if (rc)
		sa_summary_free(s);
	return rc;
}

/* ---- the ranking --------------------------------------------------------- */

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
