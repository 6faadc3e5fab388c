/* libFuzzer target over the analyzer's trace input: each input becomes a
 * CTF trace on disk (the fixed metadata plus up to four stream files, see
 * fuzz_trace.h) read by the graph synctrace-report runs (bt2/graph.c:
 * src.ctf.fs → flt.utils.muxer → the report sink) with the debug checks and
 * the HTML timeline attached, then rendered in every format. Built with
 * clang, -fsanitize=fuzzer,address,undefined (target trace-fuzz);
 * libbabeltrace2 itself is not instrumented.
 * Environment: SA_FUZZ_METADATA (another metadata file), SA_FUZZ_DIR
 * (where the trace is written; default /dev/shm), SA_FUZZ_KEEP (keep it),
 * SA_FUZZ_WRITE_ONLY (only write it), SA_FUZZ_VERBOSE (each input's exit
 * code and events on stderr), SA_FUZZ_STRICT_LEAKS, SA_FUZZ_ALL_LEAKS (see
 * __lsan_default_suppressions).
 * Beyond crashes it asserts synctrace-report's contract: an exit code of
 * 0-3, never 0 with a partial report. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_trace.h"
#include "sa_checks.h"
#include "sa_graph.h"
#include "sa_timeline.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);
int __sanitizer_install_malloc_and_free_hooks(void (*m)(const volatile void *, size_t),
					      void (*f)(const volatile void *));
size_t __sanitizer_get_allocated_size(const volatile void *p);

/* Live heap bytes. babeltrace2 allocates a field per element of a
 * sequence whose length it read from the stream, before finding the
 * stream too short: garbage lengths make it run away. Past SA_FZ_LIVE_MAX
 * the input is aborted at once, a crash with the allocation's stack (which
 * run-fuzz.sh sets aside when babeltrace2 alone dies on the trace too),
 * instead of growing to -rss_limit_mb, whose memory profile (a
 * stop-the-world ptrace) was seen to hang here. */
#define SA_FZ_LIVE_MAX ((size_t)384 << 20)
static size_t live;
/* Live bytes when the current input began: what earlier inputs of the
 * same process left (GLib's and babeltrace2's caches and suppressed
 * leaks) is not this input's runaway, so the limit is over the baseline. */
static size_t live_base;

static void on_malloc(const volatile void *p, size_t n)
{
	(void)p;
	live += n;
	if (live > live_base + SA_FZ_LIVE_MAX) {
		live = 0;
		fprintf(stderr, "fuzz_trace: more than %zu MiB live: a runaway allocation\n",
			SA_FZ_LIVE_MAX >> 20);
		abort();
	}
}

static void on_free(const volatile void *p)
{
	size_t n = p ? __sanitizer_get_allocated_size(p) : 0;
	live = n < live ? live - n : 0;
}

static char dir[512];
static char *meta0, *meta; /* the fixed metadata, the input's copy */
static size_t meta_len;
static int meta_dirty;     /* the file on disk is an edited copy */
static uint8_t uuid[16];
static struct sa_graph_classes cls;
static FILE *devnull;
static int verbose; /* SA_FUZZ_VERBOSE: each input's outcome on stderr */
static int write_only; /* SA_FUZZ_WRITE_ONLY (with SA_FUZZ_KEEP): the trace, not read */

