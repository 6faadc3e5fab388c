/* Summaries that merge exactly (doc/summaries.md): per lock class (the
 * class key of analysis/symbols, the same in every run and on every host
 * of one binary) and kind of wait (sa_waits.h), counts, sums, minima,
 * maxima and the fixed log-linear histograms of tracepoints/st_hist.h,
 * plus the trace's metadata. Every field merges by a sum, a min, a max or
 * a set union, so merging summaries of traces gives exactly the summary
 * of all the traces at once; percentiles are always computed from the
 * histograms, never from samples.
 *
 * summary_fmt.c builds one from a model, writes it and merges two (no
 * JSON parser needed); summary_read.cc reads one (simdjson);
 * summary_rank.c ranks its waits; diff.c compares two. */
#ifndef SA_SUMMARY_H
#define SA_SUMMARY_H

#include <stdint.h>
#include <stdio.h>

#include "sa_waits.h"
#include "st_hist.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SA_SUM_SCHEMA "synctrace-summary"
#define SA_SUM_MAJOR 1
#define SA_SUM_MINOR 0

/* A sparse histogram over st_hist's buckets: (index, count) pairs with
 * count > 0, indices strictly increasing. */
struct sa_sbin { uint32_t i; uint64_t c; };
struct sa_shist {
	struct sa_sbin *b;
	uint32_t n, cap;         /* cap: room in b (0: b is exactly n long, or NULL) */
};

/* Durations of one kind (waits of a kind, holds): n = the histogram's
 * total; min_ns/max_ns meaningful when n > 0. */
struct sa_sdur {
	uint64_t n, total_ns, min_ns, max_ns;
	struct sa_shist h;
};

struct sa_skind {
	uint64_t waits, contended, timeouts;
	struct sa_sdur d;        /* the waits' durations (wait_ns) */
};

struct sa_sclass {
	char *key;               /* the class key, unique in a summary: "mutex:app+0x4040" */
	char *type;              /* "mutex", "cond", ... */
	char *name;              /* the smallest name of its objects: "queue_lock" */
	char *site;              /* the smallest init/first-use site, "" when none */
	uint64_t objects;        /* objects in it (a folded class counts its instances) */
	unsigned kinds;          /* bit k: k[k] has something */
	struct sa_skind k[SA_WAIT_NKINDS];
	struct sa_sdur hold;     /* mutexes and rwlocks at the full level */
	uint64_t futex_wakes, wasted_wakes, futile_wakes; /* woke nobody; woken, then blocked again */
	uint64_t spin_loops, spin_acquired, spin_gave_up, spin_saw_waiters, spin_ns;
};

struct sa_summary {
	char **hosts;            /* sorted, unique */
	uint32_t nhosts;
	char **levels;           /* the processes' levels, sorted, unique ("contention", "full") */
	uint32_t nlevels;
	uint64_t traces, processes, threads, objects, events, malformed;
	uint64_t discarded;      /* events the tracer discarded (a lower bound if discarded_unknown) */
	int discarded_unknown, partial;
	int have_span;           /* first_ts, last_ts valid */
	int64_t first_ts, last_ts;
	struct sa_sclass *c;     /* sorted by key */
	uint32_t n;
};

struct sa_model;
struct sa_report_opts;

/* The summary of model m (partial: from the options). 0, or -1 on out of memory. */
int sa_summary_of_model(const struct sa_model *m, int partial, struct sa_summary *s);
/* Write s as a "synctrace-summary" JSON document (one class per line).
 * The same summary always gives the same bytes. */
void sa_summary_write(const struct sa_summary *s, FILE *out);
/* Add src to dst, taking src's classes that dst lacks; src is freed
 * either way. 0, or -1 on out of memory (dst then undefined: free it). */
int sa_summary_merge(struct sa_summary *dst, struct sa_summary *src);
void sa_summary_free(struct sa_summary *s);

/* The nearest-rank percentile q (in permille: 500, 990) of d, from its
 * histogram: the bucket's upper bound, clamped to [min, max]; 0 when empty. */
uint64_t sa_sdur_pct(const struct sa_sdur *d, unsigned permille);
/* dst += src (histograms added bucket by bucket). 0 or -1. */
int sa_sdur_add(struct sa_sdur *dst, const struct sa_sdur *src);

/* Reading (summary_read.cc, simdjson). 0; else -1 with a message naming path
 * in err (the file is not JSON, not a summary, of a newer major, or its
 * fields are not what the schema says). */
int sa_summary_read(const char *path, struct sa_summary *s, char *err, size_t errlen);
/* The where-threads-wait ranking of a summary as a report: text (a head
 * line and the table), csv or json (format: enum sa_format). */
void sa_summary_report(const struct sa_summary *s, const struct sa_report_opts *o, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
