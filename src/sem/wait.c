/* sem_wait / sem_timedwait / sem_clockwait past the first CAS.
 * The state machine is in sem.h. */
#include <errno.h>
#include <pthread.h>

#include "internal/futex.h"
#include "sem/sem.h"
#include "trace/ready.h"
#include "wait/wait.h"

static int take(void *p)
{
	return st_sem_take(p);
}

/* Spinning is a hand-off wait (wait.h): a token comes from another
 * thread's post, so the budget covers a poster that must first wake up,
 * and adapts per semaphore in spin_misses. It is not gated by the crowd
 * hint (crowd.h): it bails once a sleeper is registered, so one waiter
 * spins at a time, and measured, the gate only took spins that paid: the
 * sem channel (4 threads on 2 CPUs) 0.9-1.3x glibc gated, 2.2-2.9x not;
 * sem ping-pong beside two busy loops 1.0x gated, 38x not; beside a churn
 * of short processes 1.75x and 2.0x (doc/spin.md). */

/* The sleep is a cancellation point: st_futex_wait_cancel enables
 * asynchronous cancellation around the futex system call alone (so the
 * unwind never starts inside a probe) and emits futex:wait after it.
 * Same scheme as src/cond. */
struct sleeper {
	struct st_sem *s;
};

static int sleep_cancellable(struct sleeper *w, int shared, clockid_t clk,
			     const struct timespec *abs)
{
	return st_futex_wait_cancel(&w->s->value, 0, shared, clk, abs, w->s);
}

/* Cancelled while registered (s is valid: we are still registered). Drop
 * the registration; the cancel may have come just after a post's wake
 * picked us, so pass a token we did not take on to another sleeper. */
static void cancelled(void *p)
{
	struct sleeper *w = p;
	pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, 0);
	uint64_t d = __atomic_fetch_sub(&w->s->data, ST_SEM_ONE_WAITER, __ATOMIC_RELAXED);
	if (st_sem_tokens(d) && (d >> 32) > 1)
		st_futex_wake(&w->s->value, 1, w->s->private != 0, w->s);
}

int st_sem_wait_slow(struct st_sem *s, clockid_t clk, const struct timespec *abs,
		     const void *caller)
{
	/* A pending cancel acts in the cancellable sleep, not before (glibc's
	 * sem_clockwait; sem_wait and sem_timedwait tested already: export/
	 * sem.c). A time before the epoch never sleeps: ETIMEDOUT. */
	if (st_ready_on_wait(s)) /* lttng-ust's constructor: its wait is skipped */
		return 0;
	st_set_caller(caller);

	int shared = s->private != 0, spins = 0, sleeps = 0, tr = st_tracing();
	if (tr)
		st_sem_ev_wait_begin(s, caller, st_load_relaxed(&s->value),
				     st_load_relaxed(&s->nwaiters));
	unsigned long long t0 = tr ? st_now_ns() : 0;

	st_spin_from_folded(t0);
	if (st_spin_handoff_gated(s, &s->nwaiters, take, s, &s->spin_misses, &spins, 0) ==
	    ST_SPIN_OUTCOME_ACQUIRED) {
		st_spin_note_slept(0);
		/* The hint is written before we return: s lives at least until
		 * its waiter returns (only sem_post must not touch it late). */
		if (t0) {
			unsigned long long t1 = st_waited_end(1, t0);
			st_sem_ev_acquired_at(st_rec_at(t1), s, caller, ST_SEM_HOW_SPIN, spins,
					      0, t1 - t0);
		}
		return 0;
	}

	/* * → *+1 waiter. From here on s stays valid: a registered sleeper
	 * keeps the semaphore alive until it drops its registration. */
	uint64_t d = __atomic_add_fetch(&s->data, ST_SEM_ONE_WAITER, __ATOMIC_RELAXED);
	st_sem_ev_sleep(s, caller, (int)(d >> 32));
	struct sleeper w = { s };
	int r = 0;
	pthread_cleanup_push(cancelled, &w);
	for (;;) {
		/* HANDOVER → …: take a token and drop the registration in one
		 * CAS; after it s is not touched (the last waiter may free it). */
		while (st_sem_tokens(d))
			if (__atomic_compare_exchange_n(&s->data, &d,
							d - 1 - ST_SEM_ONE_WAITER, 1,
							__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
				r = -1;
				break;
			}
		if (r)
			break;
		r = sleep_cancellable(&w, shared, clk, abs);
		sleeps++;
		if (r == ETIMEDOUT || r == EINTR) {
			/* Still registered, so s is valid. The kernel returns 0
			 * to a sleeper a wake picked, so no token is owed to us. */
			__atomic_fetch_sub(&s->data, ST_SEM_ONE_WAITER, __ATOMIC_RELAXED);
			break;
		}
		r = 0;
		d = __atomic_load_n(&s->data, __ATOMIC_RELAXED);
	}
	pthread_cleanup_pop(0);
	if (r > 0) {
		if (t0)
			st_sem_ev_timeout(s, caller, r, sleeps, st_now_ns() - t0);
		return r;
	}
	/* The token is ours; s may be gone already: only its address. */
	st_spin_note_slept(sleeps > 0);
	if (t0) {
		unsigned long long t1 = st_now_ns();
		st_sem_ev_acquired_at(st_rec_at(t1), s, caller, ST_SEM_HOW_SLEEP, spins, sleeps,
				      t1 - t0);
	}
	return 0;
}

int st_sem_trywait_failed(struct st_sem *s, const void *caller)
{
	st_set_caller(caller);
	if (st_tracing())
		st_sem_ev_trywait_failed(s, caller, st_load_relaxed(&s->nwaiters));
	return EAGAIN;
}
