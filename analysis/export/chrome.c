/* Chrome Trace Event JSON (Perfetto UI, chrome://tracing): one track per
 * thread (pid = the process's pid, tid = the thread's), its waits as
 * complete ("X") slices named "KIND LOCK", a flow ("s" on the waker, "f"
 * on the woken thread, bound to the wait it ended) for each futex wake
 * that ended a wait (the wake on the same object from another thread
 * that came while it waited, collect.c), a counter track ("C") of waiters
 * for each of the top locks (--top, default 5, by wait), process and
 * thread names as metadata ("M") events, the holds the trace gives (full
 * level) as "hold LOCK" slices, the notes (partial, discarded
 * events, capped timeline) in a "synctrace_notes" metadata event and in
 * otherData. Timestamps are microseconds from the first event with ns
 * precision (three decimals).
 *
 * Perfetto requires slices on a track to nest: a wait that begins inside
 * another and ends after it (a condvar wait and its relock share
 * moments) is cut at its parent's end; the wake a flow starts from is a
 * 1 ns "wake LOCK" slice on the waker's track, nested likewise. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sa_export.h"
#include "sa_waits.h"

#define TOP_LOCKS 5
#define WAKE (-1)

struct slice {
	uint32_t thread, obj;
	int kind;                /* wait kind, SA_XK_HOLD, or WAKE */
	int64_t b, e;
	int32_t flow;            /* flow id (wake index + 1) it starts or ends, 0 */
};

static int cmp_slice(const void *a, const void *b)
{
	const struct slice *x = a, *y = b;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	if (x->e != y->e)
		return x->e > y->e ? -1 : 1; /* the longer one is the parent */
	return x->kind > y->kind ? -1 : x->kind < y->kind; /* a wait holds its wake */
}

struct ctx {
	FILE *out;
	int first;
	int64_t origin;
};

static void sep(struct ctx *c)
{
	fputs(c->first ? "\n" : ",\n", c->out);
	c->first = 0;
}

/* Microseconds from the origin, ns precision. */
static void us(struct ctx *c, int64_t ns)
{
	int64_t d = ns - c->origin;
	if (d < 0) {
		fputc('-', c->out);
		d = -d;
	}
	fprintf(c->out, "%" PRId64 ".%03" PRId64, d / 1000, d % 1000);
}

static void note_ev(void *ctx, const char *s)
{
	struct ctx *c = ctx;
	fputs(c->first ? "" : ", ", c->out);
	c->first = 0;
	sa_json_str(c->out, s);
}

static int32_t pid_of(const struct sa_model *m, uint32_t ti)
{
	return m->procs[m->threads[ti].proc].vpid;
}

struct pt {
	int64_t ts;
	int d;
};

/* By time, ends before beginnings at the same instant. */
static int cmp_pt(const void *a, const void *b)
{
	const struct pt *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->d - y->d;
}

/* Waiters over time of lock `row` (objects folded into it included). */
static int counter(const struct sa_model *m, const struct sa_export *x, uint32_t row,
		   struct ctx *c)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < x->nwaits; i++)
		n += x->waits[i].kind >= 0 && sa_model_row(m, x->waits[i].obj) == row;
	if (!n)
		return 0;
	struct pt *p = malloc(2 * (size_t)n * sizeof(*p));
	if (!p)
		return -1;
	uint32_t k = 0;
	for (uint32_t i = 0; i < x->nwaits; i++)
		if (x->waits[i].kind >= 0 && sa_model_row(m, x->waits[i].obj) == row) {
			p[k++] = (struct pt){ x->waits[i].b, 1 };
			p[k++] = (struct pt){ x->waits[i].e, -1 };
		}
	qsort(p, k, sizeof(*p), cmp_pt);
	char lock[200];
	sa_xlock_name(m, row, lock, sizeof(lock));
	int32_t pid = m->procs[m->objs[row].proc].vpid;
	int w = 0;
	for (uint32_t i = 0; i < k; i++) {
		w += p[i].d;
		if (i + 1 < k && p[i + 1].ts == p[i].ts)
			continue; /* one value per instant */
		sep(c);
		fprintf(c->out, "{\"ph\": \"C\", \"name\": ");
		char nm[220];
		snprintf(nm, sizeof(nm), "waiters %s", lock);
		sa_json_str(c->out, nm);
		fprintf(c->out, ", \"pid\": %" PRId32 ", \"ts\": ", pid);
		us(c, p[i].ts);
		fprintf(c->out, ", \"args\": {\"waiters\": %d}}", w);
	}
	free(p);
	return 0;
}

