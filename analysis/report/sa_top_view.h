/* The snapshots of `synctrace top` (top_view.c): the model as it stands
 * while it is still being fed, shown as the report's findings and its
 * ranked view of waits since the start, plus the same ranking over the
 * last interval only (the difference to the previous snapshot, per lock
 * class and kind of wait). No babeltrace2 types: the live reader
 * (analysis/bt2/top.c) feeds the model and asks for a snapshot. Memory:
 * one entry per (class, kind) that ever waited, so bounded by the classes
 * (the model folds destroyed objects into them). */
#ifndef SA_TOP_VIEW_H
#define SA_TOP_VIEW_H

#include <stdint.h>
#include <stdio.h>

#include "sa_report_util.h"

struct sa_top_prev; /* (class, kind) -> totals at the previous snapshot */

struct sa_top {
	struct sa_report_opts opts; /* top: rows per table (0: 10) */
	struct sa_top_prev *prev;
	uint32_t nprev, capprev;
	uint64_t prev_events;       /* the model's events at the previous snapshot */
	unsigned snapshots;
	char title[96];             /* the interval table's, while it is shown */
};

/* What the reader knows about the stream, said in a snapshot's head. */
struct sa_top_status {
	double elapsed_s;     /* since the view started */
	double interval_s;    /* since the previous snapshot */
	double behind_s;      /* wall clock minus the newest event's time (< 0: unknown) */
	int final;            /* the stream ended (or the view was asked to end) */
	const char *source;   /* what is read ("net://.../host/a/session") */
	const char *note;     /* one more line (falling behind...), or NULL */
};

/* One snapshot to out. 0, or -1 on out of memory (then the snapshot is
 * cut short, said in it). */
int sa_top_snapshot(struct sa_top *t, const struct sa_model *m, const struct sa_top_status *s,
		    FILE *out);
void sa_top_free(struct sa_top *t);

#endif
