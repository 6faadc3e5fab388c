/* The wait-for graph across every primitive (waitfor.c), fed each event
 * by the model (sa_model_feed) up to the end of the trace or a chosen time
 * (sa_waitfor_at). It keeps, bounded by threads and objects:
 *   per thread  the wait in progress (on what, since when, from where),
 *               whether it exited (thread:exit, or its process stopped);
 *   per object  mutex, rwlock: who holds it (the acquirer, the owner a
 *               waiter saw in the lock word, or unknown: an uncontended
 *               acquisition has no event); condvar, semaphore: who ever
 *               signalled or posted it, and from where; barrier: who ever
 *               arrived, and in which round; once: who runs the routine.
 * sa_waitfor_solve then draws the edges, waiter -> holder (mutex, rwlock),
 * waiter -> its known signalers/posters (condvar, semaphore), waiter ->
 * the runner (once), barrier waiter -> the threads that arrived in an
 * earlier round but not in this one, and marks the waits nothing can end:
 * the greatest set of blocked threads whose every known waker is in the
 * set or has exited (cycles and chains alike). A wait whose wakers are not
 * known (a holder nobody saw, a condvar never signalled while traced) or
 * that will time out is not marked, unless every thread its process has
 * in the trace is blocked (untimed, no wake in flight, on objects of its
 * own): then nothing in the process can end any of them. */
#ifndef SA_WAITFOR_H
#define SA_WAITFOR_H

#include <stdint.h>

#include "sa_waits.h"

struct sa_model;
struct sa_event;

#define SA_WF_NONE UINT32_MAX
#define SA_WF_MAXW 8 /* wakers kept per object (signalers, readers, participants) */

/* A thread's wait in progress. */
struct sa_wf_thread {
	int blocked;
	enum sa_wait_kind kind;
	uint32_t obj;          /* model object index */
	int64_t since;         /* ns, when the wait began */
	uint64_t site;         /* its call site, 0 unknown */
	int timed;             /* it will time out (condvar waits say so) */
	int32_t round;         /* barrier: the round it arrived in */
	uint32_t mutex;        /* condvar wait: the mutex it re-acquires, SA_WF_NONE */
	uint64_t node;         /* condvar wait: its waiter node (0: process-shared) */
	int exited;            /* thread:exit, or its process stopped */
	int64_t exit_ts;
	/* solve: */
	int stuck;             /* nothing can end this wait */
	int complete;          /* every waker of this wait is known */
	int all_blocked;       /* stuck as its process's every thread is: no known waker needed */
	unsigned nwakers;
	uint32_t wakers[SA_WF_MAXW]; /* model thread indexes */
};

/* Who can end a wait on an object. */
struct sa_wf_who {
	uint32_t ti;
	uint64_t site;
	uint64_t count;
	int32_t round;         /* barrier: the last round it arrived in */
};

struct sa_wf_obj {
	/* mutex, rwlock (write side): the holder */
	int held;              /* 1 held by holder, 2 held by a thread the trace never named */
	uint32_t holder;
	int32_t holder_tid;
	int64_t held_since;
	int since_exact;       /* held_since is the acquisition; else the first time seen held */
	uint64_t holder_site;
	/* rwlock read side: readers holding it (count from the events), the
	 * ones known by name */
	int readers;
	unsigned nreaders;
	uint32_t reader[SA_WF_MAXW];
	/* condvar, semaphore: signalers/posters; barrier: participants; once: the runner */
	unsigned nwho;
	struct sa_wf_who who[SA_WF_MAXW];
	uint64_t who_dropped;  /* more than SA_WF_MAXW: the table is not complete */
	int32_t round;         /* barrier: the round in progress */
	int count;             /* barrier: threads per round */
	int arrived;           /* barrier: arrived in the round in progress */
	int running;           /* once: the routine runs (who[0] runs it) */
	int tokens;            /* semaphore: the count the last post or wait saw */
	int wake_due;          /* mutex, rwlock: a release woke a sleeper, not yet known to have it */
};

struct sa_waitfor {
	struct sa_wf_thread *t;
	uint32_t nt;
	struct sa_wf_obj **o;  /* by object index; made on first use, freed at destroy */
	uint32_t no;
	unsigned char *proc_ended;
	uint32_t np;
	int have_at;
	double at_s;           /* --at: seconds from the first event */
	int64_t end;           /* the graph's time: the last event fed (or the --at time) */
	int past_end;          /* an event after the --at time arrived */
	int oom;
	int solved;
	uint32_t blocked, stuck;
	unsigned char *proc_all_blocked; /* solve: per process, every known thread blocked */
};

/* Draw the graph at `seconds` from the trace's first event rather than at
 * its end. Call before feeding. 0, or -1 out of memory / negative time. */
int sa_waitfor_at(struct sa_model *m, double seconds);
/* The model's hook: event e of process pi, thread ti (after its family). */
void sa_waitfor_feed(struct sa_model *m, const struct sa_event *e, uint32_t pi, uint32_t ti);
void sa_waitfor_free(struct sa_waitfor *w);
/* The edges and the stuck set (idempotent); NULL when nothing was fed. */
const struct sa_waitfor *sa_waitfor_solve(const struct sa_model *m);
/* An object's state, NULL when it has none. */
const struct sa_wf_obj *sa_waitfor_obj(const struct sa_waitfor *w, uint32_t oi);

#endif
