/* pthread_cond_signal / broadcast: everything past the no-waiter check.
 * Private condvars here (the state machine is in cond.h), shared ones in
 * shared.c; one signal event for both. */
#include <stdint.h>

#include "cond/cond.h"
#include "mutex/mutex.h"
#include "wait/wait.h"

struct outcome {
	int moved, leaving, first_how;
	struct st_cond_waiter *first;
	int64_t t; /* the signal record's time (0: read it as it is written) */
};

/* A single signal's `signaled` record, written after the waiter's release
 * (cond:signaled is WAITING -> SIGNALED, under the condvar lock): written
 * there, the record held the lock and the waiter's release back on every
 * hand-off of a traced ping-pong, whose waiter is still spinning and
 * replies as soon as it is released. Its time is read at the transition; it
 * is written before any other record of ours, so the thread's records
 * stay in time order: before the wake of a thread waiting for the
 * condvar lock, before the wait for leavers, before a wake's records,
 * else just after the release. Only addresses are written: after
 * the release the waiter may have returned and c be gone. Broadcasts, and
 * a trace whose events LTTng stamps (st_trace_record_time 0), write it in
 * place. */
struct late_signaled {
	struct st_cond_waiter *node; /* 0: none pending */
	int64_t t;                   /* its time; 0: read it as it is written */
	int order;
};

/* cond:signaled's one call site: now (t 0), or late with its time. */
static void write_signaled(struct st_cond *c, const void *caller, struct late_signaled *l)
{
	if (l->node) {
		st_cond_ev_signaled_at(l->t, c, caller, l->node, l->order);
		l->node = 0;
	}
}

