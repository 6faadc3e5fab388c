/* synctrace diff BASE NEW (sa_diff.h). A class of BASE is the class of
 * NEW with the same key and name; failing that (another build: module
 * offsets moved, and a key may now be another variable's), the one with
 * the same type and name when that name is unique among the unmatched
 * classes on both sides; failing that, the same key. A class's numbers are summed
 * over its kinds of wait; its p99 comes from the kinds' histograms added.
 *
 * --fail-on 'EXPR[,EXPR...]', EXPR = [SCOPE:]METRIC OP VALUE:
 *   METRIC  wait (ns), p99 (ns), waits, contended, timeouts, wasted, futile
 *   OP      > or <
 *   VALUE   +N% / -N%: the change relative to BASE (from 0 to more: +inf);
 *           +N / -N (time: with ns, us, ms or s): the change, NEW - BASE;
 *           N: NEW's value itself
 *   SCOPE   none: the totals over every class; '*': each class; else the
 *           classes whose name or key is SCOPE (one that names none is an
 *           error: a gate that cannot trip is worse than none). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sa_diff.h"
#include "sa_report_util.h"

enum metric { M_WAIT, M_P99, M_WAITS, M_CONTENDED, M_TIMEOUTS, M_WASTED, M_FUTILE, M_N };
static const char *const metric_names[M_N] = {
	[M_WAIT] = "wait", [M_P99] = "p99", [M_WAITS] = "waits", [M_CONTENDED] = "contended",
	[M_TIMEOUTS] = "timeouts", [M_WASTED] = "wasted", [M_FUTILE] = "futile",
};
static int metric_is_time(enum metric m) { return m == M_WAIT || m == M_P99; }

/* One side of a class (or of the total). */
struct side {
	int present;
	uint64_t v[M_N];
	struct sa_sdur d;      /* every kind's waits: for p99 */
};

struct drow {
	const struct sa_sclass *b, *n;
	struct side sb, sn;
	const char *matched;   /* "key", "name", NULL: one side only */
	int64_t change;        /* of wait */
};

enum cmp_mode { C_REL, C_DELTA, C_VALUE };
struct expr {
	char text[128], scope[128];
	enum metric m;
	int gt;                /* > (else <) */
	enum cmp_mode mode;
	double limit;          /* % for C_REL, ns or count otherwise */
};

/* ---- expressions --------------------------------------------------------- */

