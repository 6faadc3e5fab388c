/* Batched records back into events, in time order (trace format 3).
 *
 * A synctrace_batch:records event holds records of one thread that
 * happened before it was written (tracepoints/events/batch.def): up to
 * about 2 × the tracer's age limit earlier, plus scheduling delays. The
 * decoder hands every event to the merge once a trace has batches; the
 * merge holds them ST_MERGE_NS (tracepoints/st_batch.h) behind the newest
 * event seen and feeds them to `out` by time (ties: in arrival order), each
 * record as the ordinary event it stands for, with its own time. Until
 * `active` is set (by the first batch, or by the decoder for a trace whose
 * metadata declares batches) nothing is held: format 2 traces pass
 * straight through.
 *
 * Memory: the held events are those of the last ST_MERGE_NS of the trace,
 * never more; for a trace recorded with SYNCTRACE_THRESHOLD (its
 * meta:config), the threshold more, at most ST_MERGE_MAX_NS in all: a wait's
 * records are held by the tracer until it is known to be long, up to the
 * threshold. A record older than an event already fed (its thread was not
 * written out in time) is fed late, out of order, and counted. */
#ifndef SA_MERGE_H
#define SA_MERGE_H

#include <stdint.h>

#include "sa_event.h"

#define ST_MERGE_MAX_NS 10000000000LL /* 10 s: a threshold's window at most */

typedef void (*sa_merge_out)(void *ctx, const struct sa_event *e);

struct sa_merge_src;

struct sa_merge {
	sa_merge_out out;
	void *ctx;
	int active;               /* a batch was seen: events are held */
	int64_t newest;           /* ns: the newest time pushed */
	int64_t fed;              /* ns: the last time fed */
	int64_t window;           /* ns: how far behind the newest events are held */
	uint64_t seq;             /* arrival order, for ties */
	struct sa_merge_src **heap;
	unsigned n, cap;
	uint64_t records, late, unknown, bad; /* records fed; late; of no known event; malformed */
	int oom;
};

void sa_merge_init(struct sa_merge *m, sa_merge_out out, void *ctx);
/* An ordinary event: fed now (nothing held yet), or copied and held. */
void sa_merge_event(struct sa_merge *m, const struct sa_event *e);
/* A batch event `b` (its ts, trace, vpid, procname, cycles and freq as
 * decoded) with its tid and words: its records are held and fed in time. */
void sa_merge_batch(struct sa_merge *m, const struct sa_event *b, int32_t tid,
		    const uint64_t *words, unsigned n);
/* The end of the input: feed everything held. */
void sa_merge_drain(struct sa_merge *m);
void sa_merge_free(struct sa_merge *m);

#endif
