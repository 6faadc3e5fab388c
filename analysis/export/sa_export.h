/* Exports for the viewers people already use: folded stacks (flame
 * graphs: flame-graph scripts, speedscope, inferno), pprof's profile.proto
 * (go tool pprof, Pyroscope, Parca, Perfetto) and the Chrome Trace Event
 * JSON (Perfetto UI, chrome://tracing). Locks are named as the report
 * names them (sa_object_name) and waits by the ledger's kinds (sa_waits.h).
 *
 * The model keeps waits per (thread, object, kind); the exports need them
 * per call stack too, and the timeline needs each wait. An observer
 * (collect.c, attached before the trace is read) keeps:
 *   - rows: per (thread, object, kind, stack) — the stack is the one the
 *     wait's stack:use announced (--stacks recordings), else the call
 *     site of the event that ended it — the waits, contended waits, wait
 *     ns, hold ns (full level), wasted wakes (futex wakes that woke
 *     nobody) and spin iterations. Memory grows with distinct rows, like
 *     the model's pairs, never with the number of events.
 *   - for chrome only, each wait (begin, end, thread, object, kind), each
 *     hold the trace gives (full level) and each futex wake that woke a
 *     waiter, at most SA_X_MAX_WAITS and
 *     SA_X_MAX_WAKES; what is left out is counted and said in the file. */
#ifndef SA_EXPORT_H
#define SA_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "sa_map.h"
#include "sa_report_util.h"

#define SA_X_MAX_WAITS 200000
#define SA_X_MAX_WAKES 200000

/* In the order of enum sa_format's SA_FMT_FOLDED, _PPROF, _CHROME (whose
 * names sa_report_parse_format knows). */
enum sa_xformat { SA_X_FOLDED, SA_X_PPROF, SA_X_CHROME };
/* --sample for folded: what a line's value counts. */
enum sa_xsample { SA_XS_WAIT, SA_XS_CONTENTIONS, SA_XS_HOLD, SA_XS_WASTED, SA_XS_N };

/* A row's kind: a wait kind, or SA_XK_TYPE (wasted wakes, spinning): the
 * object's type names it. */
#define SA_XK_TYPE (-1)
/* A timeline entry's kind that is no wait: a hold (full level). */
#define SA_XK_HOLD (-2)

struct sa_xrow {
	uint32_t thread, obj;   /* model indexes (obj: at collection, see sa_model_row) */
	int kind;               /* enum sa_wait_kind, or SA_XK_TYPE */
	uint32_t stack;         /* analysis/symbols stack index, or UINT32_MAX: site only */
	uint64_t site;          /* the call site (when stack is UINT32_MAX) */
	uint64_t waits, contentions, wait_ns, hold_ns, wasted, spin_iter;
};

struct sa_xwait {
	uint32_t thread, obj;
	int kind;               /* enum sa_wait_kind, or SA_XK_HOLD */
	int64_t b, e;           /* ns */
	int32_t woken_by;       /* index of the wake in sa_export.wakes, or -1 */
};

struct sa_xwake {
	uint32_t thread, obj;   /* the waker, the object */
	int64_t ts;
};

struct sa_export {
	int timeline;           /* chrome: keep each wait */
	int windowed;           /* --window: only what ended in [win_b, win_e) */
	double win_start, win_end; /* seconds from the first event */
	int started;
	int64_t win_b, win_e;   /* ns, set at the first event */
	struct sa_xrow *rows;
	uint32_t nrows, caprows;
	struct sa_map row_map;   /* (thread << 32 | obj, stack or site ^ kind) → rows */
	/* Per thread: the stack:use awaiting its event, the wait in progress. */
	struct sa_xthr {
		uint64_t pend_obj, cur_obj;
		uint32_t pend_stack, cur_stack;
		int pend, cur;
	} *thr;
	uint32_t nthr;
	struct sa_xwait *waits;
	uint32_t nwaits, capwaits;
	struct sa_xwake *wakes;
	uint32_t nwakes, capwakes;
	struct sa_xlast { uint32_t wake, wait; } *last; /* per object (collect.c) */
	uint32_t nlast;
	uint64_t waits_dropped, wakes_dropped;
	int oom;
};

/* "--sample": wait, contentions, hold, wasted_wakes; -1 if unknown. */
int sa_export_parse_sample(const char *s);
/* Observe m (before it is fed) for format f. NULL on out of memory. */
struct sa_export *sa_export_attach(struct sa_model *m, enum sa_xformat f);
void sa_export_free(struct sa_export *x);
/* --window START,END (seconds from the first event): only the waits,
 * holds and wakes that ended in it. Call before feeding. */
void sa_export_window(struct sa_export *x, double start, double end);

/* Write the export. 0, or -1 (out of memory, or a write failed: said on
 * stderr). o->exp is the observer, o->sample folded's value. */
int sa_export_folded(const struct sa_model *m, const struct sa_report_opts *o, FILE *out);
int sa_export_pprof(const struct sa_model *m, const struct sa_report_opts *o, FILE *out);
int sa_export_chrome(const struct sa_model *m, const struct sa_report_opts *o, FILE *out);
/* The lines --format folded writes (sorted, equal ones summed, value 0
 * left out, --top kept), of value sample (enum sa_xsample), each split
 * into its frames root first: process, thread, outermost..innermost call
 * site, "kind lock". fn(ctx, frames, n, value) per line; the strings live
 * until fn returns. For the HTML report's flame graph. 0, or -1 (out of
 * memory). At most SA_X_MAX_FRAMES frames (the rest stays in the last). */
#define SA_X_MAX_FRAMES 512
int sa_export_folded_each(const struct sa_model *m, const struct sa_report_opts *o, int sample,
			  void (*fn)(void *ctx, char *const *frames, unsigned n, uint64_t v),
			  void *ctx);

/* ---- shared by the formats (collect.c) -------------------------------- */

/* The kind's name: sa_wait_kind_name, or the object's type for SA_XK_TYPE. */
const char *sa_xkind_name(const struct sa_model *m, const struct sa_xrow *r);
/* The row's frames, innermost first (its stack, or its call site alone):
 * returns how many (0 when none known), *frames points at them. */
unsigned sa_xrow_frames(const struct sa_model *m, const struct sa_xrow *r,
			const uint64_t **frames);
/* The lock's name as the report gives it (sa_object_name of its row). */
const char *sa_xlock_name(const struct sa_model *m, uint32_t obj, char *buf, size_t n);
/* The top n locks (object rows) by wait, largest first, in top[] (their
 * wait ns in ns[]); returns how many (<= n). */
unsigned sa_export_top_locks(const struct sa_model *m, const struct sa_export *x, uint32_t *top,
			     uint64_t *ns, unsigned n);
/* --top N: the N locks with the most wait (malloc'ed, *ntop of them), or
 * NULL when every lock is kept (no --top, or out of memory: keep all). */
uint32_t *sa_export_top(const struct sa_model *m, const struct sa_report_opts *o,
			unsigned *ntop);
/* Is row r kept by sa_export_top's list (NULL: all are)? */
int sa_export_keep(const struct sa_model *m, const uint32_t *top, unsigned ntop,
		   const struct sa_xrow *r);
/* The notes every export carries: partial, discarded events (lower
 * bounds), waits/wakes left out of a timeline. Calls fn per note. */
void sa_export_notes(const struct sa_model *m, const struct sa_report_opts *o,
		     void (*fn)(void *ctx, const char *note), void *ctx);

#endif
