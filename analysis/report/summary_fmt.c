/* Summaries that merge exactly (sa_summary.h): built from the model,
 * written as JSON, merged. Every number is a sum, a minimum, a maximum or
 * a set, and classes are in key order, so the summary of traces A and B
 * read together and the merge of their summaries are the same bytes.
 * An object counts in its class only when it has something to count
 * (a wait, a hold, a wake or a spin loop): the rule is per object, so it
 * cannot depend on what else was read with it. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sa_mutex.h"
#include "sa_report_util.h"
#include "sa_rwlock.h"
#include "sa_summary.h"
#include "sa_symbols.h"

/* ---- histograms ---------------------------------------------------------- */

static int shist_from_dense(struct sa_shist *h, const uint64_t *dense)
{
	uint32_t n = 0;
	for (unsigned i = 0; i < ST_HIST_BUCKETS; i++)
		n += dense[i] != 0;
	h->b = NULL;
	h->n = 0;
	if (!n)
		return 0;
	if (!(h->b = malloc(n * sizeof(*h->b))))
		return -1;
	for (unsigned i = 0; i < ST_HIST_BUCKETS; i++)
		if (dense[i])
			h->b[h->n++] = (struct sa_sbin){ i, dense[i] };
	return 0;
}

/* A distribution's values into dense st_hist buckets (its fine histogram,
 * or its exact samples' buckets: the same counts either way). */
static void dense_add_dist(uint64_t *dense, const struct sa_dist *d)
{
	if (d->fine) {
		for (unsigned i = 0; i < ST_HIST_BUCKETS; i++)
			dense[i] += d->fine[i];
		return;
	}
	for (uint64_t i = 0; d->exact && i < d->n; i++)
		dense[st_hist_index(d->exact[i])]++;
}

/* s's counts, sum and span, with n more values of sum `sum` in [min, max]. */
static void dur_count(struct sa_sdur *s, uint64_t n, uint64_t sum, uint64_t min, uint64_t max)
{
	if (!n)
		return;
	if (!s->n || min < s->min_ns)
		s->min_ns = min;
	if (max > s->max_ns)
		s->max_ns = max;
	s->n += n;
	s->total_ns += sum;
}

static void dur_add_dist(struct sa_sdur *s, const struct sa_dist *d)
{
	dur_count(s, d->n, d->sum, d->min, d->max);
}

int sa_sdur_add(struct sa_sdur *dst, const struct sa_sdur *src)
{
	if (!src->n)
		return 0;
	/* Merged into scratch (a union has at most ST_HIST_BUCKETS buckets),
	 * then back into dst's array, grown only when the union outgrows its
	 * room: merging many summaries mostly allocates nothing. */
	struct sa_sbin u[ST_HIST_BUCKETS];
	const struct sa_sbin *x = dst->h.b, *y = src->h.b;
	uint32_t i = 0, j = 0, n = 0, nx = dst->h.n, ny = src->h.n;
	while (i < nx && j < ny) {
		if (x[i].i < y[j].i) {
			u[n++] = x[i++];
		} else if (y[j].i < x[i].i) {
			u[n++] = y[j++];
		} else {
			u[n] = x[i++];
			u[n++].c += y[j++].c;
		}
	}
	for (; i < nx; i++) /* (x is NULL when dst is empty) */
		u[n++] = x[i];
	for (; j < ny; j++)
		u[n++] = y[j];
	if (n > (dst->h.cap > nx ? dst->h.cap : nx)) {
		uint32_t cap = n < 8 ? 8 : n + n / 2;
		struct sa_sbin *b = realloc(dst->h.b, cap * sizeof(*b));
		if (!b)
			return -1;
		dst->h.b = b;
		dst->h.cap = cap;
	}
	memcpy(dst->h.b, u, n * sizeof(*u));
	dst->h.n = n;
	dur_count(dst, src->n, src->total_ns, src->min_ns, src->max_ns);
	return 0;
}

uint64_t sa_sdur_pct(const struct sa_sdur *d, unsigned permille)
{
	if (!d->n)
		return 0;
	uint64_t rank = d->n / 1000 * permille + (d->n % 1000 * permille + 999) / 1000;
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (uint32_t i = 0; i < d->h.n; i++) {
		seen += d->h.b[i].c;
		if (seen >= rank) {
			uint64_t u = st_hist_upper(d->h.b[i].i);
			return u < d->min_ns ? d->min_ns : u > d->max_ns ? d->max_ns : u;
		}
	}
	return d->max_ns;
}

