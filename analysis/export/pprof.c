/* pprof: a gzipped profile.proto (go tool pprof, Pyroscope, Parca,
 * Perfetto), encoded by protobuf-c from the schema Debian ships with
 * pprof's sources (golang-github-google-pprof-dev; C generated at build
 * time by protoc-c, analysis/CMakeLists.txt).
 *
 * One sample per collected row (thread, lock, kind, stack): values
 * contentions/count, delay/nanoseconds (the default), hold/nanoseconds
 * (full level), wasted_wakes/count, spin/iterations; locations are the
 * stack's frames innermost first (or the call site alone), each with its
 * function, file and line from analysis/symbols and the mapping of its
 * module (path, build id) from the statedump; labels lock, kind, process,
 * thread (strings) and pid, tid (numbers), so -tagfocus=lock=... works.
 * Notes (partial, discarded events) are the profile's comments. --top N
 * keeps the samples of the N locks with the most wait. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profile.pb-c.h"
#include "sa_export.h"
#include "sa_symbols.h"
#include "sa_symbols_impl.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__ValueType ValueType;

enum { V_CONT, V_DELAY, V_HOLD, V_WASTED, V_SPIN, V_N };
enum { L_LOCK, L_KIND, L_PROC, L_THREAD, L_PID, L_TID, L_N };

struct pp {
	char **str;
	uint32_t nstr, capstr;
	struct sa_map str_map;  /* (hash, length) → str */
	Function *fn;
	uint32_t nfn, capfn;
	struct sa_map fn_map;   /* (name, file) → fn */
	Location *loc;
	Line *line;             /* one per location */
	uint32_t nloc, caploc, capline;
	struct sa_map loc_map;  /* (proc, address) → loc */
	Mapping *map;
	uint32_t nmap, capmap;
	struct sa_map map_map;  /* (proc, module) → map */
	int oom;
};

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The string table index of s (0 is ""). */
static int64_t str(struct pp *p, const char *s)
{
	if (!s || !*s)
		return 0;
	uint64_t h = hash(s), len = strlen(s);
	int64_t i = sa_map_get(&p->str_map, h, len);
	if (i >= 0 && !strcmp(p->str[i], s))
		return i;
	char *d = strdup(s);
	if (!d || sa_grow((void **)&p->str, p->nstr, &p->capstr, sizeof(*p->str))) {
		free(d);
		p->oom = 1;
		return 0;
	}
	if (i < 0 && sa_map_put(&p->str_map, h, len, p->nstr))
		p->oom = 1;
	p->str[p->nstr] = d;
	return p->nstr++;
}

static uint64_t function(struct pp *p, const char *name, const char *file)
{
	int64_t n = str(p, name), f = str(p, file);
	int64_t i = sa_map_get(&p->fn_map, (uint64_t)n, (uint64_t)f);
	if (i >= 0)
		return (uint64_t)i + 1;
	if (sa_grow((void **)&p->fn, p->nfn, &p->capfn, sizeof(*p->fn)) ||
	    sa_map_put(&p->fn_map, (uint64_t)n, (uint64_t)f, p->nfn)) {
		p->oom = 1;
		return 0;
	}
	Function *fn = &p->fn[p->nfn++];
	perftools__profiles__function__init(fn);
	fn->id = p->nfn;
	fn->name = fn->system_name = n;
	fn->filename = f;
	return fn->id;
}

/* The mapping of module mi of symbols process sp (model process pi). */
static uint64_t mapping(struct pp *p, uint32_t pi, const struct sa_sym_proc *sp, int mi)
{
	int64_t i = sa_map_get(&p->map_map, pi, (uint64_t)mi);
	if (i >= 0)
		return (uint64_t)i + 1;
	if (sa_grow((void **)&p->map, p->nmap, &p->capmap, sizeof(*p->map)) ||
	    sa_map_put(&p->map_map, pi, (uint64_t)mi, p->nmap)) {
		p->oom = 1;
		return 0;
	}
	const struct sa_sym_module *md = &sp->mods[mi];
	Mapping *mp = &p->map[p->nmap++];
	perftools__profiles__mapping__init(mp);
	mp->id = p->nmap;
	mp->memory_start = md->base;
	mp->memory_limit = md->base + md->memsz;
	mp->filename = str(p, md->path);
	char bid[130];
	unsigned k = 0;
	for (; k < md->nbuild_id && k < 64; k++)
		snprintf(bid + 2 * k, 3, "%02x", md->build_id[k]);
	bid[2 * k] = 0;
	mp->build_id = str(p, bid);
	mp->has_functions = mp->has_filenames = mp->has_line_numbers = 1;
	return mp->id;
}