static void signal_private(struct st_cond *c, int n, const void *caller, struct outcome *o)
{
	struct st_cond_waiter *p, *first = 0;
	volatile int ref = 0;
	int moved = 0, leaving = 0, single = n != INT32_MAX;
	struct late_signaled late = { 0, 0, 0 };

	st_cond_lock(c);
	for (p = c->tail; n && p; p = p->prev) {
		/* p is linked and we hold the lock: its waiter is blocked, or
		 * unlinks itself only after taking this lock. */
		if (st_cas_acq_rel(&p->state, ST_COND_WAITING, ST_COND_SIGNALED)) {
			/* A single signal moves one waiter: the loop ends here,
			 * nothing else is recorded before the unlock. */
			late.node = p;
			late.order = moved;
			if (!single || !(late.t = st_trace_record_time()))
				write_signaled(c, caller, &late);
			if (!first)
				first = p;
			moved++;
			n--;
		} else {
			/* LEAVING: it will unlink itself after we unlock and
			 * then drop this reference; until then we may not
			 * return (it still uses c, and our ref). */
			p->notify = &ref;
			ref = ++leaving;
			st_cond_ev_met_leaving(c, caller, p, leaving);
		}
	}
	/* Split the visited nodes off as one batch; the rest stay queued. */
	if (p) {
		if (p->next)
			p->next->prev = 0;
		p->next = 0;
	} else {
		__atomic_store_n(&c->head, 0, __ATOMIC_RELEASE);
	}
	/* head/tail are read without the lock (st_cond_signal, destroy):
	 * written atomically, under it. */
	__atomic_store_n(&c->tail, p, __ATOMIC_RELEASE);
	c->signals += moved;
	/* st_cond_unlock, with the late record before the wake of a waiter
	 * for the condvar lock (its futex:wake, a later record of ours). */
	if (st_swap_release(&c->lock, 0) == 2) {
		write_signaled(c, caller, &late); /* c is alive: we are in its signal */
		st_futex_wake(&c->lock, 1, 0, c);
	}
	ST_FAULT_POINT(cond_signal_after_split);

	if (leaving) {
		write_signaled(c, caller, &late); /* c is alive: our ref holds it */
		unsigned long long t0 = st_now_ns();
		int cur;
		st_cond_ev_ref_wait_begin(c, caller, leaving);
		/* Each LEAVING waiter decrements ref after unlinking; the one
		 * reaching 0 wakes us. Read once per step (no test-then-read). */
		while ((cur = st_load_acquire(&ref)))
			st_wait(c, &ref, cur, 0, 0, CLOCK_REALTIME, 0, 0);
		st_cond_ev_ref_wait_end(c, caller, leaving, st_now_ns() - t0);
	}
	/* Release the oldest signaled waiter; it releases the next. After the
	 * store it may return: only its address is used by the wake. The
	 * condvar itself is not touched again (a woken waiter may destroy it). */
	int how = -1, res;
	if (first) {
		/* first is alive (its barrier is still held). If a broadcaster
		 * holds its mutex, a sleeping first is requeued there: our
		 * unlock wakes it, instead of a wake now that would block on
		 * the mutex. A single signal counts a sleeping first in refs
		 * (c is alive: we are inside pthread_cond_signal). */
		pthread_mutex_t *mx = first->mutex;
		/* The waiters' spin hint (cond.h: `seq`), before the release
		 * (after it a woken waiter may destroy c): a first still
		 * spinning is caught by its spin; one whose spin ran out
		 * (spin 2) or that announced its sleep (barrier 3) missed. A
		 * first that did not spin (budget 0: spinning is off) tells
		 * nothing, though we caught it before its sleep: counting that
		 * as a success turns spinning back on at almost every signal
		 * of a ping-pong, whose spins then run out under load
		 * (doc/cond.md).
		 * A first caught spinning counts as a success only when this
		 * signal is a reply (cond.h: spin hint): a signaler that never
		 * waits streams on, and its waiters are better off asleep. */
		int spin = st_load_relaxed(&first->spin);
		int reply = st_tls.cond_signals_left > 0;
		if (reply)
			st_tls.cond_signals_left--;
		if (st_load_relaxed(&first->barrier) == 3 || spin == 2 || (spin == 1 && !reply))
			st_spin_handoff_done(&c->seq, ST_SPIN_OUTCOME_GAVE_UP);
		else if (spin == 1)
			st_spin_handoff_done(&c->seq, ST_SPIN_OUTCOME_ACQUIRED);
		if (st_cond_release_running(first)) {
			how = ST_COND_RELEASE_RUNNING;
			res = 0;
		} else {
			/* It may sleep: the record goes before the wake's. */
			write_signaled(c, caller, &late);
			how = st_cond_release_sleeper(c, first, st_mutex_cond_held(mx) ? mx : 0,
						      single, &res);
		}
		write_signaled(c, caller, &late); /* addresses only */
		/* wait.h, AFTER A WAKE: a running first needed no wake. */
		if (how == ST_COND_RELEASE_WOKEN)
			st_spin_note_wake(res);
		else if (how == ST_COND_RELEASE_RUNNING)
			st_spin_note_wake(0);
		/* A single signal that released a running waiter took it at
		 * late.t and made no system call since: its record says so,
		 * and reads no clock while the signaler most likely still
		 * holds the mutex its waiter's relock is about to try. */
		if (how == ST_COND_RELEASE_RUNNING)
			o->t = late.t;
	}
	o->moved = moved;
	o->leaving = leaving;
	o->first = first;
	o->first_how = how;
}

int st_cond_signal_slow(struct st_cond *c, int n, const void *caller)
{
	struct outcome o = { 0, 0, -1, 0, 0 };

	st_set_caller(caller);
	if (c->attr & ST_COND_PSHARED)
		o.moved = st_cond_signal_shared(c, n);
	else
		signal_private(c, n, caller, &o);
	/* c may be destroyed by now (a woken waiter may have): its address. */
	st_cond_ev_signal_at(o.t, c, caller, n == INT32_MAX, o.moved, o.leaving, o.first,
			     o.first_how);
	return 0;
}
