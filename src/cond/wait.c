/* pthread_cond_wait / timedwait / clockwait: the waiter's side of the
 * protocol in cond.h (enqueue, release the mutex, sleep, leave or take the
 * barrier, re-acquire the mutex, hand the barrier on), and cancellation. */
#include <errno.h>
#include <stdint.h>

#include "cond/cond.h"
#include "mutex/mutex.h"
#include "wait/wait.h"

struct wait_ctx {
	struct st_cond *c;
	pthread_mutex_t *m;
	const void *caller;
	const struct timespec *abs;
	clockid_t clk;
	int shared;
	volatile int *fut; /* private: &node.barrier; shared: &c->seq */
	int val;           /* sleep while *fut == val (private: 3, see below) */
	int r;             /* the last futex result */
	int spurious;      /* futex returns with *fut unchanged, no timeout */
	int spin_budget;   /* private: this wait's hand-off spin (enqueue) */
	int after_wake;    /* ... the long one after a wake (wait.h: AFTER A WAKE) */
	int unlocked;      /* the mutex was released (so re-acquire it) */
	int spun;          /* a spin ended the wait (its end is the wait's: st_waited_end) */
	int first_use;     /* private: the first wait of a life with no init (enqueue) */
	unsigned long long t0;
	int fold_spins;    /* woke stands for the spin's loop: its iterations, else -1 */
	unsigned long long fold_ns; /* ... and its time */
	struct st_cond_waiter node;
};

/* Private: link the node as the newest waiter (WAITING, barrier held).
 * Returns the condvar's waits counter, this wait included. */
static int enqueue_private(struct wait_ctx *w)
{
	struct st_cond *c = w->c;
	void *other = 0;
	uint32_t waits;

	w->node.state = ST_COND_WAITING;
	w->node.barrier = 2;
	w->node.ref = 0;
	w->node.mutex = w->m;
	w->fut = &w->node.barrier;
	w->val = 3;
	st_cond_lock(c);
	if (c->head && c->mutex != w->m)
		other = c->mutex;
	c->mutex = w->m;
	w->node.next = c->head;
	if (c->head)
		c->head->prev = &w->node;
	else
		__atomic_store_n(&c->tail, &w->node, __ATOMIC_RELEASE);
	__atomic_store_n(&c->head, &w->node, __ATOMIC_RELEASE);
	waits = ++c->waits;
	w->first_use = waits == 1 && !(c->attr & ST_COND_INITED);
	/* This thread waits on condvars: its next signals are replies. */
	st_tls.cond_signals_left = ST_COND_REPLY_SIGNALS;
	/* The spin hint (cond.h: `seq`), read while c is surely alive. */
	w->spin_budget = st_spin_handoff_pick(&c->seq, &w->after_wake);
	w->node.spin = w->spin_budget != 0;
	st_cond_unlock(c);
	/* c is valid: we are linked and hold the mutex; no signal has taken
	 * us yet that could let the program destroy it. */
	if (other)
		st_cond_misuse(c, w->caller, ST_COND_MISUSE_TWO_MUTEXES, w->m, other);
	return (int)waits;
}

/* Shared: read the sequence, then be counted (before the mutex release,
 * so a signaler holding the mutex sees us). Returns the count. */
static int enqueue_shared(struct wait_ctx *w)
{
	struct st_cond *c = w->c;
	w->fut = &c->seq;
	w->val = st_load_acquire(&c->seq);
	return (st_fetch_add(&c->waiters, 1) + 1) & ~ST_COND_DESTROYING;
}

static int finish(struct wait_ctx *w, int reason);

/* Cancelled inside the sleep: glibc is unwinding the thread. Leave (or
 * take the signal and, with a ref, pass it on), re-acquire the mutex, and
 * let the unwind go on to the program's cleanup handlers. */
static void on_cancel(void *p)
{
	struct wait_ctx *w = p;
	pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, 0);
	finish(w, ST_COND_WOKE_CANCELLED);
}

/* One futex sleep as a cancellation point (see CANCELLATION in cond.h):
 * st_futex_wait_cancel enables asynchronous cancellation around the system
 * call alone and emits its futex:wait event after it. */