static int parse_one(const char *s, size_t len, struct expr *e, char *err, size_t errlen)
{
	memset(e, 0, sizeof(*e));
	if (len >= sizeof(e->text)) {
		snprintf(err, errlen, "--fail-on: expression too long");
		return -1;
	}
	memcpy(e->text, s, len);
	char *op = strpbrk(e->text, "<>");
	if (!op) {
		snprintf(err, errlen, "--fail-on '%s': no > or < (e.g. 'wait>+20%%')", e->text);
		return -1;
	}
	e->gt = *op == '>';
	char lhs[128];
	memcpy(lhs, e->text, (size_t)(op - e->text));
	lhs[op - e->text] = 0;
	char *colon = strrchr(lhs, ':'), *mname = lhs;
	if (colon) {
		*colon = 0;
		snprintf(e->scope, sizeof(e->scope), "%s", lhs);
		mname = colon + 1;
		if (!e->scope[0]) {
			snprintf(err, errlen, "--fail-on '%s': an empty class before ':'", e->text);
			return -1;
		}
	}
	int m = -1;
	for (int i = 0; i < M_N; i++)
		if (!strcmp(mname, metric_names[i]))
			m = i;
	if (m < 0) {
		snprintf(err, errlen, "--fail-on '%s': unknown metric '%s' (wait, p99, waits, "
			 "contended, timeouts, wasted, futile)", e->text, mname);
		return -1;
	}
	e->m = (enum metric)m;
	const char *v = op + 1;
	e->mode = *v == '+' || *v == '-' ? C_DELTA : C_VALUE;
	char *end;
	e->limit = strtod(v, &end);
	if (end == v || !isfinite(e->limit) || (e->mode == C_VALUE && e->limit < 0)) {
		snprintf(err, errlen, "--fail-on '%s': '%s' is not a threshold (+20%%, +5ms, 100)",
			 e->text, v);
		return -1;
	}
	static const struct { const char *u; double f; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	if (!strcmp(end, "%")) {
		if (e->mode != C_DELTA) {
			snprintf(err, errlen, "--fail-on '%s': a change in %% has a sign (+20%%)",
				 e->text);
			return -1;
		}
		e->mode = C_REL;
	} else if (*end) {
		unsigned u;
		for (u = 0; u < SA_N(units) && strcmp(end, units[u].u); u++)
			;
		if (u == SA_N(units) || !metric_is_time(e->m)) {
			snprintf(err, errlen, "--fail-on '%s': unit '%s' (%s)", e->text, end,
				 metric_is_time(e->m) ? "ns, us, ms, s or %"
						      : "a count: a plain number or %");
			return -1;
		}
		e->limit *= units[u].f;
	}
	return 0;
}

static int parse_list(const char *s, struct expr **out, unsigned *n, char *err, size_t errlen)
{
	*out = NULL;
	*n = 0;
	for (const char *p = s; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		while (len && *p == ' ')
			p++, len--;
		while (len && p[len - 1] == ' ')
			len--;
		struct expr *x = realloc(*out, (*n + 1) * sizeof(*x));
		if (!x) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		*out = x;
		if (parse_one(p, len, &x[*n], err, errlen))
			return -1;
		(*n)++;
		p = comma ? comma + 1 : NULL;
	}
	if (!*n) {
		snprintf(err, errlen, "--fail-on: no expression");
		return -1;
	}
	return 0;
}

int sa_diff_check(const char *fail_on, char *err, size_t errlen)
{
	struct expr *x;
	unsigned n;
	int rc = parse_list(fail_on, &x, &n, err, errlen);
	free(x);
	return rc;
}

/* The observed quantity of e between two sides. */
static double observed(const struct expr *e, const struct side *b, const struct side *n)
{
	double vb = (double)b->v[e->m], vn = (double)n->v[e->m];
	switch (e->mode) {
	case C_REL: return vb ? (vn - vb) / vb * 100 : vn ? INFINITY : 0;
	case C_DELTA: return vn - vb;
	default: return vn;
	}
}

static int trips(const struct expr *e, double q)
{
	return e->gt ? q > e->limit : q < e->limit;
}

/* ---- the rows ------------------------------------------------------------ */

static int side_of(const struct sa_sclass *c, struct side *s)
{
	memset(s, 0, sizeof(*s));
	if (!c)
		return 0;
	s->present = 1;
	for (int k = 0; k < SA_WAIT_NKINDS; k++) {
		if (!(c->kinds & (1u << k)))
			continue;
		s->v[M_WAIT] += c->k[k].d.total_ns;
		s->v[M_WAITS] += c->k[k].waits;
		s->v[M_CONTENDED] += c->k[k].contended;
		s->v[M_TIMEOUTS] += c->k[k].timeouts;
		if (sa_sdur_add(&s->d, &c->k[k].d))
			return -1;
	}
	s->v[M_WASTED] = c->wasted_wakes;
	s->v[M_FUTILE] = c->futile_wakes;
	s->v[M_P99] = sa_sdur_pct(&s->d, 990);
	return 0;
}

static int side_add(struct side *t, const struct side *s)
{
	t->present = 1;
	for (int m = 0; m < M_N; m++)
		if (m != M_P99)
			t->v[m] += s->v[m];
	if (sa_sdur_add(&t->d, &s->d))
		return -1;
	t->v[M_P99] = sa_sdur_pct(&t->d, 990);
	return 0;
}

static int unique_name(const struct sa_summary *s, const char *used, const struct sa_sclass *c)
{
	unsigned n = 0;
	for (uint32_t i = 0; i < s->n; i++)
		n += !used[i] && !strcmp(s->c[i].name, c->name) && !strcmp(s->c[i].type, c->type);
	return n == 1;
}

/* Rows for the unmatched classes of b and n with the same key (and name). */
static void key_pass(const struct sa_summary *b, const struct sa_summary *n, char *ub, char *un,
		     struct drow *r, uint32_t *k, int same_name)
{
	for (uint32_t i = 0, j = 0; i < b->n && j < n->n;) { /* both in key order */
		int c = strcmp(b->c[i].key, n->c[j].key);
		if (!c && !ub[i] && !un[j] && (!same_name || !strcmp(b->c[i].name, n->c[j].name))) {
			r[(*k)++] = (struct drow){ .b = &b->c[i], .n = &n->c[j], .matched = "key" };
			ub[i] = un[j] = 1;
		}
		i += c <= 0;
		j += c >= 0;
	}
}

/* Match the classes of b and n into rows (*nrows). NULL on out of memory. */
static struct drow *match(const struct sa_summary *b, const struct sa_summary *n, uint32_t *nrows)
{
	struct drow *r = calloc((size_t)b->n + n->n + 1, sizeof(*r));
	char *ub = calloc(b->n + 1, 1), *un = calloc(n->n + 1, 1);
	uint32_t k = 0;
	if (!r || !ub || !un)
		goto oom;
	/* The same key and name; then the same type and name (another build:
	 * offsets moved); then the same key (renamed in the same binary). */
	key_pass(b, n, ub, un, r, &k, 1);
	for (uint32_t i = 0; i < b->n; i++) {
		if (ub[i] || !unique_name(b, ub, &b->c[i]))
			continue;
		for (uint32_t j = 0; j < n->n; j++)
			if (!un[j] && !strcmp(b->c[i].name, n->c[j].name) &&
			    !strcmp(b->c[i].type, n->c[j].type) && unique_name(n, un, &n->c[j])) {
				r[k++] = (struct drow){ .b = &b->c[i], .n = &n->c[j], .matched = "name" };
				ub[i] = un[j] = 1;
				break;
			}
	}
	key_pass(b, n, ub, un, r, &k, 0);
	for (uint32_t i = 0; i < b->n; i++)
		if (!ub[i])
			r[k++] = (struct drow){ .b = &b->c[i] };
	for (uint32_t j = 0; j < n->n; j++)
		if (!un[j])
			r[k++] = (struct drow){ .n = &n->c[j] };
	for (uint32_t i = 0; i < k; i++) {
		if (side_of(r[i].b, &r[i].sb) || side_of(r[i].n, &r[i].sn))
			goto oom;
		r[i].change = (int64_t)r[i].sn.v[M_WAIT] - (int64_t)r[i].sb.v[M_WAIT];
	}
	free(ub);
	free(un);
	*nrows = k;
	return r;
oom:
	for (uint32_t i = 0; r && i < k; i++) {
		free(r[i].sb.d.h.b);
		free(r[i].sn.d.h.b);
	}
	free(r);
	free(ub);
	free(un);
	return NULL;
}

static const char *row_name(const struct drow *r) { return (r->n ? r->n : r->b)->name; }
static const char *row_key(const struct drow *r) { return (r->n ? r->n : r->b)->key; }

static int by_change(const void *a, const void *b)
{
	const struct drow *x = a, *y = b;
	uint64_t cx = x->change < 0 ? -(uint64_t)x->change : (uint64_t)x->change;
	uint64_t cy = y->change < 0 ? -(uint64_t)y->change : (uint64_t)y->change;
	if (cx != cy)
		return cx < cy ? 1 : -1;
	int c = strcmp(row_name(x), row_name(y));
	return c ? c : strcmp(row_key(x), row_key(y));
}

/* ---- output -------------------------------------------------------------- */

enum { D_RANK, D_STATUS, D_TYPE, D_NAME, D_CLASS, D_MATCHED, D_WAIT_B, D_WAIT_N, D_CHANGE_NS,
       D_CHANGE, D_CHANGE_REL, D_WAITS_B, D_WAITS_N, D_CONT_B, D_CONT_N, D_TMO_B, D_TMO_N,
       D_WASTED_B, D_WASTED_N, D_FUTILE_B, D_FUTILE_N, D_P99_B, D_P99_N, D_N };
static const struct sa_col diff_cols[D_N] = {
	[D_RANK] = { "rank", "#", SA_COL_U64, 0, 0 },
	[D_STATUS] = { "status", "status", SA_COL_STR, 0, 0 },
	[D_TYPE] = { "type", "type", SA_COL_STR, SA_COL_WIDE, 0 },
	[D_NAME] = { "name", "object", SA_COL_STR, 0, 30 },
	[D_CLASS] = { "class", "class", SA_COL_STR, SA_COL_WIDE, 0 },
	[D_MATCHED] = { "matched_by", "by", SA_COL_STR, SA_COL_WIDE, 0 },
	[D_WAIT_B] = { "wait_base_ns", "wait before", SA_COL_NS, 0, 0 },
	[D_WAIT_N] = { "wait_new_ns", "after", SA_COL_NS, 0, 0 },
	[D_CHANGE_NS] = { "wait_change_ns", "change (ns)", SA_COL_I64, SA_COL_WIDE, 0 },
	[D_CHANGE] = { "wait_change", "change", SA_COL_STR, 0, 0 },
	[D_CHANGE_REL] = { "wait_change_share", "%", SA_COL_PCT, 0, 0 },
	[D_WAITS_B] = { "waits_base", "waits before", SA_COL_U64, SA_COL_WIDE, 0 },
	[D_WAITS_N] = { "waits_new", "after", SA_COL_U64, SA_COL_WIDE, 0 },
	[D_CONT_B] = { "contended_base", "contended before", SA_COL_U64, 0, 0 },
	[D_CONT_N] = { "contended_new", "after", SA_COL_U64, 0, 0 },
	[D_TMO_B] = { "timeouts_base", "timeouts before", SA_COL_U64, SA_COL_WIDE, 0 },
	[D_TMO_N] = { "timeouts_new", "after", SA_COL_U64, SA_COL_WIDE, 0 },
	[D_WASTED_B] = { "wasted_base", "wasted wakes before", SA_COL_U64, 0, 0 },
	[D_WASTED_N] = { "wasted_new", "after", SA_COL_U64, 0, 0 },
	[D_FUTILE_B] = { "futile_base", "futile before", SA_COL_U64, 0, 0 },
	[D_FUTILE_N] = { "futile_new", "after", SA_COL_U64, 0, 0 },
	[D_P99_B] = { "p99_base_ns", "p99 before", SA_COL_NS, SA_COL_WIDE, 0 },
	[D_P99_N] = { "p99_new_ns", "after", SA_COL_NS, SA_COL_WIDE, 0 },
};

enum { F_EXPR, F_SCOPE, F_METRIC, F_BASE, F_NEW, F_OBSERVED, F_LIMIT, F_UNIT, F_TRIPPED, F_N };
static const struct sa_col fail_cols[F_N] = {
	[F_EXPR] = { "expr", "--fail-on", SA_COL_STR, 0, 0 },
	[F_SCOPE] = { "scope", "on", SA_COL_STR, 0, 30 },
	[F_METRIC] = { "metric", "metric", SA_COL_STR, 0, 0 },
	[F_BASE] = { "base", "before", SA_COL_U64, 0, 0 },
	[F_NEW] = { "new", "after", SA_COL_U64, 0, 0 },
	[F_OBSERVED] = { "observed", "observed", SA_COL_F64, 0, 0 },
	[F_LIMIT] = { "limit", "limit", SA_COL_F64, 0, 0 },
	[F_UNIT] = { "unit", "unit", SA_COL_STR, 0, 0 }, /* of observed and limit */
	[F_TRIPPED] = { "tripped", "tripped", SA_COL_BOOL, 0, 0 },
};

static void fill_row(struct sa_cell *x, const struct side *b, const struct side *n, int64_t ch)
{
	char buf[40], ns[32];
	int both = b->present && n->present;
	/* The column before and after of each metric. */
	static const int cols[M_N][2] = {
		[M_WAIT] = { D_WAIT_B, D_WAIT_N }, [M_P99] = { D_P99_B, D_P99_N },
		[M_WAITS] = { D_WAITS_B, D_WAITS_N }, [M_CONTENDED] = { D_CONT_B, D_CONT_N },
		[M_TIMEOUTS] = { D_TMO_B, D_TMO_N }, [M_WASTED] = { D_WASTED_B, D_WASTED_N },
		[M_FUTILE] = { D_FUTILE_B, D_FUTILE_N },
	};
	const struct side *sides[2] = { b, n };
	for (int w = 0; w < 2; w++)
		for (int m = 0; sides[w]->present && m < M_N; m++)
			sa_set_u(&x[cols[m][w]], sides[w]->v[m]);
	sa_set_i(&x[D_CHANGE_NS], ch);
	sa_fmt_ns(ns, sizeof(ns), (double)(ch < 0 ? -(uint64_t)ch : (uint64_t)ch));
	snprintf(buf, sizeof(buf), "%s%s", ch > 0 ? "+" : ch < 0 ? "-" : "", ns);
	sa_cell_str(&x[D_CHANGE], buf);
	if (both && b->v[M_WAIT])
		sa_set_f(&x[D_CHANGE_REL], (double)ch / (double)b->v[M_WAIT]);
}

static const char *status_of(const struct drow *r)
{
	if (!r->b)
		return "new";
	if (!r->n)
		return "vanished";
	return r->change > 0 ? "more" : r->change < 0 ? "less" : "same";
}

/* Evaluate the expressions into table ft; 1 if one tripped, 2 on a scope
 * naming nothing. */
static int evaluate(const struct expr *x, unsigned nx, const struct drow *r, uint32_t nr,
		    const struct side *tb, const struct side *tn, struct sa_table *ft, char *err,
		    size_t errlen)
{
	int tripped = 0;
	for (unsigned e = 0; e < nx; e++) {
		unsigned hits = 0;
		for (uint32_t i = 0; i <= nr; i++) {
			const struct side *b, *n;
			const char *scope;
			if (!x[e].scope[0]) { /* the totals: once */
				if (i)
					break;
				b = tb, n = tn, scope = "total";
			} else {
				if (i == nr)
					break;
				if (strcmp(x[e].scope, "*") && strcmp(x[e].scope, row_name(&r[i])) &&
				    strcmp(x[e].scope, row_key(&r[i])))
					continue;
				b = &r[i].sb, n = &r[i].sn, scope = row_name(&r[i]);
			}
			hits++;
			double q = observed(&x[e], b, n);
			int t = trips(&x[e], q);
			tripped |= t;
			struct sa_cell *c = sa_table_row(ft);
			if (!c)
				continue;
			sa_cell_str(&c[F_EXPR], x[e].text);
			sa_cell_str(&c[F_SCOPE], scope);
			sa_cell_str(&c[F_METRIC], metric_names[x[e].m]);
			sa_set_u(&c[F_BASE], b->v[x[e].m]);
			sa_set_u(&c[F_NEW], n->v[x[e].m]);
			if (isfinite(q))
				sa_set_f(&c[F_OBSERVED], q);
			sa_set_f(&c[F_LIMIT], x[e].limit);
			sa_cell_str(&c[F_UNIT], x[e].mode == C_REL ? "%"
						: metric_is_time(x[e].m) ? "ns" : "");
			sa_set_u(&c[F_TRIPPED], (uint64_t)t);
		}
		if (!hits && strcmp(x[e].scope, "*")) {
			snprintf(err, errlen, "--fail-on '%s': no class named '%s' in either summary",
				 x[e].text, x[e].scope);
			return 2;
		}
	}
	return tripped;
}

int sa_diff_run(const struct sa_summary *base, const struct sa_summary *new_,
		const struct sa_diff_opts *o, FILE *out, char *err, size_t errlen)
{
	struct expr *x = NULL;
	unsigned nx = 0;
	if (o->fail_on && parse_list(o->fail_on, &x, &nx, err, errlen)) {
		free(x);
		return 2;
	}
	uint32_t nr = 0;
	struct drow *r = match(base, new_, &nr);
	if (!r) {
		free(x);
		snprintf(err, errlen, "out of memory");
		return 2;
	}
	qsort(r, nr, sizeof(*r), by_change);
	struct side tb = { .present = 1 }, tn = { .present = 1 };
	for (uint32_t i = 0; i < nr; i++)
		if (side_add(&tb, &r[i].sb) || side_add(&tn, &r[i].sn))
			break;
	struct sa_table t, tt, ft;
	sa_table_init(&t, "diff.classes", "Lock classes, by the change of their waiting",
		      diff_cols, D_N);
	sa_table_init(&tt, "diff.total", "All classes", diff_cols, D_N);
	sa_table_init(&ft, "diff.fail_on", "Thresholds (--fail-on)", fail_cols, F_N);
	t.text_hide = tt.text_hide = 1ull << D_CHANGE_NS;
	tt.text_hide |= 1ull << D_RANK | 1ull << D_STATUS | 1ull << D_NAME;
	unsigned counts[4] = { 0 }; /* changed, same, new, vanished */
	for (uint32_t i = 0; i < nr; i++) {
		counts[!r[i].b ? 2 : !r[i].n ? 3 : r[i].change ? 0 : 1]++;
		if (o->top && i >= o->top && o->format == SA_FMT_TEXT)
			continue;
		struct sa_cell *c = sa_table_row(&t);
		if (!c)
			break;
		const struct sa_sclass *cl = r[i].n ? r[i].n : r[i].b;
		sa_set_u(&c[D_RANK], i + 1);
		sa_cell_str(&c[D_STATUS], status_of(&r[i]));
		sa_cell_str(&c[D_TYPE], cl->type);
		sa_cell_str(&c[D_NAME], cl->name);
		sa_cell_str(&c[D_CLASS], cl->key);
		if (r[i].matched)
			sa_cell_str(&c[D_MATCHED], r[i].matched);
		fill_row(c, &r[i].sb, &r[i].sn, r[i].change);
	}
	if (o->top && nr > o->top && o->format == SA_FMT_TEXT)
		sa_table_note(&t, "%u more classes (--top 0: all)", nr - o->top);
	sa_table_note(&t, "%u classes changed, %u the same, %u new, %u vanished", counts[0],
		      counts[1], counts[2], counts[3]);
	struct sa_cell *c = sa_table_row(&tt);
	if (c) {
		sa_cell_str(&c[D_STATUS], "total");
		sa_cell_str(&c[D_NAME], "all classes");
		fill_row(c, &tb, &tn, (int64_t)tn.v[M_WAIT] - (int64_t)tb.v[M_WAIT]);
	}
	int rc = nx ? evaluate(x, nx, r, nr, &tb, &tn, &ft, err, errlen) : 0;
	if (rc != 2) {
		switch (o->format) {
		case SA_FMT_JSON:
			fputs("{\"schema\": \"synctrace-diff\", \"version\": \"1.0\",\n \"base\": ", out);
			sa_json_str(out, o->base_name);
			fputs(", \"new\": ", out);
			sa_json_str(out, o->new_name);
			fprintf(out, ", \"tripped\": %s,\n \"tables\": [\n  ", rc ? "true" : "false");
			sa_table_json(&tt, out);
			fputs(",\n  ", out);
			sa_table_json(&t, out);
			if (nx) {
				fputs(",\n  ", out);
				sa_table_json(&ft, out);
			}
			fputs("]}\n", out);
			break;
		case SA_FMT_CSV:
			sa_table_csv(&tt, out);
			sa_table_csv(&t, out);
			if (nx)
				sa_table_csv(&ft, out);
			break;
		default:
			fprintf(out, "synctrace diff: %s (%u class%s) -> %s (%u class%s)\n",
				o->base_name, base->n, base->n == 1 ? "" : "es", o->new_name, new_->n,
				new_->n == 1 ? "" : "es");
			sa_table_text(&tt, out, 0);
			sa_table_text(&t, out, 0);
			if (nx) {
				sa_table_text(&ft, out, 0);
				fprintf(out, "%s\n", rc ? "FAILED: a --fail-on threshold was crossed"
							: "passed: no --fail-on threshold crossed");
			}
			break;
		}
	}
	sa_table_free(&t);
	sa_table_free(&tt);
	sa_table_free(&ft);
	for (uint32_t i = 0; i < nr; i++) {
		free(r[i].sb.d.h.b);
		free(r[i].sn.d.h.b);
	}
	free(tb.d.h.b);
	free(tn.d.h.b);
	free(r);
	free(x);
	return rc;
}