int sa_export_chrome(const struct sa_model *m, const struct sa_report_opts *o, FILE *out)
{
	const struct sa_export *x = o->exp;
	uint32_t nw = x ? x->nwaits : 0, nflows = 0;
	for (uint32_t i = 0; i < nw; i++)
		nflows += x->waits[i].woken_by >= 0;
	struct slice *s = malloc(((size_t)nw + nflows + 1) * sizeof(*s));
	if (!s)
		return -1;
	uint32_t n = 0;
	for (uint32_t i = 0; i < nw; i++) {
		const struct sa_xwait *w = &x->waits[i];
		int32_t flow = w->woken_by >= 0 ? w->woken_by + 1 : 0;
		s[n++] = (struct slice){ w->thread, w->obj, w->kind, w->b, w->e, flow };
		if (flow) {
			const struct sa_xwake *k = &x->wakes[w->woken_by];
			/* stamped after its syscall: it may come after the wait's
			 * end; the arrow starts no later than that end */
			int64_t t = k->ts < w->e ? k->ts : w->e - 1;
			s[n++] = (struct slice){ k->thread, k->obj, WAKE, t, t + 1, flow };
		}
	}
	qsort(s, n, sizeof(*s), cmp_slice);
	/* Nest per track: cut a slice at its enclosing slice's end. */
	int64_t open[64];
	unsigned depth = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (i && s[i].thread != s[i - 1].thread)
			depth = 0;
		while (depth && open[depth - 1] <= s[i].b)
			depth--;
		if (depth && s[i].e > open[depth - 1])
			s[i].e = open[depth - 1];
		if (s[i].e <= s[i].b)
			s[i].e = s[i].b + 1; /* keep it visible (and its flow) */
		if (depth && s[i].e > open[depth - 1])
			s[i].b = s[i].e - 1;
		if (depth < 64)
			open[depth++] = s[i].e;
	}

	struct ctx c = { out, 1, m->first_ts };
	fputs("{\"displayTimeUnit\": \"ns\", \"otherData\": {\"generator\": \"synctrace-report\", "
	      "\"notes\": [", out);
	sa_export_notes(m, o, note_ev, &c);
	fputs("]},\n\"traceEvents\": [", out);
	c.first = 1;
	for (uint32_t pi = 0; pi < m->nprocs; pi++) {
		sep(&c);
		fprintf(out, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %" PRId32
			", \"args\": {\"name\": ", m->procs[pi].vpid);
		sa_json_str(out, m->procs[pi].procname);
		fputs("}}", out);
	}
	for (uint32_t ti = 0; ti < m->nthreads; ti++) {
		sep(&c);
		fprintf(out, "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %" PRId32
			", \"tid\": %" PRId32 ", \"args\": {\"name\": ", pid_of(m, ti),
			m->threads[ti].vtid);
		sa_json_str(out, m->threads[ti].procname);
		fputs("}}", out);
	}
	sep(&c);
	fputs("{\"ph\": \"M\", \"name\": \"synctrace_notes\", \"pid\": 0, \"args\": {\"notes\": [", out);
	c.first = 1;
	sa_export_notes(m, o, note_ev, &c);
	fprintf(out, "], \"lower_bounds\": %s, \"partial\": %s}}", sa_lower_bounds(m) ? "true" : "false",
		o->partial ? "true" : "false");
	c.first = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct slice *sl = &s[i];
		char lock[200], nm[240];
		const char *kind = sl->kind >= 0 ? sa_wait_kind_name((enum sa_wait_kind)sl->kind)
				   : sl->kind == WAKE ? "wake" : "hold";
		sa_xlock_name(m, sl->obj, lock, sizeof(lock));
		snprintf(nm, sizeof(nm), "%s %s", kind, lock);
		int32_t pid = pid_of(m, sl->thread), tid = m->threads[sl->thread].vtid;
		sep(&c);
		fputs("{\"ph\": \"X\", \"cat\": ", out);
		sa_json_str(out, sl->kind >= 0 ? "wait" : kind);
		fputs(", \"name\": ", out);
		sa_json_str(out, nm);
		fprintf(out, ", \"pid\": %" PRId32 ", \"tid\": %" PRId32 ", \"ts\": ", pid, tid);
		us(&c, sl->b);
		fprintf(out, ", \"dur\": %" PRId64 ".%03" PRId64 ", \"args\": {\"lock\": ",
			(sl->e - sl->b) / 1000, (sl->e - sl->b) % 1000);
		sa_json_str(out, lock);
		fputs(", \"kind\": ", out);
		sa_json_str(out, kind);
		fprintf(out, ", \"ns\": %" PRId64 "}}", sl->e - sl->b);
		if (sl->flow) {
			/* The flow starts on the wake, ends (bound to the enclosing
			 * slice, "bp": "e") inside the wait it ended. */
			int start = sl->kind == WAKE;
			sep(&c);
			fprintf(out, "{\"ph\": \"%s\", \"cat\": \"wake\", \"name\": \"wake\", \"id\": %" PRId32
				", \"pid\": %" PRId32 ", \"tid\": %" PRId32 ", \"ts\": ",
				start ? "s" : "f", sl->flow, pid, tid);
			us(&c, start ? sl->b : sl->e - 1);
			fputs(start ? "}" : ", \"bp\": \"e\"}", out);
		}
	}
	if (x) {
		uint32_t top[TOP_LOCKS];
		uint64_t tns[TOP_LOCKS];
		unsigned nt = sa_export_top_locks(m, x, top, tns, o->top && o->top < TOP_LOCKS ? o->top : TOP_LOCKS);
		for (unsigned i = 0; i < nt; i++)
			if (counter(m, x, top[i], &c)) {
				free(s);
				return -1;
			}
	}
	fputs("\n]}\n", out);
	free(s);
	return 0;
}