static void sleep_cancellable(struct wait_ctx *w)
{
	pthread_cleanup_push(on_cancel, w);
	w->r = st_futex_wait_cancel(w->fut, w->val, w->shared, w->clk, w->abs, w->c);
	pthread_cleanup_pop(0);
}

/* Private: our barrier was released. Shared: the sequence moved. */
static int released(void *p)
{
	struct wait_ctx *w = p;
	if (w->shared)
		return st_load_acquire(w->fut) != w->val;
	return st_load_acquire(&w->node.barrier) == 0;
}

/* Private: announce a sleep on the barrier (2 → 3, so the releaser knows
 * a system call is due). 0 if it was released meanwhile. */
static int may_sleep(struct st_cond_waiter *n)
{
	for (;;) {
		int b = st_load_acquire(&n->barrier);
		if (b != 2)
			return b == 3;
		if (st_cas_acq_rel(&n->barrier, 2, 3))
			return 1;
	}
}

/* Until released (0) or the timeout (ETIMEDOUT). A private waiter spins
 * as a hand-off wait (wait.h), with the budget read at enqueue: once
 * released it may not touch c, so the signaler keeps the hint. */
static int sleep_until_released(struct wait_ctx *w)
{
	int spins, got;
	/* Traced: the spin starts with the wait (st_cond_wait: t0 was read
	 * just before the enqueued record, after the mutex's release), and
	 * woke stands for its loop if it sees us released (wait.h,
	 * st_spin_from_folded). */
	unsigned long long s0 = w->t0;
	st_spin_from_folded(s0);
	if (w->shared)
		got = st_spin(w->c, 0, released, w, &spins);
	else
		got = st_spin_for(w->c, 0, released, w, w->spin_budget, &spins);
	/* The thread's own hint (wait.h: AFTER A WAKE); c's is the signaler's. */
	st_spin_wake_done(w->after_wake, got);
	st_spin_note_slept(0);
	if (got == ST_SPIN_OUTCOME_ACQUIRED) {
		w->spun = 1;
		if (s0 && st_tls.spin_fold) {
			w->fold_spins = spins;
			w->fold_ns = st_tls.spin_end_ns - s0;
		}
		return 0;
	}
	if (!w->shared)
		st_store_relaxed(&w->node.spin, 2); /* our own node: always ours */
	for (;;) {
		if (!w->shared && !may_sleep(&w->node))
			return 0;
		st_spin_note_slept(1);
		sleep_cancellable(w);
		if (released(w))
			return 0;
		if (w->r == ETIMEDOUT)
			return ETIMEDOUT;
		w->spurious++;
	}
}

/* SIGNALED, after a timeout or a cancel: the barrier, without either. */
static void wait_released(struct wait_ctx *w)
{
	int spins;
	if (st_spin(w->c, 0, released, w, &spins) == ST_SPIN_OUTCOME_ACQUIRED)
		return;
	while (may_sleep(&w->node))
		st_futex_wait(&w->node.barrier, 3, 0, CLOCK_REALTIME, 0, w->c);
}

/* Private, wait over: WAITING → LEAVING and unlink, or we were SIGNALED
 * and wait for our barrier. Returns the woke `how`. */