/* ---- from the model ------------------------------------------------------ */

static int has_data(const struct sa_object *ob)
{
	for (int k = 0; k < SA_WAIT_NKINDS; k++) {
		const struct sa_wait_stat *s = sa_object_wait(ob, (enum sa_wait_kind)k);
		if (s && (s->waits || s->contended || s->timeouts))
			return 1;
	}
	if (ob->fx_wakes || ob->wake_then_block || ob->sp_loops)
		return 1;
	if (ob->type == SA_OBJ_MUTEX && ob->ext)
		return ((const struct sa_mutex *)ob->ext)->hold.n != 0;
	if (ob->type == SA_OBJ_RWLOCK && ob->ext) {
		const struct sa_rwlock *x = ob->ext;
		return x->hold[0].n || x->hold[1].n;
	}
	return 0;
}

struct keyed {
	struct sa_objname nm;
	uint32_t obj;
};

static int by_klass(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->nm.klass, y->nm.klass);
	return c ? c : (x->obj > y->obj) - (x->obj < y->obj);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort and deduplicate a set of strings (freeing the duplicates). */
static void set_norm(char **v, uint32_t *n)
{
	qsort(v, *n, sizeof(char *), str_cmp);
	uint32_t w = 0;
	for (uint32_t i = 0; i < *n; i++) {
		if (w && !strcmp(v[w - 1], v[i]))
			free(v[i]);
		else
			v[w++] = v[i];
	}
	*n = w;
}

static int set_add(char ***v, uint32_t *n, const char *s)
{
	char **p = realloc(*v, (*n + 1) * sizeof(char *));
	if (!p)
		return -1;
	*v = p;
	if (!(p[*n] = strdup(s)))
		return -1;
	(*n)++;
	return 0;
}

static const char *level_name(int l)
{
	const char *s = st_meta_level_name(l);
	return s ? s : l == 0 ? "unknown" : "other";
}

static int meta_of_model(const struct sa_model *m, int partial, struct sa_summary *s)
{
	s->traces = m->ntraces;
	s->processes = m->nprocs;
	s->threads = m->nthreads;
	s->objects = sa_model_objects_seen(m);
	s->events = m->events;
	s->malformed = m->malformed;
	s->discarded = m->discarded_total;
	s->discarded_unknown = m->discarded_unknown;
	s->partial = partial;
	s->have_span = m->events != 0;
	s->first_ts = s->have_span ? m->first_ts : 0;
	s->last_ts = s->have_span ? m->last_ts : 0;
	for (unsigned i = 0; i < m->nhosted; i++)
		if (m->trace_hosts[i] && set_add(&s->hosts, &s->nhosts, m->trace_hosts[i]))
			return -1;
	for (uint32_t i = 0; i < m->nprocs; i++)
		if (set_add(&s->levels, &s->nlevels, level_name(m->procs[i].level)))
			return -1;
	set_norm(s->hosts, &s->nhosts);
	set_norm(s->levels, &s->nlevels);
	return 0;
}

static void keep_min(char **dst, const char *s)
{
	if (*dst && strcmp(s, *dst) >= 0)
		return;
	char *d = strdup(s);
	if (d) {
		free(*dst);
		*dst = d;
	}
}

/* Class c from the objects ks[0 .. n). dense: (SA_WAIT_NKINDS + 1) x
 * ST_HIST_BUCKETS scratch counts. */