static uint64_t rd(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void wr(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void die(const char *what)
{
	fprintf(stderr, "fuzz_trace: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void put_file(const char *name, const void *p, size_t n)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f))
		die(path);
}

/* The uuid of the trace block: packets must carry it. */
static int parse_uuid(const char *text)
{
	const char *t = strstr(text, "trace {");
	t = t ? strstr(t, "uuid = \"") : NULL;
	if (!t)
		return -1;
	t += 8;
	for (unsigned i = 0; i < 32; t++) {
		unsigned d;
		if (*t == '-')
			continue;
		if (sscanf(t, "%1x", &d) != 1)
			return -1;
		uuid[i / 2] = (uint8_t)(uuid[i / 2] << 4 | d);
		i++;
	}
	return 0;
}

static void cleanup(void)
{
	char path[600];
	for (unsigned f = 0; f < SA_FZ_NFILES; f++) {
		snprintf(path, sizeof(path), "%s/" SA_FZ_STREAM "_%u", dir, f);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/metadata", dir);
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *mp = getenv("SA_FUZZ_METADATA");
	if (!mp)
		mp = SA_FUZZ_DATA "/metadata";
	FILE *f = fopen(mp, "rb");
	if (!f)
		die(mp);
	fseek(f, 0, SEEK_END);
	meta_len = (size_t)ftell(f);
	rewind(f);
	meta0 = malloc(meta_len + 1);
	meta = malloc(meta_len + 1);
	if (!meta0 || !meta || fread(meta0, 1, meta_len, f) != meta_len)
		die(mp);
	fclose(f);
	meta0[meta_len] = 0;
	if (parse_uuid(meta0)) {
		fprintf(stderr, "fuzz_trace: %s: no trace uuid\n", mp);
		exit(1);
	}
	const char *base = getenv("SA_FUZZ_DIR");
	if (!base)
		base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(dir, sizeof(dir), "%s/sa-fuzz-trace.XXXXXX", base);
	if (!mkdtemp(dir))
		die(dir);
	if (getenv("SA_FUZZ_KEEP"))
		fprintf(stderr, "fuzz_trace: the last input's trace stays in %s\n", dir);
	else
		atexit(cleanup);
	verbose = getenv("SA_FUZZ_VERBOSE") != NULL;
	write_only = getenv("SA_FUZZ_WRITE_ONLY") != NULL;
	put_file("metadata", meta0, meta_len);
	if (sa_graph_classes_get(&cls, 0))
		exit(1);
	if (!(devnull = fopen("/dev/null", "w")))
		die("/dev/null");
	__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
	return 0;
}

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static void append(struct buf *b, const void *p, size_t n)
{
	if (!n)
		return;
	if (b->n + n > b->cap) {
		size_t c = (b->n + n) * 2;
		uint8_t *q = realloc(b->p, c);
		if (!q)
			die("realloc");
		b->p = q;
		b->cap = c;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

/* A packet of the events in body[SA_FZ_BODY..len) with a sane header. */
static void add_packet(struct buf *b, unsigned ctl, const uint8_t *body, size_t len,
		       uint64_t *seq, uint64_t *disc)
{
	static const uint8_t zeros[64 + 8];
	uint8_t h[SA_FZ_HEADER];
	unsigned f = SA_FZ_FILE(ctl);
	size_t ev = len - SA_FZ_BODY, content = SA_FZ_HEADER + ev;
	size_t pad = (8 - content % 8) % 8 + (ctl & SA_FZ_PAD ? 64 : 0);
	memset(h, 0, sizeof(h));
	wr(h + SA_FZ_OFF_MAGIC, SA_FZ_MAGIC, 4);
	memcpy(h + SA_FZ_OFF_UUID, uuid, 16);
	wr(h + SA_FZ_OFF_SID, ctl & SA_FZ_BADSID ? 1 : 0, 4);
	wr(h + SA_FZ_OFF_SIID, f, 8);
	wr(h + SA_FZ_OFF_TSB, rd(body, 8), 8);
	wr(h + SA_FZ_OFF_TSE, rd(body + 8, 8), 8);
	wr(h + SA_FZ_OFF_CONTENT, content * 8, 8);
	wr(h + SA_FZ_OFF_PACKET, (content + pad) * 8, 8);
	seq[f] += (ctl & SA_FZ_SEQGAP) != 0;
	wr(h + SA_FZ_OFF_SEQ, seq[f]++, 8);
	disc[f] += body[16];
	wr(h + SA_FZ_OFF_DISC, disc[f], 8);
	wr(h + SA_FZ_OFF_CPU, f, 4);
	append(b, h, sizeof(h));
	append(b, body + SA_FZ_BODY, ev);
	append(b, zeros, pad);
}

/* Write the input out as the trace in dir. */
static void write_trace(const uint8_t *data, size_t size)
{
	struct buf files[SA_FZ_NFILES];
	uint64_t seq[SA_FZ_NFILES] = { 0 }, disc[SA_FZ_NFILES] = { 0 };
	int edited = 0;
	memset(files, 0, sizeof(files));
	while (size >= 3) {
		unsigned ctl = data[0];
		size_t len = (size_t)rd(data + 1, 2);
		data += 3;
		size -= 3;
		if (len > size)
			len = size;
		if (ctl == SA_FZ_META) {
			if (len >= 2) {
				if (!edited)
					memcpy(meta, meta0, meta_len);
				edited = 1;
				size_t off = (size_t)rd(data, 2) % meta_len, n = len - 2;
				if (n > meta_len - off)
					n = meta_len - off;
				memcpy(meta + off, data + 2, n);
			}
		} else if (ctl & SA_FZ_RAW) {
			append(&files[SA_FZ_FILE(ctl)], data, len);
		} else if (len >= SA_FZ_BODY) {
			add_packet(&files[SA_FZ_FILE(ctl)], ctl, data, len, seq, disc);
		}
		data += len;
		size -= len;
	}
	for (unsigned f = 0; f < SA_FZ_NFILES; f++) {
		char name[32];
		snprintf(name, sizeof(name), SA_FZ_STREAM "_%u", f);
		if (files[f].n) {
			put_file(name, files[f].p, files[f].n);
		} else {
			char path[600];
			snprintf(path, sizeof(path), "%s/%s", dir, name);
			unlink(path);
		}
		free(files[f].p);
	}
	if (edited || meta_dirty)
		put_file("metadata", edited ? meta : meta0, meta_len);
	meta_dirty = edited;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sa_sink_state st;
	char *dirs[1] = { dir };
	live_base = live;
	write_trace(data, size);
	if (write_only)
		return 0;
	memset(&st, 0, sizeof(st));
	st.out = devnull;
	if (!(st.model = sa_model_new()) || !(st.opts.checks = sa_checks_attach(st.model)) ||
	    !(st.opts.timeline = sa_timeline_attach(st.model, 0, 0, -1)))
		die("out of memory");
	int rc = sa_graph_read(&cls, &st, dirs, 1, 1);
	if (rc < 0 || rc > 3 || (rc == 0 && st.opts.partial)) {
		fprintf(stderr, "fuzz_trace: exit code %d, partial %d\n", rc, st.opts.partial);
		abort();
	}
	if (verbose)
		fprintf(stderr, "fuzz_trace: exit code %d, %llu synctrace events, partial %d\n", rc,
			(unsigned long long)st.synctrace_events, st.opts.partial);
	if (rc < 2 && (st.synctrace_events || st.opts.partial)) {
		for (int f = SA_FMT_TEXT; f <= SA_FMT_HTML; f++) {
			st.opts.format = (enum sa_format)f;
			st.opts.sort = (enum sa_sort)(f % 4);
			st.opts.top = (unsigned)f % 3;
			sa_report_render(st.model, &st.opts, devnull);
		}
	}
	sa_sink_state_clear(&st);
	sa_checks_free(st.opts.checks);
	sa_timeline_free(st.opts.timeline);
	sa_model_free(st.model);
	return 0;
}

/* A smaller quarantine than ASan's 256 MiB: babeltrace2 allocates and
 * frees a lot per trace, and a smaller process runs into -rss_limit_mb
 * sooner when babeltrace2 runs away (see run-fuzz.sh). */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "quarantine_size_mb=32";
}

/* Leaks that are babeltrace2's own: its CTF plugin's (the metadata parser
 * leaks on some syntax errors; an error the decoder saved for its next
 * call is never freed when the consumer stops first, e.g. on a refused
 * newer format). ASan's fast unwinder stops in GLib (no frame pointers),
 * so while fuzzing, leaks allocated through GLib (babeltrace2's objects)
 * are not attributed and not reported; our own allocations are. The
 * replay (run-fuzz.sh replay: SA_FUZZ_STRICT_LEAKS, full unwinding)
 * reports those too, unless the CTF plugin allocated them. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	if (getenv("SA_FUZZ_ALL_LEAKS"))
		return "";
	if (getenv("SA_FUZZ_STRICT_LEAKS"))
		return "leak:babeltrace-plugin-ctf.so\n";
	return "leak:babeltrace-plugin-ctf.so\nleak:libglib-2.0.so\n";
}

/* ---- the mutator: mostly inside one chunk, so packets stay framed ------- */

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Offsets of the chunks (each: ctl, len, body); their number. */
static unsigned chunks(const uint8_t *d, size_t size, size_t *off, unsigned max)
{
	unsigned n = 0;
	size_t o = 0;
	while (o + 3 <= size && n < max) {
		size_t len = (size_t)rd(d + o + 1, 2);
		off[n++] = o;
		o += 3 + (len < size - o - 3 ? len : size - o - 3);
	}
	return n;
}

static size_t chunk_end(const uint8_t *d, size_t size, size_t o)
{
	size_t len = (size_t)rd(d + o + 1, 2);
	return o + 3 + (len < size - o - 3 ? len : size - o - 3);
}

/* TSDL fragments for the rare metadata edits. */
static const char *const tsdl[] = {
	"size = 64;", "size = 1;", "align = 1;", "align = 64;", "signed = 1;", "signed = 0;",
	"}", "{", ";", "[", "]", "variant", "struct", "enum", "0", "65535", "4294967296",
	"encoding = UTF8;", "base = 16;", "byte_order = be;", "id = 1;", "stream_id = 1;",
	"map = clock.monotonic.value;", "freq = 0;", "offset = -1;", "_procname[0]",
};

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned seed)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
	size_t off[512];
	unsigned n = chunks(data, size, off, 512);
	unsigned op = (unsigned)(rng_next(&s) % 32);
	if (!n || op < 4)
		return LLVMFuzzerMutate(data, size, max);
	unsigned k = (unsigned)(rng_next(&s) % n);
	size_t o = off[k], end = chunk_end(data, size, o);
	if (op < 24) { /* the body of chunk k: mostly its events */
		size_t b = o + 3;
		if (data[o] != SA_FZ_META && !(data[o] & SA_FZ_RAW) && end - b > SA_FZ_BODY &&
		    rng_next(&s) % 4)
			b += SA_FZ_BODY;
		size_t tail = size - end, room = max - (size - (end - b));
		if (room > 0xffff - (b - o - 3))
			room = 0xffff - (b - o - 3);
		if (room < end - b)
			return LLVMFuzzerMutate(data, size, max);
		uint8_t *t = malloc(tail + 1);
		if (!t)
			return size;
		memcpy(t, data + end, tail);
		size_t nb = LLVMFuzzerMutate(data + b, end - b, room);
		memcpy(data + b + nb, t, tail);
		free(t);
		wr(data + o + 1, b + nb - o - 3, 2);
		return b + nb + tail;
	}
	switch (op) {
	case 24: /* duplicate chunk k */
		if (size + (end - o) <= max) {
			memmove(data + end + (end - o), data + end, size - end);
			memmove(data + end, data + o, end - o);
			return size + (end - o);
		}
		return size;
	case 25: /* drop chunk k */
		memmove(data + o, data + end, size - end);
		return size - (end - o);
	case 26: { /* move chunk k to the front of another */
		size_t j = off[rng_next(&s) % n], len = end - o;
		uint8_t *t = malloc(len);
		if (!t || j == o) {
			free(t);
			return size;
		}
		memcpy(t, data + o, len);
		memmove(data + o, data + end, size - end); /* out */
		if (j > o)
			j -= len;
		memmove(data + j + len, data + j, size - len - j); /* in */
		memcpy(data + j, t, len);
		free(t);
		return size;
	}
	case 27: /* another file, padding, stream id, sequence gap */
	case 28:
		if (data[o] != SA_FZ_META)
			data[o] ^= (uint8_t)(2u << rng_next(&s) % 5);
		return size;
	case 29: { /* a metadata edit, rarely */
		const char *t = tsdl[rng_next(&s) % (sizeof(tsdl) / sizeof(tsdl[0]))];
		size_t len = strlen(t) + 2;
		if (rng_next(&s) % 4 || size + 3 + len > max)
			return LLVMFuzzerMutate(data, size, max);
		memmove(data + o + 3 + len, data + o, size - o);
		data[o] = SA_FZ_META;
		wr(data + o + 1, len, 2);
		wr(data + o + 3, rng_next(&s) % meta_len, 2);
		memcpy(data + o + 5, t, len - 2);
		return size + 3 + len;
	}
	default:
		return LLVMFuzzerMutate(data, size, max);
	}
}