/* The location of return address addr in model process pi. */
static uint64_t location(struct pp *p, const struct sa_model *m, uint32_t pi, uint64_t addr)
{
	int64_t i = sa_map_get(&p->loc_map, pi, addr);
	if (i >= 0)
		return (uint64_t)i + 1;
	const struct sa_proc *mp = &m->procs[pi];
	struct sa_sym_proc *sp = m->symbols ? sa_sym_proc(m->symbols, mp->trace, mp->vpid, 0)
					    : NULL;
	struct sa_sym_code c;
	char name[300];
	const char *fn = NULL, *file = NULL;
	int line = 0, mi = -1;
	if (sp && !sa_sym_code_at(sp, addr, 1, &c)) {
		mi = sa_sym_module_of(sp, addr);
		if (c.fn) {
			fn = c.fn;
			file = c.path ? c.path : c.file;
			line = c.line;
		} else {
			snprintf(name, sizeof(name), "%s+0x%" PRIx64, c.mod ? c.mod : "?", c.off);
			fn = name;
		}
	}
	if (!fn) {
		snprintf(name, sizeof(name), "0x%" PRIx64, addr);
		fn = name;
	}
	uint64_t fid = function(p, fn, file);
	uint64_t mid = mi >= 0 ? mapping(p, pi, sp, mi) : 0;
	if (sa_grow((void **)&p->loc, p->nloc, &p->caploc, sizeof(*p->loc)) ||
	    sa_grow((void **)&p->line, p->nloc, &p->capline, sizeof(*p->line)) ||
	    sa_map_put(&p->loc_map, pi, addr, p->nloc)) {
		p->oom = 1;
		return 0;
	}
	Location *l = &p->loc[p->nloc];
	Line *ln = &p->line[p->nloc++];
	perftools__profiles__location__init(l);
	perftools__profiles__line__init(ln);
	l->id = p->nloc;
	l->mapping_id = mid;
	l->address = addr;
	ln->function_id = fid;
	ln->line = line;
	return l->id;
}

static void value_type(ValueType *v, struct pp *p, const char *type, const char *unit)
{
	perftools__profiles__value_type__init(v);
	v->type = str(p, type);
	v->unit = str(p, unit);
}

struct notes {
	struct pp *p;
	int64_t *idx;
	size_t n;
};

static void note(void *ctx, const char *s)
{
	struct notes *n = ctx;
	if (n->n < 24)
		n->idx[n->n++] = str(n->p, s);
}

/* Gzip buf into out. 0, or -1. */
static int gzip_to(FILE *out, const uint8_t *buf, size_t len)
{
	z_stream z = { 0 };
	uint8_t chunk[65536];
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY))
		return -1;
	z.next_in = (uint8_t *)buf;
	z.avail_in = (uInt)len;
	int rc;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		rc = deflate(&z, Z_FINISH);
		if (rc == Z_STREAM_ERROR ||
		    fwrite(chunk, 1, sizeof(chunk) - z.avail_out, out) != sizeof(chunk) - z.avail_out) {
			deflateEnd(&z);
			return -1;
		}
	} while (rc != Z_STREAM_END);
	deflateEnd(&z);
	return 0;
}

