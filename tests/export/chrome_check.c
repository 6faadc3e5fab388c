/* chrome_check FILE: validate a Chrome Trace Event JSON document the way
 * the Perfetto importer needs it, with a JSON parser of its own (strict:
 * RFC 8259 values, nothing after the document):
 *   - an object with a "traceEvents" array of objects, each with "ph"
 *     (string) and "pid" (integer);
 *   - X: name, tid, ts, dur >= 0; M: name, and args.name for
 *     process_name / thread_name; s / f: id, tid, ts, cat, name; C: name,
 *     ts, args of numbers;
 *   - per track (pid, tid), X slices nest: sorted by begin, each ends at
 *     or before the slice it begins in;
 *   - every flow id has exactly one "s" and one "f", s.ts <= f.ts, each
 *     inside an X slice of its own track;
 *   - every track with slices has a thread_name.
 * Prints "ok", the counts ("slices N", "flows N", "counters N"), per
 * slice name and thread name "slice THREAD|NAME COUNT", and per slice a
 * flow ends in (the innermost holding its end) "flowin THREAD|NAME
 * COUNT"; exit 1 with the first violation otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum jt { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };
struct jv {
	enum jt t;
	double num;
	char *str;
	struct jv *items;   /* array items, or object values */
	char **keys;        /* object keys */
	size_t n;
};

static char buf[64 << 20];
static const char *p, *end;

static void die(const char *what)
{
	fprintf(stderr, "chrome_check: %s (at byte offset %ld)\n", what, (long)(p - buf));
	exit(1);
}

static void ws(void)
{
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
		p++;
}

static char *string(void)
{
	if (*p != '"')
		die("string expected");
	p++;
	size_t cap = 16, n = 0;
	char *s = malloc(cap);
	while (p < end && *p != '"') {
		char ch = *p++;
		if ((unsigned char)ch < 0x20)
			die("control character in a string");
		if (ch == '\\') {
			if (p >= end)
				die("truncated escape");
			ch = *p++;
			switch (ch) {
			case '"': case '\\': case '/': break;
			case 'b': ch = '\b'; break;
			case 'f': ch = '\f'; break;
			case 'n': ch = '\n'; break;
			case 'r': ch = '\r'; break;
			case 't': ch = '\t'; break;
			case 'u':
				for (int i = 0; i < 4; i++)
					if (p >= end || !strchr("0123456789abcdefABCDEF", *p++))
						die("bad \\u escape");
				ch = '?';
				break;
			default: die("bad escape");
			}
		}
		if (n + 2 > cap)
			s = realloc(s, cap *= 2);
		s[n++] = ch;
	}
	if (p >= end)
		die("unterminated string");
	p++;
	s[n] = 0;
	return s;
}

static void value(struct jv *v);

static void push(struct jv *v, char *key, size_t *cap)
{
	if (v->n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		v->items = realloc(v->items, *cap * sizeof(*v->items));
		if (v->t == J_OBJ)
			v->keys = realloc(v->keys, *cap * sizeof(*v->keys));
	}
	if (v->t == J_OBJ)
		v->keys[v->n] = key;
	value(&v->items[v->n++]);
}

static void value(struct jv *v)
{
	memset(v, 0, sizeof(*v));
	ws();
	if (p >= end)
		die("truncated document");
	size_t cap = 0;
	if (*p == '{' || *p == '[') {
		int obj = *p == '{';
		v->t = obj ? J_OBJ : J_ARR;
		p++;
		ws();
		if (p < end && *p == (obj ? '}' : ']')) {
			p++;
			return;
		}
		for (;;) {
			char *key = NULL;
			ws();
			if (obj) {
				key = string();
				ws();
				if (p >= end || *p++ != ':')
					die("':' expected");
			}
			push(v, key, &cap);
			ws();
			if (p < end && *p == ',') {
				p++;
				continue;
			}
			if (p < end && *p == (obj ? '}' : ']')) {
				p++;
				return;
			}
			die("',' or a closing bracket expected");
		}
	}
	if (*p == '"') {
		v->t = J_STR;
		v->str = string();
		return;
	}
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4)) {
		v->t = *p == 't' ? J_BOOL : J_NULL;
		p += 4;
		return;
	}
	if (!strncmp(p, "false", 5)) {
		v->t = J_BOOL;
		p += 5;
		return;
	}
	char *e;
	const char *q = p;
	if (*q == '-')
		q++;
	if (q >= end || *q < '0' || *q > '9' || (*q == '0' && q + 1 < end && q[1] >= '0' && q[1] <= '9'))
		die("bad value");
	v->t = J_NUM;
	v->num = strtod(p, &e);
	p = e;
}