static int leave_or_take(struct wait_ctx *w, int reason)
{
	struct st_cond *c = w->c;
	struct st_cond_waiter *n = &w->node;

	ST_FAULT_POINT(cond_before_leaving_cas);
	if (st_cas_acq_rel(&n->state, ST_COND_WAITING, ST_COND_LEAVING)) {
		st_cond_ev_leaving(c, n, reason);
		/* c is valid: we are still linked, and a signaler that meets
		 * us now waits for our notify below before it returns. */
		st_cond_lock(c);
		if (c->head == n)
			__atomic_store_n(&c->head, n->next, __ATOMIC_RELEASE);
		else if (n->prev)
			n->prev->next = n->next;
		if (c->tail == n)
			__atomic_store_n(&c->tail, n->prev, __ATOMIC_RELEASE);
		else if (n->next)
			n->next->prev = n->prev;
		volatile int *notify = n->notify;
		st_cond_unlock(c);
		ST_FAULT_POINT(cond_leaving_before_notify);
		/* The signaler's stack is alive until its count reaches 0. */
		if (notify && st_fetch_add(notify, -1) == 1)
			st_futex_wake(notify, 1, 0, c);
		return reason;
	}
	/* SIGNALED: the signal is ours. From here on c may be destroyed
	 * unless our releaser gives us a ref (finish); otherwise we use only
	 * our node, our batch neighbours and the mutex. The barrier is
	 * released by the signaler or the previous member (or we are
	 * requeued onto the mutex and woken by its unlock). */
	if (st_load_acquire(&n->barrier))
		wait_released(w);
	return reason == ST_COND_WOKE_CANCELLED ? ST_COND_WOKE_CANCELLED_SIGNALED
						 : ST_COND_WOKE_SIGNALED;
}

/* Shared, wait over: a moved sequence counts as a signal. */
static int leave_shared(struct wait_ctx *w, int reason)
{
	struct st_cond *c = w->c;
	int how = reason;
	if (st_load_acquire(&c->seq) != w->val)
		how = reason == ST_COND_WOKE_CANCELLED ? ST_COND_WOKE_CANCELLED_SIGNALED
						       : ST_COND_WOKE_SIGNALED;
	/* Pass a possibly consumed signal on while we still count (c alive). */
	if (how == ST_COND_WOKE_CANCELLED_SIGNALED)
		st_cond_signal(c, 1, w->caller);
	/* After the decrement a destroyer may free c: only its address. */
	if (st_fetch_add(&c->waiters, -1) == (ST_COND_DESTROYING | 1))
		st_futex_wake(&c->waiters, 1, 1, c);
	return how;
}

/* Release the next member of our batch (node->prev). We hold the mutex:
 * requeue it onto the mutex word, counted in its waiters (cond.h), unless
 * it waits with another mutex (misuse): then a wake. next is alive: it
 * cannot return before its barrier is 0. */
static void hand_off(struct wait_ctx *w)
{
	struct st_cond_waiter *next = w->node.prev;
	pthread_mutex_t *held = w->unlocked && next->mutex == w->m ? w->m : 0;
	int res, how = st_cond_release(w->c, next, held, 0, &res);
	/* next may have returned already: its address only. */
	st_cond_ev_handoff(w->c, &w->node, next, how, res);
}

/* Private, SIGNALED by a single signal while we may have slept: c is
 * alive until we drop the ref the signaler counted for us. A cancelled
 * waiter must not swallow the signal (musl 2015): it gives it to another
 * waiter first. Both before the mutex re-acquire, so that a destroyer
 * holding the mutex waits for nothing that needs it. */
static void drop_ref(struct wait_ctx *w, int how)
{
	struct st_cond *c = w->c;
	if (how == ST_COND_WOKE_CANCELLED_SIGNALED)
		st_cond_signal(c, 1, w->caller);
	ST_FAULT_POINT(cond_before_unref);
	/* After the decrement a destroyer may free c: only its address. */
	if (st_fetch_add(&c->refs, -1) == (ST_COND_DESTROYING | 1))
		st_futex_wake(&c->refs, 1, 0, c);
}