static int class_of(const struct sa_model *m, const struct keyed *ks, uint32_t n,
		    uint64_t *dense, struct sa_sclass *c)
{
	memset(dense, 0, (SA_WAIT_NKINDS + 1) * ST_HIST_BUCKETS * sizeof(uint64_t));
	uint64_t *hold = dense + SA_WAIT_NKINDS * ST_HIST_BUCKETS;
	c->key = strdup(ks[0].nm.klass);
	c->type = strdup(sa_obj_type_name(m->objs[ks[0].obj].type));
	for (uint32_t i = 0; i < n; i++) {
		const struct sa_object *ob = &m->objs[ks[i].obj];
		keep_min(&c->name, ks[i].nm.name);
		keep_min(&c->site, ks[i].nm.site);
		c->objects += sa_obj_instances(ob);
		for (int k = 0; k < SA_WAIT_NKINDS; k++) {
			const struct sa_wait_stat *s = sa_object_wait(ob, (enum sa_wait_kind)k);
			if (!s || !(s->waits || s->contended || s->timeouts))
				continue;
			c->kinds |= 1u << k;
			c->k[k].waits += s->waits;
			c->k[k].contended += s->contended;
			c->k[k].timeouts += s->timeouts;
			dur_add_dist(&c->k[k].d, &s->dist);
			dense_add_dist(dense + k * ST_HIST_BUCKETS, &s->dist);
		}
		const struct sa_dist *hd[2] = { NULL, NULL };
		if (ob->type == SA_OBJ_MUTEX && ob->ext)
			hd[0] = &((const struct sa_mutex *)ob->ext)->hold;
		if (ob->type == SA_OBJ_RWLOCK && ob->ext) {
			hd[0] = &((const struct sa_rwlock *)ob->ext)->hold[0];
			hd[1] = &((const struct sa_rwlock *)ob->ext)->hold[1];
		}
		for (int h = 0; h < 2; h++)
			if (hd[h]) {
				dur_add_dist(&c->hold, hd[h]);
				dense_add_dist(hold, hd[h]);
			}
		c->futex_wakes += ob->fx_wakes;
		c->wasted_wakes += ob->fx_wasted;
		c->futile_wakes += ob->wake_then_block;
		c->spin_loops += ob->sp_loops;
		c->spin_acquired += ob->sp_acquired;
		c->spin_gave_up += ob->sp_gave_up;
		c->spin_saw_waiters += ob->sp_saw_waiters;
		c->spin_ns += ob->sp_ns;
	}
	for (int k = 0; k < SA_WAIT_NKINDS; k++)
		if (shist_from_dense(&c->k[k].d.h, dense + k * ST_HIST_BUCKETS))
			return -1;
	if (shist_from_dense(&c->hold.h, hold))
		return -1;
	return c->key && c->type && c->name && c->site ? 0 : -1;
}

int sa_summary_of_model(const struct sa_model *m, int partial, struct sa_summary *s)
{
	memset(s, 0, sizeof(*s));
	if (meta_of_model(m, partial, s))
		return -1;
	struct keyed *ks = malloc((m->nobjs + 1) * sizeof(*ks));
	uint64_t *dense = malloc((SA_WAIT_NKINDS + 1) * ST_HIST_BUCKETS * sizeof(uint64_t));
	uint32_t n = 0;
	int rc = -1;
	if (!ks || !dense)
		goto out;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const struct sa_object *ob = &m->objs[i];
		if (!ob->instances || !has_data(ob) || sa_object_name(m, i, &ks[n].nm))
			continue;
		ks[n++].obj = i;
	}
	qsort(ks, n, sizeof(*ks), by_klass);
	uint32_t ngroups = 0;
	for (uint32_t i = 0; i < n; i++)
		ngroups += !i || strcmp(ks[i].nm.klass, ks[i - 1].nm.klass);
	if (!(s->c = calloc(ngroups + 1, sizeof(*s->c))))
		goto out;
	for (uint32_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(ks[j].nm.klass, ks[i].nm.klass); j++)
			;
		if (class_of(m, ks + i, j - i, dense, &s->c[s->n++]))
			goto out;
	}
	rc = 0;
out:
	free(ks);
	free(dense);
	return rc;
}

/* ---- writing ------------------------------------------------------------- */

static void write_set(FILE *out, const char *key, char *const *v, uint32_t n)
{
	fprintf(out, "\"%s\": [", key);
	for (uint32_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", out);
		sa_json_str(out, v[i]);
	}
	fputc(']', out);
}