static const struct jv *get(const struct jv *o, const char *k)
{
	if (o->t != J_OBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], k))
			return &o->items[i];
	return NULL;
}

static double num(const struct jv *e, const char *k, int idx)
{
	const struct jv *v = get(e, k);
	if (!v || v->t != J_NUM) {
		fprintf(stderr, "chrome_check: event %d: \"%s\" missing or not a number\n", idx, k);
		exit(1);
	}
	return v->num;
}

static const char *str(const struct jv *e, const char *k, int idx)
{
	const struct jv *v = get(e, k);
	if (!v || v->t != J_STR) {
		fprintf(stderr, "chrome_check: event %d: \"%s\" missing or not a string\n", idx, k);
		exit(1);
	}
	return v->str;
}

struct sl {
	double pid, tid, b, e;
	const char *name;
};
struct fl {
	double id, pid, tid, ts;
	int ph; /* 's' or 'f' */
};
struct th {
	double pid, tid;
	const char *name;
};

static int cmp_sl(const void *a, const void *b)
{
	const struct sl *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	return x->e > y->e ? -1 : x->e < y->e;
}

/* Is there a slice of track (pid, tid) holding ts? */
static int inside(const struct sl *s, size_t n, double pid, double tid, double ts)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].pid == pid && s[i].tid == tid && s[i].b <= ts && ts <= s[i].e)
			return 1;
	return 0;
}