static int finish(struct wait_ctx *w, int reason)
{
	int how = w->shared ? leave_shared(w, reason) : leave_or_take(w, reason);
	int took = how == ST_COND_WOKE_SIGNALED || how == ST_COND_WOKE_CANCELLED_SIGNALED;
	int e = 0;

	st_set_caller(w->caller);
	/* A spun wait ended with its spin: no clock read for its end. */
	unsigned long long end = 0;
	if (w->t0) {
		end = st_waited_end(w->spun, w->t0);
		st_cond_ev_woke_at(st_rec_at(end), w->c, w->shared ? 0 : &w->node, how,
				   w->spurious, end - w->t0, w->fold_spins, w->fold_ns);
	}
	/* ref is written before our barrier's release, read after it. A
	 * cancelled SIGNALED waiter without one was in a broadcast batch:
	 * that broadcast reached everybody, there is nothing to pass on. */
	if (!w->shared && took && w->node.ref)
		drop_ref(w, how);
	if (w->unlocked) {
		/* Requeued by the previous member: it counted us. */
		int counted = !w->shared && took && w->node.counted;
		int contended, traced = st_tracing();
		/* span stays 0 for a relock that took the mutex at its first
		 * CAS: it waited for nothing (relock_ns 0), and two clock
		 * reads around one CAS would be most of the hand-off's
		 * tracing cost (cond.def, relocked). A relock that waited
		 * gives its start and, spun, its end (mutex.h). */
		unsigned long long span[2] = { 0, 0 };
		e = st_mutex_cond_relock(w->m, counted, w->caller, &contended, traced ? span : 0);
		if (e)
			w->unlocked = 0; /* not held: hand the barrier on by a wake */
		if (traced) {
			/* Taken at once: when the wait ended, as its record
			 * says (st_rec_at; an end read before tracing began
			 * is 0: then the record reads its own time). */
			unsigned long long t2 = !span[0] ? end : span[1] ? span[1] : st_now_ns();
			st_cond_ev_relocked_at(st_rec_at(t2), w->c, w->m, w->shared ? 0 : &w->node,
					       contended, e, span[0] ? t2 - span[0] : 0,
					       e ? 0 : st_mutex_cond_acquisitions(w->m));
		}
	}
	if (!w->shared && took && w->node.prev)
		hand_off(w);
	if (e)
		return e;
	return how == ST_COND_WOKE_TIMEDOUT ? ETIMEDOUT : 0;
}

int st_cond_wait(struct st_cond *c, pthread_mutex_t *m, clockid_t clk,
		 const struct timespec *abs, const void *caller)
{
	int r;

	if ((r = st_timespec_check(abs)))
		return r;
	if ((r = st_mutex_cond_check(m)))
		return r;

	struct wait_ctx w = {
		.c = c, .m = m, .caller = caller, .abs = abs, .clk = clk,
		.shared = (c->attr & ST_COND_PSHARED) != 0, .fold_spins = -1,
	};
	st_set_caller(caller);
	int queued = w.shared ? enqueue_shared(&w) : enqueue_private(&w);
	ST_FAULT_POINT(cond_after_enqueue);
	/* Read while we hold the mutex: c is valid, we are queued (or
	 * counted). */
	int traced = st_tracing();
	uint64_t acq = traced ? st_mutex_cond_acquisitions(m) : 0;

	r = st_mutex_unlock(st_mutex(m), caller);
	/* The enqueued record goes after the release, with the wait's start:
	 * its clock read and its write held the mutex that the waiter we may
	 * just have signaled is about to take back (a traced ping-pong,
	 * whose signaler then waits). Only c's address is used (a signal may
	 * have taken us already). t0 is also the spin's start (one record's
	 * write in its spin_ns) and, where the clocks are one, the record's
	 * time (st_rec_at). */
	if (traced) {
		/* A life with no init begins here for the summary level (an
		 * init's part: st_summary_saw), before its first record. */
		if (w.first_use)
			st_summary_note_first_use(c, caller, ST_SUMMARY_FAMILY_COND);
		w.t0 = st_now_ns();
		st_cond_ev_enqueued_at(st_rec_at(w.t0), c, caller, m, w.shared ? 0 : &w.node, clk,
				       abs != 0, abs ? (int64_t)abs->tv_sec : 0,
				       abs ? (int64_t)abs->tv_nsec : 0, queued, acq);
	}
	if (r)
		/* The mutex was not released (glibc's object refused): leave
		 * at once, as a timeout would, and report its error. (A
		 * signal that took us meanwhile is consumed: we never slept,
		 * so we hold no ref that would keep c alive to pass it on.) */
		return finish(&w, ST_COND_WOKE_TIMEDOUT), r;
	w.unlocked = 1;

	r = sleep_until_released(&w);
	return finish(&w, r == ETIMEDOUT ? ST_COND_WOKE_TIMEDOUT : ST_COND_WOKE_SIGNALED);
}
