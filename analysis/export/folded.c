/* Folded stacks (flame-graph scripts, speedscope, inferno): one line per
 * distinct stack, root first,
 *   process;thread;outermost frame;...;innermost frame;kind lock VALUE
 * VALUE: wait ns (default), contentions, hold ns or wasted wakes
 * (--sample). Frames are "function (file:line)" as the report writes
 * call sites; without --stacks the call site alone. Lines are sorted;
 * equal stacks (objects folded into one class, threads of one name) are
 * summed; lines whose value is 0 are left out; --top N keeps the N
 * locks with the most wait. Notes (partial, discarded
 * events) go first as "# " lines, which the folded readers skip. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sa_export.h"
#include "sa_symbols.h"

struct line {
	char *s;
	uint64_t v;
};

/* Append s to b at *len, ';' and newlines made ':' and ' ' (they would
 * split a frame or a line). */
static void put(char *b, size_t cap, size_t *len, const char *s, int sep)
{
	if (sep && *len + 1 < cap)
		b[(*len)++] = ';';
	for (; *s && *len + 1 < cap; s++)
		b[(*len)++] = *s == ';' ? ':' : (*s == '\n' || *s == '\r') ? ' ' : *s;
	b[*len] = 0;
}

static uint64_t value(const struct sa_xrow *r, int sample)
{
	switch (sample) {
	case SA_XS_CONTENTIONS: return r->contentions;
	case SA_XS_HOLD: return r->hold_ns;
	case SA_XS_WASTED: return r->wasted;
	default: return r->wait_ns;
	}
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->s, ((const struct line *)b)->s);
}

static void note(void *ctx, const char *s)
{
	fprintf(ctx, "# %s\n", s);
}

/* The kept lines of value sample, sorted, in *out (malloc'ed, *nout of
 * them; equal lines not yet summed). 0, or -1 out of memory. */
static int lines(const struct sa_model *m, const struct sa_report_opts *o, int sample,
		 struct line **out, uint32_t *nout)
{
	const struct sa_export *x = o->exp;
	struct line *ls = x && x->nrows ? calloc(x->nrows, sizeof(*ls)) : NULL;
	uint32_t n = 0;
	*out = NULL;
	*nout = 0;
	if (x && x->nrows && !ls)
		return -1;
	unsigned ntop;
	uint32_t *top = sa_export_top(m, o, &ntop);
	for (uint32_t i = 0; x && i < x->nrows; i++) {
		const struct sa_xrow *r = &x->rows[i];
		uint64_t v = value(r, sample);
		if (!v || !sa_export_keep(m, top, ntop, r))
			continue;
		char b[4096], f[512];
		size_t len = 0;
		const struct sa_thread *t = &m->threads[r->thread];
		put(b, sizeof(b), &len, sa_proc_name(m, t->proc), 0);
		put(b, sizeof(b), &len, t->procname, 1);
		const uint64_t *fr;
		unsigned nf = sa_xrow_frames(m, r, &fr);
		for (unsigned k = nf; k-- > 0;)
			put(b, sizeof(b), &len, sa_site_name(m, t->proc, fr[k], f, sizeof(f)), 1);
		snprintf(f, sizeof(f), "%s ", sa_xkind_name(m, r));
		put(b, sizeof(b), &len, f, 1);
		put(b, sizeof(b), &len, sa_xlock_name(m, r->obj, f, sizeof(f)), 0);
		if (!(ls[n].s = strdup(b))) {
			while (n--)
				free(ls[n].s);
			free(ls);
			free(top);
			return -1;
		}
		ls[n++].v = v;
	}
	free(top);
	if (n)
		qsort(ls, n, sizeof(*ls), cmp_line);
	*out = ls;
	*nout = n;
	return 0;
}

static void free_lines(struct line *ls, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(ls[i].s);
	free(ls);
}

int sa_export_folded_each(const struct sa_model *m, const struct sa_report_opts *o, int sample,
			  void (*fn)(void *ctx, char *const *frames, unsigned n, uint64_t v),
			  void *ctx)
{
	struct line *ls;
	uint32_t n;
	if (lines(m, o, sample, &ls, &n))
		return -1;
	char *fr[SA_X_MAX_FRAMES];
	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = ls[i].v;
		while (i + 1 < n && !strcmp(ls[i].s, ls[i + 1].s))
			v += ls[++i].v;
		unsigned nf = 0; /* put() made every ';' in a name ':': the split is exact */
		for (char *p = ls[i].s; p; nf++) {
			fr[nf] = p;
			if ((p = strchr(p, ';')) && nf + 1 < SA_X_MAX_FRAMES)
				*p++ = 0;
			else
				p = NULL; /* the rest (over SA_X_MAX_FRAMES) stays in the last */
		}
		fn(ctx, fr, nf, v);
	}
	free_lines(ls, n);
	return 0;
}

int sa_export_folded(const struct sa_model *m, const struct sa_report_opts *o, FILE *out)
{
	struct line *ls;
	uint32_t n;
	if (lines(m, o, o->sample, &ls, &n))
		return -1;
	sa_export_notes(m, o, note, out);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = ls[i].v;
		while (i + 1 < n && !strcmp(ls[i].s, ls[i + 1].s))
			v += ls[++i].v;
		fprintf(out, "%s %" PRIu64 "\n", ls[i].s, v);
	}
	free_lines(ls, n);
	return 0;
}