static const char *thread_name(const struct th *t, size_t n, double pid, double tid)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].pid == pid && t[i].tid == tid)
			return t[i].name;
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: chrome_check FILE\n", stderr);
		return 2;
	}
	FILE *f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	size_t len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	p = buf;
	end = buf + len;
	struct jv doc;
	value(&doc);
	ws();
	if (p != end)
		die("garbage after the document");
	const struct jv *evs = get(&doc, "traceEvents");
	if (doc.t != J_OBJ || !evs || evs->t != J_ARR)
		die("not an object with a traceEvents array");
	struct sl *s = calloc(evs->n + 1, sizeof(*s));
	struct fl *fls = calloc(evs->n + 1, sizeof(*fls));
	struct th *ths = calloc(evs->n + 1, sizeof(*ths));
	size_t ns = 0, nf = 0, nt = 0, nc = 0;
	for (size_t i = 0; i < evs->n; i++) {
		const struct jv *e = &evs->items[i];
		int idx = (int)i;
		if (e->t != J_OBJ)
			die("an event is not an object");
		const char *ph = str(e, "ph", idx);
		double pid = num(e, "pid", idx);
		if (!strcmp(ph, "X")) {
			double ts = num(e, "ts", idx), dur = num(e, "dur", idx);
			if (dur < 0)
				die("negative dur");
			s[ns++] = (struct sl){ pid, num(e, "tid", idx), ts, ts + dur, str(e, "name", idx) };
		} else if (!strcmp(ph, "M")) {
			const char *name = str(e, "name", idx);
			const struct jv *args = get(e, "args");
			if (!args || args->t != J_OBJ)
				die("metadata event without args");
			if (!strcmp(name, "thread_name"))
				ths[nt++] = (struct th){ pid, num(e, "tid", idx), str(args, "name", idx) };
			else if (!strcmp(name, "process_name"))
				(void)str(args, "name", idx);
		} else if (!strcmp(ph, "s") || !strcmp(ph, "f")) {
			(void)str(e, "cat", idx);
			(void)str(e, "name", idx);
			fls[nf++] = (struct fl){ num(e, "id", idx), pid, num(e, "tid", idx),
						 num(e, "ts", idx), ph[0] };
		} else if (!strcmp(ph, "C")) {
			(void)str(e, "name", idx);
			(void)num(e, "ts", idx);
			const struct jv *args = get(e, "args");
			if (!args || args->t != J_OBJ || !args->n)
				die("counter without args");
			for (size_t k = 0; k < args->n; k++)
				if (args->items[k].t != J_NUM)
					die("counter arg not a number");
			nc++;
		} else {
			fprintf(stderr, "chrome_check: event %d: unexpected ph '%s'\n", idx, ph);
			return 1;
		}
	}
	qsort(s, ns, sizeof(*s), cmp_sl);
	double open[256];
	unsigned depth = 0;
	for (size_t i = 0; i < ns; i++) {
		if (i && (s[i].pid != s[i - 1].pid || s[i].tid != s[i - 1].tid))
			depth = 0;
		/* ts + dur is summed in doubles: a slice that begins where the
		 * last one ends may see that end a rounding above its begin
		 * (1e-9 us, as the crossing test below allows). */
		while (depth && open[depth - 1] <= s[i].b + 1e-9)
			depth--;
		if (depth && s[i].e > open[depth - 1] + 1e-9) {
			fprintf(stderr, "chrome_check: slice '%s' [%.3f, %.3f] on %g/%g crosses its "
				"parent's end %.3f\n", s[i].name, s[i].b, s[i].e, s[i].pid, s[i].tid,
				open[depth - 1]);
			return 1;
		}
		if (depth < 256)
			open[depth++] = s[i].e;
		if (!thread_name(ths, nt, s[i].pid, s[i].tid)) {
			fprintf(stderr, "chrome_check: track %g/%g has no thread_name\n", s[i].pid,
				s[i].tid);
			return 1;
		}
	}
	size_t flows = 0;
	for (size_t i = 0; i < nf; i++) {
		if (fls[i].ph != 's')
			continue;
		size_t nfin = 0, fi = 0, nst = 0;
		for (size_t k = 0; k < nf; k++)
			if (fls[k].id == fls[i].id) {
				if (fls[k].ph == 'f') {
					nfin++;
					fi = k;
				} else {
					nst++;
				}
			}
		if (nst != 1 || nfin != 1) {
			fprintf(stderr, "chrome_check: flow %g: %zu starts, %zu ends\n", fls[i].id, nst, nfin);
			return 1;
		}
		if (fls[fi].ts < fls[i].ts)
			die("a flow ends before it starts");
		if (!inside(s, ns, fls[i].pid, fls[i].tid, fls[i].ts) ||
		    !inside(s, ns, fls[fi].pid, fls[fi].tid, fls[fi].ts))
			die("a flow end is outside every slice of its track");
		flows++;
	}
	for (size_t i = 0; i < nf; i++) /* an "f" without its "s" */
		if (fls[i].ph == 'f') {
			int found = 0;
			for (size_t k = 0; k < nf; k++)
				found |= fls[k].ph == 's' && fls[k].id == fls[i].id;
			if (!found) {
				fprintf(stderr, "chrome_check: flow %g ends but never starts\n", fls[i].id);
				return 1;
			}
		}
	printf("ok\nslices %zu\nflows %zu\ncounters %zu\n", ns, flows, nc);
	/* the slice each flow ends in: the innermost (latest begin) holding it */
	const char **in = calloc(nf + 1, sizeof(*in));
	size_t nin = 0;
	for (size_t i = 0; i < nf; i++) {
		if (fls[i].ph != 'f')
			continue;
		const struct sl *best = NULL;
		for (size_t k = 0; k < ns; k++)
			if (s[k].pid == fls[i].pid && s[k].tid == fls[i].tid && s[k].b <= fls[i].ts &&
			    fls[i].ts <= s[k].e && (!best || s[k].b >= best->b))
				best = &s[k];
		static char keys[4096][256];
		if (best && nin < 4096) {
			snprintf(keys[nin], sizeof(keys[nin]), "%s|%s",
				 thread_name(ths, nt, best->pid, best->tid), best->name);
			in[nin] = keys[nin];
			nin++;
		}
	}
	for (size_t i = 0; i < nin; i++) {
		int seen = 0;
		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(in[k], in[i]);
		if (seen)
			continue;
		size_t c = 0;
		for (size_t k = i; k < nin; k++)
			c += !strcmp(in[k], in[i]);
		printf("flowin %s %zu\n", in[i], c);
	}
	/* per (thread name, slice name), counted */
	for (size_t i = 0; i < ns; i++) {
		const char *tn = thread_name(ths, nt, s[i].pid, s[i].tid);
		int seen = 0;
		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(s[k].name, s[i].name) &&
			       !strcmp(thread_name(ths, nt, s[k].pid, s[k].tid), tn);
		if (seen)
			continue;
		size_t c = 0;
		for (size_t k = i; k < ns; k++)
			c += !strcmp(s[k].name, s[i].name) &&
			     !strcmp(thread_name(ths, nt, s[k].pid, s[k].tid), tn);
		printf("slice %s|%s %zu\n", tn, s[i].name, c);
	}
	return 0;
}
