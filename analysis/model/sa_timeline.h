/* The thread timeline of the HTML report: per-thread intervals (holding a
 * lock, waiting for one, spinning, sleeping in the kernel) and wake arrows
 * (futex wake → the woken thread's return), kept for ONE window only, so
 * memory does not grow with the trace: either the window asked for
 * (--window START,END, seconds from the first event) or the busiest second
 * (the most waiting ended in it, then the most events: creating and
 * destroying locks is not activity worth a look), found in the same pass by keeping two collectors: the
 * best second so far and the current one. Each collector is capped
 * (SA_TL_MAX_SPANS, SA_TL_MAX_ARROWS); what was left out is counted. */
#ifndef SA_TIMELINE_H
#define SA_TIMELINE_H

#include <stdint.h>

#include "sa_model.h"

#define SA_TL_MAX_SPANS 20000
#define SA_TL_MAX_ARROWS 5000

enum sa_span_kind {
	SA_SPAN_HOLD,  /* holding a lock (mutex:released hold_ns, or acquired → released) */
	SA_SPAN_WAIT,  /* waiting for an object (wait_ns of acquired/timeout/woke) */
	SA_SPAN_SPIN,  /* spinning (spin:loop spin_ns) */
	SA_SPAN_SLEEP, /* asleep in the kernel (futex:wait slept_ns) */
	SA_SPAN_N
};

struct sa_span {
	uint32_t thread, obj;   /* model indexes */
	int64_t b, e;           /* ns */
	enum sa_span_kind kind;
	uint64_t caller, caller2; /* call sites: the event's, and the acquisition's for holds */
};

struct sa_arrow {
	uint32_t from, to, obj; /* waker thread, woken thread, object */
	int64_t b, e;           /* the wake, the woken thread's return */
};

struct sa_tl_window {
	int64_t start, end;     /* ns */
	uint64_t events;
	uint64_t wait_ns;       /* waiting that ended in it (any kind) */
	int64_t ev_first, ev_last; /* its first and last event */
	struct sa_span *spans;
	uint32_t nspans, capspans;
	struct sa_arrow *arrows;
	uint32_t narrows, caparrows;
	uint64_t spans_capped, arrows_capped;
	int64_t cap_ts;         /* when the first cap was hit: the drawn window ends there */
};

struct sa_tl_thread {
	uint32_t obj;           /* contended acquisition not yet released */
	int64_t ts;
	uint64_t caller;
	int valid;
};

struct sa_tl_wake {
	uint32_t thread;
	int64_t ts;
	int valid;
};

struct sa_timeline {
	int fixed;              /* a window was asked for */
	double want_start, want_end; /* seconds from the first event */
	int started;
	int64_t origin;         /* first event */
	struct sa_tl_window best, cur;
	struct sa_tl_thread *threads;
	uint32_t nthreads;
	struct sa_tl_wake *wakes; /* per object: the last futex wake that woke someone */
	uint32_t nwakes;
	int finished;           /* the window was chosen */
	int oom;
};

/* Observe m. fixed: the window [start, end] seconds from the first event;
 * else the busiest second. NULL on out of memory. */
struct sa_timeline *sa_timeline_attach(struct sa_model *m, int fixed, double start, double end);
/* The chosen window (call after the last event). */
const struct sa_tl_window *sa_timeline_window(struct sa_timeline *t);
void sa_timeline_free(struct sa_timeline *t);

#endif
