/* Debug checks: misuse of the primitives and lock-order inversions, found
 * from the trace (a model observer, sa_model_observe). Bounded memory:
 * per thread a few held locks and the last SA_CHK_RING hold intervals, per
 * process pair of mutexes one lock-order edge, findings deduplicated by
 * (check, objects, call site) and capped.
 *
 * What each check reads (events: tracepoints/EVENTS.md):
 *   unlock_not_owner   mutex:misuse what 1
 *   unlock_unlocked    mutex:misuse what 2, rwlock:misuse what 2
 *   destroy_locked     mutex:misuse what 3, rwlock:misuse what 3
 *   destroy_waited     cond:misuse what 2, sem:destroy with nwaiters > 0
 *   cond_two_mutexes   cond:misuse what 1
 *   self_deadlock      mutex:misuse what 4, rwlock:misuse what 1
 *   use_after_destroy  mutex:misuse what 5
 *   exit_holding       (full level) thread:exit while it holds a mutex it
 *                      acquired after waiting (mutex:acquired, not yet
 *                      released), or a later event names an exited thread
 *                      as a mutex's owner (requested, trylock_failed,
 *                      misuse)
 *   lock_order         (full level) a cycle in the lock-order graph: an
 *                      edge A→B when a thread acquired mutex B while
 *                      holding A. Holds come from mutex:released's hold_ns
 *                      (the acquisition was hold_ns earlier) and
 *                      mutex:acquired (contended).
 *   sem_over_max       sem:misuse (only with SYNCTRACE_SEM_MAX, recorded in
 *                      meta:config): a post left the count above the
 *                      semaphore's initial value or the set limit */
#ifndef SA_CHECKS_H
#define SA_CHECKS_H

#include <stdint.h>

#include "sa_map.h"
#include "sa_model.h"

enum sa_check {
	SA_CHK_UNLOCK_NOT_OWNER, /* unlock by a thread that does not hold it */
	SA_CHK_UNLOCK_UNLOCKED,  /* unlock of a free lock */
	SA_CHK_DESTROY_LOCKED,   /* destroy of a held mutex/rwlock */
	SA_CHK_DESTROY_WAITED,   /* destroy of a condvar/semaphore with waiters */
	SA_CHK_COND_TWO_MUTEXES, /* one condvar, two mutexes at once */
	SA_CHK_SELF_DEADLOCK,    /* a normal mutex (or rwlock) relocked by its owner */
	SA_CHK_USE_DESTROYED,    /* a destroyed mutex used (EINVAL) */
	SA_CHK_EXIT_HOLDING,     /* a thread ended holding a mutex */
	SA_CHK_LOCK_ORDER,       /* a cycle in the lock-order graph */
	SA_CHK_SEM_OVER_MAX,     /* a post left a semaphore above its limit (SYNCTRACE_SEM_MAX) */
	SA_CHK_N
};
const char *sa_check_name(enum sa_check c);

#define SA_CHK_MAXOBJ 8       /* objects per finding (a lock-order cycle's length) */
#define SA_CHK_MAX_FINDINGS 1000
#define SA_CHK_RING 32        /* hold intervals kept per thread */
#define SA_CHK_HELD 8         /* contended acquisitions not yet released, per thread */
#define SA_CHK_MAX_EDGES 10000

struct sa_finding {
	enum sa_check check;
	uint32_t proc;
	int64_t ts;                       /* first occurrence */
	uint64_t count;                   /* occurrences (same check, objects, call site) */
	unsigned nobj, ntid, ncaller;
	uint32_t obj[SA_CHK_MAXOBJ];      /* object indexes in the model */
	int32_t tid[SA_CHK_MAXOBJ];
	uint64_t caller[2 * SA_CHK_MAXOBJ];
	int64_t value;                    /* sem_over_max: the highest count its sentence gives */
	char detail[640];
};

/* A completed hold of a mutex by a thread. */
struct sa_hold {
	uint32_t obj;
	int64_t acq, rel;       /* ns */
	uint64_t acq_caller;    /* 0: not known (uncontended: no event at acquisition) */
	uint64_t rel_caller;
	int trylock;            /* the hold began with a trylock (released.acq_how 3) */
};

struct sa_chk_thread {
	struct sa_hold ring[SA_CHK_RING];
	unsigned nring, next;
	struct {
		uint32_t obj;
		uint64_t addr;  /* matched by address too: the object may be a new
				 * instance when a late release arrives */
		int64_t ts;
		uint64_t caller;
	} held[SA_CHK_HELD];    /* contended acquisitions (mutex:acquired) */
	unsigned nheld;
	/* Its mutex:requested or trylock_failed named an owner that had
	 * exited: a finding unless this thread then acquires that mutex (the
	 * owner word was read before the owner released it and ended, and the
	 * event was stamped after). Reported at its next such event or at
	 * sa_checks_finish. */
	struct {
		int set;
		uint32_t pi, obj;
		int32_t owner, vtid;
		int64_t ts;
		uint64_t caller;
	} suspect;
};

/* Lock-order edge a→b: a held while b was acquired (first example). */
struct sa_edge {
	uint32_t proc, a, b;
	int32_t tid;
	int64_t ts;              /* when b was acquired */
	uint64_t a_site, b_site; /* acquisition sites (0: unknown; then the release site) */
	int a_site_is_rel, b_site_is_rel;
};

struct sa_checks {
	struct sa_chk_thread *threads;  /* by model thread index */
	uint32_t nthreads;
	struct sa_finding *findings;
	uint32_t nfindings, capfindings;
	uint64_t dropped;               /* findings beyond SA_CHK_MAX_FINDINGS */
	struct sa_edge *edges;
	uint32_t nedges, capedges;
	uint64_t edges_dropped;
	struct sa_map edge_map;         /* (proc << 32 | a, b) → edge */
	/* (proc, mutex address) → the thread with a held[] entry for it. A
	 * mutex has one owner: when another thread acquires it, or a destroy
	 * succeeds, that entry is stale (its release was stamped after the
	 * next owner's events: the unlock's futex wake comes before its event). */
	struct sa_map holder_map;
	int cycles_done;
	int oom;
	/* The lock-order check could not look at everything (a finding that
	 * says "incomplete", never "no finding"): SA_CHK_INCOMPLETE_* bits. */
	unsigned lockorder_incomplete;
};
#define SA_CHK_INCOMPLETE_EDGES 1  /* edges beyond SA_CHK_MAX_EDGES dropped (edges_dropped) */
#define SA_CHK_INCOMPLETE_CYCLES 2 /* the search stopped at its cycle limit */
#define SA_CHK_INCOMPLETE_OOM 4    /* out of memory */

/* New checks state, observing m. NULL on out of memory. */
struct sa_checks *sa_checks_attach(struct sa_model *m);
/* Find the lock-order cycles (once, at the end). */
void sa_checks_finish(struct sa_checks *c, const struct sa_model *m);
/* checks.c: report the suspicions still pending (sa_chk_thread.suspect). */
void sa_checks_flush_suspects(struct sa_checks *c, const struct sa_model *m);
void sa_checks_free(struct sa_checks *c);

/* Internal (checks.c ↔ lockorder.c). */
struct sa_finding *sa_checks_add(struct sa_checks *c, enum sa_check k, uint32_t proc,
				 int64_t ts, const uint32_t *objs, unsigned nobj,
				 uint64_t caller);
void sa_lockorder_release(struct sa_checks *c, const struct sa_model *m, uint32_t pi,
			  uint32_t ti, const struct sa_hold *h);

#endif
