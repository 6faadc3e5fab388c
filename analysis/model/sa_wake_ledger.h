/* The wake-outcome ledger (wake_ledger.c; doc/wakes.md): every waking call
 * (a futex wake, a condvar signal or broadcast, a semaphore post, a
 * mutex, rwlock, barrier or once release that woke sleepers) linked to its
 * object, its call site and the threads it woke, and what became of each
 * of them; per object (or class) and per waking call site.
 *
 * A waking call is named by the event that says what it was: the
 * primitive's own event right after its futex wake (mutex:released,
 * sem:post, rwlock:released, barrier:released...), with its call site; a
 * wake no such event follows (a primitive's internal hand-over) is
 * futex:wake, site 0. Condvar signals are cond:signal / cond:broadcast;
 * their futex wakes and requeues (the barrier chain, src/cond/cond.h) are
 * how they deliver, not calls of their own. */
#ifndef SA_WAKE_LEDGER_H
#define SA_WAKE_LEDGER_H

#include <stdint.h>

struct sa_model;
struct sa_event;

enum sa_wl_outcome {     /* what a woken thread did next */
	SA_WL_WON,         /* got past the object: acquired it, took the token, or returned
	                      from its condvar wait and did not wait again at once */
	SA_WL_LOST,        /* slept on the object again first: a barger or spinner took it */
	SA_WL_FUTILE,      /* condvar: waited again on the same condvar without releasing
	                      the mutex in between (its predicate was false) */
	SA_WL_PASSED_ON,   /* condvar: cancelled holding the signal, passed it on */
	SA_WL_NOUTCOMES
};
const char *sa_wl_outcome_name(enum sa_wl_outcome k); /* "won", "lost", "futile", "passed_on" */

struct sa_wl_counts {
	uint64_t calls;       /* waking calls */
	uint64_t nobody;      /* of those, that woke nobody (futex: the kernel woke 0;
	                         condvar: the signal met only leaving waiters) */
	uint64_t woken;       /* threads they woke (the kernel's count; condvar: waiters signaled) */
	uint64_t out[SA_WL_NOUTCOMES]; /* of those, by outcome; the rest are undecided
	                         (no return matched to the wake, or the trace ended first) */
	uint64_t met_leaving; /* condvar: waiters already leaving (timed out, cancelled) a call met */
	uint64_t went_on;     /* condvar signals that met a leaving waiter and went to the next one */
	uint64_t multi;       /* calls that may wake more than one (broadcast, wake-all) */
	uint64_t fan_max;     /* the most threads one such call woke */
	/* Hand-off latency of the woken that won: the wake call to the
	 * thread's first event after it (scheduler delay), and from there to
	 * owning the object (re-acquisition). ns sums, counts and maxima. */
	uint64_t sched_n, sched_ns, sched_max;
	uint64_t reacq_n, reacq_ns, reacq_max;
};

struct sa_wl_entry {
	uint16_t ev;          /* enum sa_event_id of the event that named the call;
	                         SA_EV_summary_object: a condvar's aggregates (below) */
	uint8_t broadcast;    /* cond:signal with broadcast 1 */
	uint8_t kinds;        /* aggregates: 1 signals seen, 2 broadcasts seen; 4 a
	                         futex-level object's wakes (find_wakes.c) */
	uint64_t site;        /* its call site (caller), 0 unknown */
	struct sa_wl_counts c;
};
/* "cond:broadcast", "sem:post", "mutex:released", "futex:wake" ...;
 * aggregates: "cond:signal", "cond:broadcast" or "cond:signal/broadcast". */
const char *sa_wl_op_name(const struct sa_wl_entry *e);
/* A condvar's ledger from the summary level's aggregates (summary.c), one
 * entry of no call site: its calls, the waiters they signaled and what
 * became of them, as the thread that counted each saw it. d's out[WON]
 * holds the waiters that woke signaled, futile ones included; kinds as
 * the entry's. */
void sa_wl_aggregate(struct sa_model *m, uint32_t oi, const struct sa_wl_counts *d,
		     unsigned kinds);

/* The ledger's entries of object (or class) row obj: one per waking call
 * site and kind; their number. */
unsigned sa_wl_entries(const struct sa_model *m, uint32_t obj, const struct sa_wl_entry **out);
/* Sum over the entries of obj (all objects: UINT32_MAX). */
void sa_wl_totals(const struct sa_model *m, uint32_t obj, struct sa_wl_counts *out);

/* ---- the model's side ------------------------------------------------- */

/* Per thread (in sa_thread): the wake it issued that its next event names;
 * the futex wake that woke it and from which object; its condvar wait. */
struct sa_wl_thread {
	uint32_t open;        /* wake id + 1, 0 none */
	uint32_t link;        /* futex level: the wake that woke it (id + 1) */
	uint32_t on;          /* ... from this object (index) */
	int64_t run_ts;       /* its futex wait returned (it runs) */
	uint32_t pend_on;     /* object index + 1 where its return waits for its wake */
	/* Condvar level. */
	int cstate;           /* 0 none, 1 waiting, 2 signaled, 3 returned (see wake_ledger.c) */
	uint32_t cwake;       /* the signal that took it (id + 1) */
	uint32_t cond;        /* the condvar (index) */
	uint64_t mutex;       /* its wait's mutex (address) */
	uint64_t acq;         /* relocked's mutex_acq (0 unknown) */
	int64_t sig_ts, rel_ts, first_ts, mwake_ts; /* signaled, released, ran, woken by the mutex */
	/* A signal that took its node before its enqueued record came (id + 1,
	 * 0 none), on condvar pend_cond at pend_ts: wake_ledger.c, c_signaled. */
	uint32_t pend_sig, pend_cond;
	int64_t pend_ts;
	int requeued;         /* released onto the mutex word (it runs when the mutex wakes it) */
};

/* Per model (in sa_model): the wakes in flight; those the event being
 * taken in changed while unnamed. */
#define SA_WL_DIRTY 16
struct sa_wl_model {
	struct sa_wl_wake *wakes;
	uint32_t n, cap, free_head; /* free list: id + 1 */
	uint32_t dirty[SA_WL_DIRTY];
	unsigned ndirty;
};

/* Take in event e of thread ti (after its family's model saw it). */
void sa_wl_feed(struct sa_model *m, const struct sa_event *e, uint32_t ti);
/* Fold object oi's entries into class ci (fold.c); free an object's, the model's. */
void sa_wl_fold(struct sa_model *m, uint32_t ci, uint32_t oi);
void sa_wl_obj_free(void *objwl);
void sa_wl_model_free(struct sa_wl_model *w);

#endif