/* v in decimal, written backwards ending before end; returns its start. */
static char *digits(char *end, uint64_t v)
{
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

static void write_dur(FILE *out, const struct sa_sdur *d)
{
	fprintf(out, "\"n\": %" PRIu64 ", \"total_ns\": %" PRIu64 ", \"min_ns\": %" PRIu64
		", \"max_ns\": %" PRIu64 ", \"p50_ns\": %" PRIu64 ", \"p90_ns\": %" PRIu64
		", \"p99_ns\": %" PRIu64 ", \"hist\": [",
		d->n, d->total_ns, d->min_ns, d->max_ns, sa_sdur_pct(d, 500), sa_sdur_pct(d, 900),
		sa_sdur_pct(d, 990));
	/* The pairs are most of a summary's bytes: formatted by hand. */
	char buf[64];
	for (uint32_t i = 0; i < d->h.n; i++) {
		char *p = buf + sizeof(buf);
		*--p = ']';
		p = digits(p, d->h.b[i].c);
		*--p = ' ';
		*--p = ',';
		p = digits(p, d->h.b[i].i);
		*--p = '[';
		if (i) {
			*--p = ' ';
			*--p = ',';
		}
		fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), out);
	}
	fputc(']', out);
}

static void write_class(FILE *out, const struct sa_sclass *c)
{
	fputs("{\"class\": ", out);
	sa_json_str(out, c->key);
	fputs(", \"type\": ", out);
	sa_json_str(out, c->type);
	fputs(", \"name\": ", out);
	sa_json_str(out, c->name);
	fputs(", \"site\": ", out);
	sa_json_str(out, c->site);
	fprintf(out, ", \"objects\": %" PRIu64 ", \"waits\": {", c->objects);
	int first = 1;
	for (int k = 0; k < SA_WAIT_NKINDS; k++) {
		const struct sa_skind *w = &c->k[k];
		if (!(c->kinds & (1u << k)))
			continue;
		fprintf(out, "%s\"%s\": {\"waits\": %" PRIu64 ", \"contended\": %" PRIu64
			", \"timeouts\": %" PRIu64 ", ", first ? "" : ", ",
			sa_wait_kind_name((enum sa_wait_kind)k), w->waits, w->contended, w->timeouts);
		write_dur(out, &w->d);
		fputc('}', out);
		first = 0;
	}
	fputs("}, \"hold\": {", out);
	write_dur(out, &c->hold);
	fprintf(out, "}, \"wakes\": {\"futex_wakes\": %" PRIu64 ", \"wasted\": %" PRIu64
		", \"futile\": %" PRIu64 "}, \"spin\": {\"loops\": %" PRIu64 ", \"acquired\": %" PRIu64
		", \"gave_up\": %" PRIu64 ", \"saw_waiters\": %" PRIu64 ", \"spin_ns\": %" PRIu64 "}}",
		c->futex_wakes, c->wasted_wakes, c->futile_wakes, c->spin_loops, c->spin_acquired,
		c->spin_gave_up, c->spin_saw_waiters, c->spin_ns);
}

void sa_summary_write(const struct sa_summary *s, FILE *out)
{
	fprintf(out, "{\"schema\": \"%s\", \"version\": \"%d.%d\",\n", SA_SUM_SCHEMA, SA_SUM_MAJOR,
		SA_SUM_MINOR);
	fprintf(out, " \"histogram\": {\"buckets\": %d, \"log2\": %d, \"sub\": %d},\n",
		ST_HIST_BUCKETS, ST_HIST_LOG2, ST_HIST_SUB);
	fputs(" \"trace\": {", out);
	write_set(out, "hosts", s->hosts, s->nhosts);
	fputs(", ", out);
	write_set(out, "levels", s->levels, s->nlevels);
	fprintf(out, ", \"traces\": %" PRIu64 ", \"processes\": %" PRIu64 ", \"threads\": %" PRIu64
		", \"objects\": %" PRIu64 ", \"events\": %" PRIu64 ", \"malformed\": %" PRIu64
		", \"discarded\": %" PRIu64 ", \"discarded_unknown\": %s, \"partial\": %s",
		s->traces, s->processes, s->threads, s->objects, s->events, s->malformed,
		s->discarded, s->discarded_unknown ? "true" : "false", s->partial ? "true" : "false");
	if (s->have_span)
		fprintf(out, ", \"first_ns\": %" PRId64 ", \"last_ns\": %" PRId64
			", \"duration_ns\": %" PRId64 "},\n", s->first_ts, s->last_ts,
			s->last_ts - s->first_ts);
	else
		fputs(", \"first_ns\": null, \"last_ns\": null, \"duration_ns\": 0},\n", out);
	fputs(" \"classes\": [", out);
	for (uint32_t i = 0; i < s->n; i++) {
		fputs(i ? ",\n  " : "\n  ", out);
		write_class(out, &s->c[i]);
	}
	fputs("]}\n", out);
}

