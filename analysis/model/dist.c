#include <stdlib.h>
#include <string.h>

#include "sa_dist.h"
#include "st_hist.h"

static unsigned fine_index(uint64_t v)
{
	return st_hist_index(v);
}

static uint64_t fine_upper(unsigned i)
{
	return st_hist_upper(i);
}

void sa_dist_add(struct sa_dist *d, uint64_t v)
{
	if (!d->log2 && !(d->log2 = calloc(SA_DIST_LOG2, sizeof(uint64_t))))
		return; /* out of memory: the value is not counted */
	if (!d->n || v < d->min)
		d->min = v;
	if (v > d->max)
		d->max = v;
	d->n++;
	d->sum += v;
	d->log2[sa_log2_bucket(v)]++;
	if (d->fine) {
		d->fine[fine_index(v)]++;
		return;
	}
	/* The samples' array grows by doubling, from 4 to SA_DIST_EXACT. */
	uint64_t at = d->n - 1;
	if (at < SA_DIST_EXACT && (at == 0 || (at >= 4 && !(at & (at - 1))))) {
		uint64_t *p = realloc(d->exact, (at ? at * 2 : 4) * sizeof(uint64_t));
		if (!p) {
			d->n--; /* out of memory: keep the summary consistent */
			d->sum -= v;
			d->log2[sa_log2_bucket(v)]--;
			return;
		}
		d->exact = p;
	}
	if (d->n <= SA_DIST_EXACT) {
		d->exact[d->n - 1] = v;
		return;
	}
	d->fine = calloc(SA_DIST_LOG2 * SA_DIST_SUB, sizeof(uint64_t));
	if (!d->fine) {
		d->n--;
		d->sum -= v;
		d->log2[sa_log2_bucket(v)]--;
		return;
	}
	for (unsigned i = 0; i < SA_DIST_EXACT; i++)
		d->fine[fine_index(d->exact[i])]++;
	d->fine[fine_index(v)]++;
	free(d->exact);
	d->exact = NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

uint64_t sa_dist_pct(const struct sa_dist *d, double p)
{
	if (!d->n)
		return 0;
	if (p < 0)
		p = 0;
	if (p > 1)
		p = 1;
	uint64_t rank = (uint64_t)(p * (double)d->n + 0.999999999);
	if (rank < 1)
		rank = 1;
	if (rank > d->n)
		rank = d->n;
	if (d->exact && !d->fine) {
		uint64_t tmp[SA_DIST_EXACT];
		memcpy(tmp, d->exact, d->n * sizeof(uint64_t));
		qsort(tmp, d->n, sizeof(uint64_t), cmp_u64);
		return tmp[rank - 1];
	}
	if (!d->fine)
		return d->max;
	uint64_t seen = 0;
	for (unsigned i = 0; i < SA_DIST_LOG2 * SA_DIST_SUB; i++) {
		seen += d->fine[i];
		if (seen >= rank) {
			uint64_t u = fine_upper(i);
			return u < d->min ? d->min : u > d->max ? d->max : u;
		}
	}
	return d->max;
}

int sa_dist_nbuckets(const struct sa_dist *d)
{
	for (int i = SA_DIST_LOG2 - 1; d->log2 && i >= 0; i--)
		if (d->log2[i])
			return i + 1;
	return 0;
}

void sa_dist_free(struct sa_dist *d)
{
	free(d->log2);
	free(d->exact);
	free(d->fine);
	d->log2 = NULL;
	d->exact = NULL;
	d->fine = NULL;
}

int sa_dist_merge(struct sa_dist *dst, const struct sa_dist *src)
{
	if (!src->n)
		return 0;
	if (!src->fine && dst->n + src->n <= SA_DIST_EXACT && !dst->fine) {
		for (uint64_t i = 0; i < src->n; i++)
			sa_dist_add(dst, src->exact[i]);
		return 0;
	}
	/* The result is past exact: both as fine histograms. */
	uint64_t *fine = dst->fine ? dst->fine : calloc(SA_DIST_LOG2 * SA_DIST_SUB, sizeof(uint64_t));
	if (!fine || (!dst->log2 && !(dst->log2 = calloc(SA_DIST_LOG2, sizeof(uint64_t))))) {
		if (fine != dst->fine)
			free(fine);
		return -1;
	}
	if (!dst->fine) {
		for (uint64_t i = 0; dst->exact && i < dst->n; i++)
			fine[fine_index(dst->exact[i])]++;
		free(dst->exact);
		dst->exact = NULL;
		dst->fine = fine;
	}
	if (src->fine)
		for (unsigned i = 0; i < SA_DIST_LOG2 * SA_DIST_SUB; i++)
			fine[i] += src->fine[i];
	else
		for (uint64_t i = 0; i < src->n; i++)
			fine[fine_index(src->exact[i])]++;
	for (unsigned i = 0; i < SA_DIST_LOG2; i++)
		dst->log2[i] += src->log2[i];
	if (!dst->n || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	dst->sum += src->sum;
	return 0;
}
