/* Per-thread state of the library: initial-exec TLS, so reaching it is one
 * %fs-relative load and never allocates or calls into the dynamic loader. */
#ifndef ST_TLS_H
#define ST_TLS_H

#include "atomic.h"

struct st_tls {
	int tid;             /* cached gettid(); 0 until first needed */
	int guard;           /* non-zero while a probe runs: no nested events */
	const void *caller;  /* return address of the current slow-path call */
	unsigned ops;        /* slow-path calls begun (st_set_caller): the summary
				level checks its table's age once per operation */
	const void *clean_caller[8]; /* callers found outside the tracer's code, by
					st_clean_slot (internal/trace.h) */
	volatile int relock_misses; /* condvar relock spins that ran out (wait.h hint) */
	volatile int lock_misses; /* mutex and rwlock lock spins that ran out (wait.h hint) */
	int cond_signals_left; /* signals that still count as replies: each private
				  condvar wait resets it (cond.h, spin hint) */
	unsigned long long spin_end_ns; /* when the last traced spin ended (wait.h) */
	unsigned long long spin_t0;     /* the start a wait gives its spin (st_spin_from_folded) */
	/* After a wake (wait.h: AFTER A WAKE): */
	int handoff_woke;         /* a post, signal or opening of ours woke a sleeper ... */
	unsigned handoff_woke_ops; /* ... at this `ops` */
	int handoff_slept;        /* our last hand-off wait slept */
	int handoff_probe;        /* since then a post of ours found no sleeper: probe once */
	volatile int wake_misses; /* long spins after a wake that ran out (wait.h hint) */
	int spin_fold;            /* the wait that gave spin_t0 has its own last event
				     stand for the spin's loop (st_spin_from_folded) */
	int sum_pending;          /* the summary level queued events to aggregate
				     while a spin waits (trace/summary.c, st_summary_step) */
};

extern __thread struct st_tls st_tls __attribute__((tls_model("initial-exec")));

int st_tid_slow(void);

/* The calling thread's kernel tid. Cached per thread: after fork() the
 * forking thread keeps its parent's value in the child, which keeps the
 * mutexes it held owned by it there (POSIX); process-shared objects that
 * compare owners across processes use st_tid_fresh(). */
static inline int st_tid(void)
{
	int t = st_tls.tid;
	if (st_unlikely(!t))
		t = st_tid_slow();
	return t;
}

int st_tid_fresh(void);

#endif