/* ---- merging ------------------------------------------------------------- */

static int set_union(char ***v, uint32_t *n, char *const *w, uint32_t m)
{
	for (uint32_t i = 0; i < m; i++)
		if (set_add(v, n, w[i]))
			return -1;
	set_norm(*v, n);
	return 0;
}

static void class_free(struct sa_sclass *c)
{
	free(c->key);
	free(c->type);
	free(c->name);
	free(c->site);
	for (int k = 0; k < SA_WAIT_NKINDS; k++)
		free(c->k[k].d.h.b);
	free(c->hold.h.b);
	memset(c, 0, sizeof(*c));
}

static int class_add(struct sa_sclass *d, const struct sa_sclass *s)
{
	keep_min(&d->name, s->name);
	keep_min(&d->site, s->site);
	d->objects += s->objects;
	for (int k = 0; k < SA_WAIT_NKINDS; k++) {
		if (!(s->kinds & (1u << k)))
			continue;
		d->kinds |= 1u << k;
		d->k[k].waits += s->k[k].waits;
		d->k[k].contended += s->k[k].contended;
		d->k[k].timeouts += s->k[k].timeouts;
		if (sa_sdur_add(&d->k[k].d, &s->k[k].d))
			return -1;
	}
	if (sa_sdur_add(&d->hold, &s->hold))
		return -1;
	d->futex_wakes += s->futex_wakes;
	d->wasted_wakes += s->wasted_wakes;
	d->futile_wakes += s->futile_wakes;
	d->spin_loops += s->spin_loops;
	d->spin_acquired += s->spin_acquired;
	d->spin_gave_up += s->spin_gave_up;
	d->spin_saw_waiters += s->spin_saw_waiters;
	d->spin_ns += s->spin_ns;
	return 0;
}

int sa_summary_merge(struct sa_summary *dst, struct sa_summary *src)
{
	struct sa_sclass *c = calloc((size_t)dst->n + src->n + 1, sizeof(*c));
	if (!c || set_union(&dst->hosts, &dst->nhosts, src->hosts, src->nhosts) ||
	    set_union(&dst->levels, &dst->nlevels, src->levels, src->nlevels)) {
		free(c);
		sa_summary_free(src);
		return -1;
	}
	dst->traces += src->traces;
	dst->processes += src->processes;
	dst->threads += src->threads;
	dst->objects += src->objects;
	dst->events += src->events;
	dst->malformed += src->malformed;
	dst->discarded += src->discarded;
	dst->discarded_unknown |= src->discarded_unknown;
	dst->partial |= src->partial;
	if (src->have_span) {
		if (!dst->have_span || src->first_ts < dst->first_ts)
			dst->first_ts = src->first_ts;
		if (!dst->have_span || src->last_ts > dst->last_ts)
			dst->last_ts = src->last_ts;
		dst->have_span = 1;
	}
	/* Both in key order: one pass, into the new array. */
	uint32_t i = 0, j = 0, n = 0;
	int rc = 0;
	while (i < dst->n || j < src->n) {
		int cmp = i == dst->n ? 1 : j == src->n ? -1 : strcmp(dst->c[i].key, src->c[j].key);
		if (cmp <= 0) {
			c[n] = dst->c[i++];
			if (!cmp && !rc)
				rc = class_add(&c[n], &src->c[j]);
			j += !cmp;
		} else { /* taken: src holds it no more */
			c[n] = src->c[j];
			memset(&src->c[j++], 0, sizeof(*c));
		}
		n++;
	}
	free(dst->c);
	dst->c = c;
	dst->n = n;
	sa_summary_free(src);
	return rc;
}

void sa_summary_free(struct sa_summary *s)
{
	for (uint32_t i = 0; i < s->nhosts; i++)
		free(s->hosts[i]);
	for (uint32_t i = 0; i < s->nlevels; i++)
		free(s->levels[i]);
	free(s->hosts);
	free(s->levels);
	for (uint32_t i = 0; s->c && i < s->n; i++)
		class_free(&s->c[i]);
	free(s->c);
	memset(s, 0, sizeof(*s));
}
