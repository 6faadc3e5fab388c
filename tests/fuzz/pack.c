/* fuzz-pack OUTDIR STREAM_FILE...: a recorded trace's stream files (LTTng
 * per-UID, recorded with the checked-in metadata) as inputs of the trace
 * fuzzer (fuzz_trace.h): OUTDIR/all holds every packet of every file;
 * OUTDIR/<file>.<k> the k-th packet alone. The i-th file given becomes
 * stream file i % 4. Absolute paths in the events (the statedump's module
 * files) lose their leading '/' ("/usr/" becomes "!usr/"): the analyzer then
 * does not open this machine's libraries and their debug info on every
 * execution (most of the time of an execution otherwise; those files are
 * not the fuzzer's input). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_trace.h"

static uint64_t rd(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void scrub_paths(uint8_t *p, size_t n)
{
	static const char *const dirs[] = { "/usr/", "/lib", "/work/", "/tmp/", "/home/", "/opt/" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t k = strlen(dirs[i]);
		for (uint8_t *q = p; (q = memmem(q, n - (size_t)(q - p), dirs[i], k)); q += k)
			*q = '!';
	}
}

/* One chunk: ctl, len, ts_begin, ts_end, discarded (delta), events. */
static int put_chunk(FILE *f, unsigned file, const uint8_t *pkt, uint64_t disc_delta)
{
	size_t content = (size_t)(rd(pkt + SA_FZ_OFF_CONTENT, 8) / 8);
	size_t ev = content - SA_FZ_HEADER, len = SA_FZ_BODY + ev;
	uint8_t h[3 + SA_FZ_BODY];
	if (len > 0xffff)
		return -1;
	h[0] = (uint8_t)(file << 1);
	h[1] = (uint8_t)len;
	h[2] = (uint8_t)(len >> 8);
	memcpy(h + 3, pkt + SA_FZ_OFF_TSB, 16);
	h[3 + 16] = disc_delta > 255 ? 255 : (uint8_t)disc_delta;
	return fwrite(h, 1, sizeof(h), f) == sizeof(h) &&
			       fwrite(pkt + SA_FZ_HEADER, 1, ev, f) == ev ? 0 : -1;
}

int main(int argc, char **argv)
{
	char path[4096];
	if (argc < 3) {
		fprintf(stderr, "usage: fuzz-pack OUTDIR STREAM_FILE...\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/all", argv[1]);
	FILE *all = fopen(path, "wb");
	if (!all) {
		perror(path);
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		FILE *in = fopen(argv[i], "rb");
		static uint8_t buf[1 << 24];
		size_t n = in ? fread(buf, 1, sizeof(buf), in) : 0;
		if (!in || ferror(in)) {
			perror(argv[i]);
			return 1;
		}
		fclose(in);
		scrub_paths(buf, n);
		const char *base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
		uint64_t disc = 0;
		unsigned k = 0;
		for (size_t o = 0; o + SA_FZ_HEADER <= n; k++) {
			const uint8_t *p = buf + o;
			size_t psize = (size_t)(rd(p + SA_FZ_OFF_PACKET, 8) / 8);
			size_t csize = (size_t)(rd(p + SA_FZ_OFF_CONTENT, 8) / 8);
			if (rd(p, 4) != SA_FZ_MAGIC || csize < SA_FZ_HEADER || csize > psize ||
			    psize > n - o) {
				fprintf(stderr, "fuzz-pack: %s: bad packet at %zu\n", argv[i], o);
				return 1;
			}
			uint64_t d = rd(p + SA_FZ_OFF_DISC, 8);
			snprintf(path, sizeof(path), "%s/%s.%u", argv[1], base, k);
			FILE *one = fopen(path, "wb");
			if (!one || put_chunk(one, (unsigned)(i - 2) % SA_FZ_NFILES, p, d) ||
			    fclose(one) || put_chunk(all, (unsigned)(i - 2) % SA_FZ_NFILES, p, d - disc)) {
				perror(path);
				return 1;
			}
			disc = d;
			o += psize;
		}
	}
	return fclose(all) ? 1 : 0;
}
