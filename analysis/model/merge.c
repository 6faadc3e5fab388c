#include "sa_merge.h"

#include <stdlib.h>
#include <string.h>

#include "st_batch.h"

/* One held source: an ordinary event (copied, with its strings), or a
 * batch whose records are fed one by one (at: the next record's word). */
struct sa_merge_src {
	int64_t ts; /* the next event's time */
	uint64_t seq;
	struct sa_event ev; /* the event, or the batch's common part */
	char *strings;      /* the copy's strings, one block */
	uint64_t *arr;      /* the copy's array */
	const uint64_t *w;  /* the batch's words (owned), or NULL */
	unsigned n, at;
};

void sa_merge_init(struct sa_merge *m, sa_merge_out out, void *ctx)
{
	memset(m, 0, sizeof(*m));
	m->out = out;
	m->ctx = ctx;
	m->newest = m->fed = INT64_MIN;
	m->window = ST_MERGE_NS;
}

static int before(const struct sa_merge_src *a, const struct sa_merge_src *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

static void sift_up(struct sa_merge *m, unsigned i)
{
	while (i > 0) {
		unsigned p = (i - 1) / 2;
		if (!before(m->heap[i], m->heap[p]))
			break;
		struct sa_merge_src *t = m->heap[i];
		m->heap[i] = m->heap[p];
		m->heap[p] = t;
		i = p;
	}
}

static void sift_down(struct sa_merge *m, unsigned i)
{
	for (;;) {
		unsigned l = 2 * i + 1, r = l + 1, b = i;
		if (l < m->n && before(m->heap[l], m->heap[b]))
			b = l;
		if (r < m->n && before(m->heap[r], m->heap[b]))
			b = r;
		if (b == i)
			return;
		struct sa_merge_src *t = m->heap[i];
		m->heap[i] = m->heap[b];
		m->heap[b] = t;
		i = b;
	}
}

static void src_free(struct sa_merge_src *s)
{
	free(s->strings);
	free(s->arr);
	free((void *)s->w);
	free(s);
}

/* A record's time, in ns from the clock's origin: the batch's own time
 * less the distance between the two raw clock values. */
static int64_t record_ns(const struct sa_merge_src *s, uint64_t raw)
{
	uint64_t freq = s->ev.freq ? s->ev.freq : 1000000000ull;
	int64_t d = (int64_t)(s->ev.cycles - raw);
	if (freq != 1000000000ull)
		d = (int64_t)((double)d * 1e9 / (double)freq);
	return s->ev.ts - d;
}

/* Point the batch at its next well-formed record: 1, or 0 at its end. */
static int batch_next(struct sa_merge *m, struct sa_merge_src *s)
{
	if (s->at + 2 > s->n || s->w[s->at] == 0) /* the end, or a pad */
		return 0;
	unsigned nargs = ST_BATCH_N_OF(s->w[s->at]);
	if (nargs > s->n - s->at - 2) {
		m->bad++;
		return 0;
	}
	s->ts = record_ns(s, s->w[s->at + 1]);
	return 1;
}

static void feed_record(struct sa_merge *m, struct sa_merge_src *s)
{
	const uint64_t *r = &s->w[s->at];
	unsigned nargs = ST_BATCH_N_OF(r[0]);
	enum sa_event_id id = sa_event_by_hash(ST_BATCH_HASH_OF(r[0]));
	s->at += 2 + nargs;
	if (id == SA_EV_UNKNOWN) {
		m->unknown++;
		return;
	}
	struct sa_event e = s->ev;
	e.id = id;
	e.name = sa_event_name(id);
	e.ts = s->ts;
	e.cycles = r[1];
	unsigned known = sa_event_nfields(id);
	e.nfields = nargs < known ? nargs : known; /* a newer minor's extra fields: dropped */
	for (unsigned i = 0; i < e.nfields; i++) {
		e.f[i].name = sa_event_field_name(id, i);
		e.f[i].v = (int64_t)r[2 + i];
	}
	m->records++;
	m->out(m->ctx, &e);
}

/* Feed the oldest held event. */
static void pop(struct sa_merge *m)
{
	struct sa_merge_src *s = m->heap[0];
	if (s->ts < m->fed)
		m->late++;
	else
		m->fed = s->ts;
	if (s->w) {
		feed_record(m, s);
		if (batch_next(m, s)) {
			sift_down(m, 0);
			return;
		}
	} else {
		m->out(m->ctx, &s->ev);
	}
	m->heap[0] = m->heap[--m->n];
	sift_down(m, 0);
	src_free(s);
}

static void release(struct sa_merge *m)
{
	while (m->n && m->heap[0]->ts <= m->newest - m->window)
		pop(m);
}

static void push(struct sa_merge *m, struct sa_merge_src *s, int64_t at)
{
	if (m->n == m->cap) {
		unsigned c = m->cap ? m->cap * 2 : 256;
		struct sa_merge_src **h = realloc(m->heap, c * sizeof(*h));
		if (!h) {
			m->oom = 1;
			src_free(s);
			return;
		}
		m->heap = h;
		m->cap = c;
	}
	s->seq = m->seq++;
	m->heap[m->n++] = s;
	sift_up(m, m->n - 1);
	if (at > m->newest)
		m->newest = at;
	release(m);
}

/* Each string of an event, by address. */
static unsigned strings_of(struct sa_event *e, const char **out[])
{
	unsigned n = 0;
	out[n++] = &e->name;
	out[n++] = &e->procname;
	out[n++] = &e->arr_name;
	out[n++] = &e->text;
	for (unsigned i = 0; i < e->nfields && i < SA_MAX_FIELDS; i++)
		out[n++] = &e->f[i].name;
	for (unsigned i = 0; i < e->nstrings && i < SA_MAX_STRINGS; i++) {
		out[n++] = &e->s[i].name;
		out[n++] = &e->s[i].v;
	}
	return n;
}

/* The event's strings, copied into one block (the decoder's die with
 * its message). */
static int copy_strings(struct sa_merge_src *s)
{
	struct sa_event *e = &s->ev;
	const char **str[4 + SA_MAX_FIELDS + 2 * SA_MAX_STRINGS];
	unsigned n = strings_of(e, str);
	size_t len = 1;
	for (unsigned i = 0; i < n; i++)
		len += *str[i] ? strlen(*str[i]) + 1 : 0;
	char *p = s->strings = malloc(len);
	if (!p)
		return -1;
	for (unsigned i = 0; i < n; i++)
		if (*str[i]) {
			size_t l = strlen(*str[i]) + 1;
			memcpy(p, *str[i], l);
			*str[i] = p;
			p += l;
		}
	if (e->narr) {
		if (!(s->arr = malloc(e->narr * sizeof(*s->arr))))
			return -1;
		memcpy(s->arr, e->arr, e->narr * sizeof(*s->arr));
		e->arr = s->arr;
	}
	return 0;
}

void sa_merge_event(struct sa_merge *m, const struct sa_event *e)
{
	int64_t t;
	if (e->id == SA_EV_meta_config && sa_ev_at(e, SA_F_meta_config_threshold_ns, &t) && t > 0) {
		int64_t w = t < ST_MERGE_MAX_NS - ST_MERGE_NS ? t + ST_MERGE_NS : ST_MERGE_MAX_NS;
		if (w > m->window)
			m->window = w; /* a threshold's waits are written once long */
	}
	if (!m->active) {
		m->out(m->ctx, e);
		return;
	}
	struct sa_merge_src *s = calloc(1, sizeof(*s));
	if (!s) {
		m->oom = 1;
		return;
	}
	s->ev = *e;
	if (copy_strings(s)) {
		m->oom = 1;
		src_free(s);
		return;
	}
	s->ts = e->ts;
	push(m, s, e->ts);
}

void sa_merge_batch(struct sa_merge *m, const struct sa_event *b, int32_t tid,
		    const uint64_t *words, unsigned n)
{
	m->active = 1;
	struct sa_merge_src *s = calloc(1, sizeof(*s));
	uint64_t *w = malloc((n ? n : 1) * sizeof(*w));
	if (!s || !w) {
		free(s);
		free(w);
		m->oom = 1;
		return;
	}
	memcpy(w, words, n * sizeof(*w));
	s->ev = *b;
	s->ev.vtid = tid;
	s->ev.nfields = s->ev.nstrings = s->ev.narr = 0;
	s->ev.name = s->ev.arr_name = s->ev.text = NULL;
	s->w = w;
	s->n = n;
	if (copy_strings(s)) {
		m->oom = 1;
		src_free(s);
		return;
	}
	if (!batch_next(m, s)) {
		src_free(s);
		return;
	}
	push(m, s, b->ts);
}

void sa_merge_drain(struct sa_merge *m)
{
	while (m->n)
		pop(m);
}

void sa_merge_free(struct sa_merge *m)
{
	for (unsigned i = 0; i < m->n; i++)
		src_free(m->heap[i]);
	free(m->heap);
	m->heap = NULL;
	m->n = m->cap = 0;
}