int sa_export_pprof(const struct sa_model *m, const struct sa_report_opts *o, FILE *out)
{
	const struct sa_export *x = o->exp;
	uint32_t nrows = x ? x->nrows : 0;
	struct pp p = { 0 };
	Profile prof;
	ValueType vt[V_N], period;
	int64_t comments[24];
	struct notes nt = { &p, comments, 0 };
	int rc = -1;
	perftools__profiles__profile__init(&prof);
	str(&p, "x"); /* slot 0 is "" */
	p.str[0][0] = 0;
	value_type(&vt[V_CONT], &p, "contentions", "count");
	value_type(&vt[V_DELAY], &p, "delay", "nanoseconds");
	value_type(&vt[V_HOLD], &p, "hold", "nanoseconds");
	value_type(&vt[V_WASTED], &p, "wasted_wakes", "count");
	value_type(&vt[V_SPIN], &p, "spin", "iterations");
	value_type(&period, &p, "contentions", "count");
	sa_export_notes(m, o, note, &nt);

	Sample *samples = calloc(nrows ? nrows : 1, sizeof(*samples));
	Label *labels = calloc(nrows ? nrows : 1, L_N * sizeof(*labels));
	int64_t *values = calloc(nrows ? nrows : 1, V_N * sizeof(*values));
	uint64_t *locids = NULL;
	size_t nlocids = 0;
	uint32_t ns = 0;
	for (uint32_t i = 0; i < nrows; i++) { /* frames, counted first */
		const uint64_t *fr;
		nlocids += sa_xrow_frames(m, &x->rows[i], &fr);
	}
	locids = calloc(nlocids ? nlocids : 1, sizeof(*locids));
	if (!samples || !labels || !values || !locids)
		goto out;
	size_t used = 0;
	unsigned ntop;
	uint32_t *top = sa_export_top(m, o, &ntop);
	for (uint32_t i = 0; i < nrows; i++) {
		const struct sa_xrow *r = &x->rows[i];
		if (!sa_export_keep(m, top, ntop, r))
			continue;
		const struct sa_thread *t = &m->threads[r->thread];
		int64_t *v = values + (size_t)ns * V_N;
		v[V_CONT] = (int64_t)r->contentions;
		v[V_DELAY] = (int64_t)r->wait_ns;
		v[V_HOLD] = (int64_t)r->hold_ns;
		v[V_WASTED] = (int64_t)r->wasted;
		v[V_SPIN] = (int64_t)r->spin_iter;
		if (!v[V_CONT] && !v[V_DELAY] && !v[V_HOLD] && !v[V_WASTED] && !v[V_SPIN])
			continue;
		Sample *s = &samples[ns];
		Label *lb = labels + (size_t)ns * L_N;
		ns++;
		perftools__profiles__sample__init(s);
		s->n_value = V_N;
		s->value = v;
		const uint64_t *fr;
		unsigned nf = sa_xrow_frames(m, r, &fr);
		s->location_id = locids + used;
		for (unsigned k = 0; k < nf; k++) /* innermost first, as pprof wants */
			locids[used + s->n_location_id++] = location(&p, m, t->proc, fr[k]);
		used += nf;
		char lock[200];
		const struct sa_proc *pr = &m->procs[t->proc];
		for (int k = 0; k < L_N; k++)
			perftools__profiles__label__init(&lb[k]);
		lb[L_LOCK].key = str(&p, "lock");
		lb[L_LOCK].str = str(&p, sa_xlock_name(m, r->obj, lock, sizeof(lock)));
		lb[L_KIND].key = str(&p, "kind");
		lb[L_KIND].str = str(&p, sa_xkind_name(m, r));
		lb[L_PROC].key = str(&p, "process");
		lb[L_PROC].str = str(&p, pr->procname);
		lb[L_THREAD].key = str(&p, "thread");
		lb[L_THREAD].str = str(&p, t->procname);
		lb[L_PID].key = str(&p, "pid");
		lb[L_PID].num = pr->vpid;
		lb[L_TID].key = str(&p, "tid");
		lb[L_TID].num = t->vtid;
		s->n_label = L_N;
		s->label = NULL; /* pointers below, once the arrays stop moving */
	}
	free(top);
	if (p.oom)
		goto out;

	/* protobuf-c wants arrays of pointers. */
	ValueType *vtp[V_N];
	for (int k = 0; k < V_N; k++)
		vtp[k] = &vt[k];
	Sample **sp = calloc(ns ? ns : 1, sizeof(*sp));
	Label **lp = calloc((size_t)(ns ? ns : 1) * L_N, sizeof(*lp));
	Location **locp = calloc(p.nloc ? p.nloc : 1, sizeof(*locp));
	Line **linep = calloc(p.nloc ? p.nloc : 1, sizeof(*linep));
	Function **fnp = calloc(p.nfn ? p.nfn : 1, sizeof(*fnp));
	Mapping **mpp = calloc(p.nmap ? p.nmap : 1, sizeof(*mpp));
	uint8_t *buf = NULL;
	if (sp && lp && locp && linep && fnp && mpp) {
		for (uint32_t i = 0; i < ns; i++) {
			sp[i] = &samples[i];
			for (int k = 0; k < L_N; k++)
				lp[(size_t)i * L_N + k] = &labels[(size_t)i * L_N + k];
			samples[i].label = &lp[(size_t)i * L_N];
		}
		for (uint32_t i = 0; i < p.nloc; i++) {
			linep[i] = &p.line[i];
			locp[i] = &p.loc[i];
			locp[i]->n_line = 1;
			locp[i]->line = &linep[i];
		}
		for (uint32_t i = 0; i < p.nfn; i++)
			fnp[i] = &p.fn[i];
		for (uint32_t i = 0; i < p.nmap; i++)
			mpp[i] = &p.map[i];
		prof.n_sample_type = V_N;
		prof.sample_type = vtp;
		prof.n_sample = ns;
		prof.sample = sp;
		prof.n_location = p.nloc;
		prof.location = locp;
		prof.n_function = p.nfn;
		prof.function = fnp;
		prof.n_mapping = p.nmap;
		prof.mapping = mpp;
		prof.n_string_table = p.nstr;
		prof.string_table = p.str;
		prof.time_nanos = m->first_ts > 0 && m->last_ts >= m->first_ts ? m->first_ts : 0;
		prof.duration_nanos = m->last_ts > m->first_ts ? m->last_ts - m->first_ts : 0;
		prof.period_type = &period;
		prof.period = 1;
		prof.n_comment = nt.n;
		prof.comment = comments;
		prof.default_sample_type = vt[V_DELAY].type;
		size_t len = perftools__profiles__profile__get_packed_size(&prof);
		if ((buf = malloc(len ? len : 1))) {
			perftools__profiles__profile__pack(&prof, buf);
			rc = gzip_to(out, buf, len);
		}
	}
	free(buf);
	free(sp);
	free(lp);
	free(locp);
	free(linep);
	free(fnp);
	free(mpp);
out:
	free(samples);
	free(labels);
	free(values);
	free(locids);
	for (uint32_t i = 0; i < p.nstr; i++)
		free(p.str[i]);
	free(p.str);
	free(p.fn);
	free(p.loc);
	free(p.line);
	free(p.map);
	sa_map_free(&p.str_map);
	sa_map_free(&p.fn_map);
	sa_map_free(&p.loc_map);
	sa_map_free(&p.map_map);
	return rc;
}
