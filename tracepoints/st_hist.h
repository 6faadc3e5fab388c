/* The fixed log-linear histogram boundaries shared by everything that
 * writes or reads a histogram: the analyzer's distributions, the summary
 * level's per-thread aggregates and the mergeable JSON summaries. Because
 * the boundaries never depend on the data, two histograms of the same
 * quantity add bucket by bucket, exactly.
 *
 * Bucket b = 64 - clz(v) is the power of two holding v (0 holds 0), split
 * into ST_HIST_SUB linear sub-buckets by the three bits after the leading
 * one. Values below 16 are exact (their sub-bucket is the value's low bits).
 * Bucket index i = b * ST_HIST_SUB + sub, in [0, ST_HIST_BUCKETS). The
 * upper bound of a bucket over-states a value by at most 12.5 %.
 *
 * Changing these numbers changes the trace format (the summary level's
 * events carry bucket indices) and the summary schema: do not. */
#ifndef ST_HIST_H
#define ST_HIST_H

#include <stdint.h>

#define ST_HIST_LOG2 65
#define ST_HIST_SUB 8
#define ST_HIST_BUCKETS (ST_HIST_LOG2 * ST_HIST_SUB)

static inline int st_hist_log2(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

static inline unsigned st_hist_index(uint64_t v)
{
	int b = st_hist_log2(v);
	unsigned sub = b > 4 ? (unsigned)(v >> (b - 4)) & (ST_HIST_SUB - 1)
			     : (unsigned)(v & (ST_HIST_SUB - 1));
	return (unsigned)b * ST_HIST_SUB + sub;
}

/* The largest value mapping to bucket i. */
static inline uint64_t st_hist_upper(unsigned i)
{
	int b = (int)(i / ST_HIST_SUB);
	uint64_t sub = i % ST_HIST_SUB;
	if (b <= 4)
		return b == 0 ? 0 : sub | (b >= 4 ? 8 : 0); /* small values are exact */
	uint64_t base = 1ull << (b - 1), step = base / ST_HIST_SUB;
	return base + (sub + 1) * step - 1;
}

/* The smallest value mapping to bucket i. */
static inline uint64_t st_hist_lower(unsigned i)
{
	int b = (int)(i / ST_HIST_SUB);
	uint64_t sub = i % ST_HIST_SUB;
	if (b <= 4)
		return b == 0 ? 0 : sub | (b >= 4 ? 8 : 0);
	uint64_t base = 1ull << (b - 1), step = base / ST_HIST_SUB;
	return base + sub * step;
}

#endif
