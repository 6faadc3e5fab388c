/* A distribution of non-negative values (ns, iterations) in bounded memory.
 * Up to SA_DIST_EXACT samples are kept, so small distributions give exact
 * percentiles; beyond that the samples move into a log-linear histogram
 * (8 sub-buckets per power of two: percentiles within 12.5 %, reported as
 * the sub-bucket's upper bound, clamped to [min, max]). The log2 histogram
 * (bucket k holds [2^(k-1), 2^k), bucket 0 holds 0) is always exact.
 * An empty distribution owns no memory (its arrays come with the first
 * value, the samples' array grows by doubling), so a struct sa_dist costs
 * 56 bytes until used. */
#ifndef SA_DIST_H
#define SA_DIST_H

#include <stdint.h>

#include "st_hist.h"

#define SA_DIST_EXACT 256
#define SA_DIST_LOG2 ST_HIST_LOG2 /* boundaries: tracepoints/st_hist.h */
#define SA_DIST_SUB ST_HIST_SUB

struct sa_dist {
	uint64_t n, sum, min, max;
	uint64_t *log2;  /* SA_DIST_LOG2 counts; NULL while empty */
	uint64_t *exact; /* n <= SA_DIST_EXACT: the samples */
	uint64_t *fine;  /* after: SA_DIST_LOG2 * SA_DIST_SUB counts */
};

void sa_dist_add(struct sa_dist *d, uint64_t v);
/* p in [0, 1]: nearest-rank percentile (0 when empty). */
uint64_t sa_dist_pct(const struct sa_dist *d, double p);
/* Highest non-empty log2 bucket + 1 (0 when empty). */
int sa_dist_nbuckets(const struct sa_dist *d);
void sa_dist_free(struct sa_dist *d);
/* Add src's values to dst (folding objects into their class). 0, or -1
 * when out of memory (dst unchanged). */
int sa_dist_merge(struct sa_dist *dst, const struct sa_dist *src);

static inline int sa_log2_bucket(uint64_t v)
{
	return st_hist_log2(v);
}

#endif
