/* Synthetic summaries for the merge benchmark (run.sh): summary SEED of
 * NCLASSES lock classes, drawn in key order from a pool of 2 x NCLASSES
 * (so merges both add classes and insert new ones), each with one to
 * three kinds of wait and a hold, MIN to 5 x MIN histogram buckets each
 * (default 8: 8 to 40), written as "synctrace-summary" 1.0
 * (doc/summaries.md). Deterministic.
 * usage: gen NCLASSES SEED [MIN] > FILE */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "st_hist.h"

static uint64_t rng;
static unsigned min_bins = 8;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void dur(void)
{
	unsigned nb = min_bins + (unsigned)(next() % (4 * min_bins + 1)), at = 40 + (unsigned)(next() % 120);
	uint64_t n = 0, total = 0, first = 0, last = 0;
	char hist[ST_HIST_BUCKETS * 32];
	int len = 0;
	for (unsigned b = 0; b < nb && at < ST_HIST_BUCKETS; b++, at += 1 + (unsigned)(next() % 4)) {
		uint64_t c = 1 + next() % 1000;
		if (!b)
			first = at;
		last = at;
		n += c;
		total += c * st_hist_lower(at);
		len += snprintf(hist + len, sizeof(hist) - (size_t)len, "%s[%u, %" PRIu64 "]",
				b ? ", " : "", at, c);
	}
	printf("\"n\": %" PRIu64 ", \"total_ns\": %" PRIu64 ", \"min_ns\": %" PRIu64
	       ", \"max_ns\": %" PRIu64 ", \"hist\": [%s]", n, total, st_hist_lower((unsigned)first),
	       st_hist_upper((unsigned)last), hist);
}

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: gen NCLASSES SEED [MIN]\n");
		return 2;
	}
	if (argc == 4 && (min_bins = (unsigned)atoi(argv[3])) < 1)
		min_bins = 1;
	unsigned want = (unsigned)atoi(argv[1]), pool = 2 * want;
	rng = 0x9e3779b97f4a7c15ull * ((uint64_t)atoi(argv[2]) + 1);
	static const char *const kinds[] = { "mutex", "cond-relock", "cond", "sem", "rwlock-read" };
	printf("{\"schema\": \"synctrace-summary\", \"version\": \"1.0\",\n"
	       " \"histogram\": {\"buckets\": %d, \"log2\": %d, \"sub\": %d},\n"
	       " \"trace\": {\"hosts\": [\"host%s\"], \"levels\": [\"full\"], \"traces\": 1, "
	       "\"processes\": 1, \"threads\": 16, \"objects\": %u, \"events\": 1000000, "
	       "\"malformed\": 0, \"discarded\": 0, \"discarded_unknown\": false, \"partial\": false, "
	       "\"first_ns\": %" PRIu64 ", \"last_ns\": %" PRIu64 "},\n \"classes\": [",
	       ST_HIST_BUCKETS, ST_HIST_LOG2, ST_HIST_SUB, argv[2], want,
	       (uint64_t)1000000000 * (uint64_t)atoi(argv[2]),
	       (uint64_t)1000000000 * (uint64_t)atoi(argv[2]) + 999999999);
	/* Selection sampling: want of pool ids, in order. */
	for (unsigned id = 0, taken = 0; id < pool && taken < want; id++) {
		if (next() % (pool - id) >= want - taken)
			continue;
		printf("%s\n  {\"class\": \"mutex:app+0x%06x\", \"type\": \"mutex\", \"name\": "
		       "\"lock_%u\", \"site\": \"\", \"objects\": 1, \"waits\": {", taken ? "," : "",
		       0x4000 + id * 64, id);
		unsigned nk = 1 + (unsigned)(next() % 3), k0 = (unsigned)(next() % 3);
		for (unsigned k = 0; k < nk; k++) {
			printf("%s\"%s\": {\"waits\": 0, \"contended\": 0, \"timeouts\": 0, ", k ? ", " : "",
			       kinds[k0 + k]);
			dur();
			putchar('}');
		}
		printf("}, \"hold\": {");
		dur();
		printf("}, \"wakes\": {\"futex_wakes\": %" PRIu64 ", \"wasted\": 3, \"futile\": 1}, "
		       "\"spin\": {\"loops\": 0, \"acquired\": 0, \"gave_up\": 0, \"saw_waiters\": 0, "
		       "\"spin_ns\": 0}}", next() % 10000);
		taken++;
	}
	printf("]}\n");
	return 0;
}
