/* pthread_barrier_init / wait / destroy. The state machine is in barrier.h. */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "barrier/barrier.h"
#include "internal/futex.h"
#include "wait/wait.h"

_Static_assert(sizeof(struct st_barrier) == sizeof(pthread_barrier_t), "barrier size");
_Static_assert(_Alignof(struct st_barrier) <= _Alignof(pthread_barrier_t), "barrier alignment");
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "arrived is data's low half");

int st_barrier_init(struct st_barrier *b, const pthread_barrierattr_t *a, unsigned count,
		    const void *caller)
{
	int pshared = PTHREAD_PROCESS_PRIVATE;
	/* glibc: a count of 0, or one that cannot be counted, is EINVAL. */
	if (count == 0 || count >= ST_BARRIER_DESTROYER)
		return EINVAL;
	if (a)
		pthread_barrierattr_getpshared(a, &pshared);
	memset(b, 0, sizeof(*b));
	b->count = count;
	b->shared = pshared == PTHREAD_PROCESS_SHARED ? ST_BARRIER_SHARED : 0;
	st_set_caller(caller);
	st_barrier_ev_init(b, caller, (int)count, pshared == PTHREAD_PROCESS_SHARED);
	return 0;
}

static inline unsigned round_of(uint64_t d)
{
	return (unsigned)(d >> 32) & ST_BARRIER_ROUND;
}

/* Leave a finished round: the caller's last touch of b. The one that
 * brings `leaving` to exactly ST_BARRIER_DESTROYER wakes the destroyer (by
 * address: b may be gone once the decrement is seen). */
static void depart(struct st_barrier *b, int shared)
{
	int left = __atomic_sub_fetch(&b->leaving, 1, __ATOMIC_RELEASE);
	if (left == ST_BARRIER_DESTROYER)
		st_futex_wake(&b->leaving, 1, shared, b);
}

struct round_ctx {
	struct st_barrier *b;
	unsigned round;
	volatile int asleep; /* the spin's `waiters`: it saw ASLEEP */
};

/* The spin's probe. The acquire pairs with the opener's exchange. */
static int round_opened(void *p)
{
	struct round_ctx *c = p;
	uint64_t d = __atomic_load_n(&c->b->data, __ATOMIC_ACQUIRE);
	if (d & ST_BARRIER_ASLEEP)
		c->asleep = 1;
	return round_of(d) != c->round;
}

/* Wait until round `round` is opened: a hand-off wait (wait.h), with the
 * sleeper announced by ASLEEP in the futex word (barrier.h: NO LOST
 * WAKE-UP). b is valid throughout: a waiter of `round` counts in
 * `leaving` from the opening on, and an extra arrival is still to arrive
 * in the next round, so b may not be destroyed under it. */
static int wait_round(struct st_barrier *b, unsigned round, int shared, int *spins)
{
	struct round_ctx c = { b, round, 0 };
	if (st_spin_handoff(b, &c.asleep, round_opened, &c, &b->spin_misses, spins) ==
	    ST_SPIN_OUTCOME_ACQUIRED) {
		st_spin_note_slept(0);
		return 1; /* the spin saw the opening: its end is the wait's */
	}
	st_spin_note_slept(1);
	uint64_t d = __atomic_load_n(&b->data, __ATOMIC_ACQUIRE);
	while (round_of(d) == round) {
		if (!(d & ST_BARRIER_ASLEEP)) {
			/* Fails if an arrival or the opening changed data: look again. */
			if (__atomic_compare_exchange_n(&b->data, &d, d | ST_BARRIER_ASLEEP, 1,
							__ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
				d |= ST_BARRIER_ASLEEP;
			continue;
		}
		st_futex_wait(&b->round, (int)(d >> 32), shared, CLOCK_REALTIME, 0, b);
		d = __atomic_load_n(&b->data, __ATOMIC_ACQUIRE);
	}
	return 0;
}

int st_barrier_wait(struct st_barrier *b, const void *caller)
{
	/* Read before arriving: after the round opens b may be destroyed. */
	unsigned count = b->count;
	int shared = b->shared != 0;
	unsigned long long t0 = 0; /* the wait's start: after its arrival, or a round waited out */
	int spins, folds = 0;

	st_set_caller(caller);
	/* Arrive. A round that is full but not yet open (more threads than
	 * count use the barrier) is waited out: this thread belongs to the
	 * next one, and its void +1 is erased by the opening. The acq_rel
	 * chain of arrivals hands each one's prior writes to the opener. */
	uint64_t d;
	while ((unsigned)(d = __atomic_fetch_add(&b->data, 1, __ATOMIC_ACQ_REL)) >= count) {
		if (!t0 && st_tracing())
			t0 = st_now_ns();
		wait_round(b, round_of(d), shared, &spins);
	}
	unsigned round = round_of(d);
	unsigned k = (unsigned)d + 1;

	if (k == count) {
		/* FULL(r) → GATHERING(r+1, 0). The others count as leaving
		 * before they can see the new round. The exchange is our last
		 * access to b (destroy may free it as soon as the others have
		 * left): the wake and the event only use its address. */
		if (count > 1)
			__atomic_fetch_add(&b->leaving, (int)count - 1, __ATOMIC_RELAXED);
		uint64_t old = __atomic_exchange_n(
			&b->data, (uint64_t)((round + 1) & ST_BARRIER_ROUND) << 32, __ATOMIC_ACQ_REL);
		int woken = -1;
		if (old & ST_BARRIER_ASLEEP)
			woken = st_futex_wake(&b->round, INT_MAX, shared, b);
		st_spin_note_wake(woken); /* wait.h: AFTER A WAKE */
		st_barrier_ev_released(b, caller, (int)round, (int)count, woken);
		return PTHREAD_BARRIER_SERIAL_THREAD;
	}

	st_barrier_ev_arrival(b, caller, (int)round, (int)k, (int)count);
	/* Waiting: b is valid, its round cannot open without us. The last
	 * arrival ends the wait; wait_round's last load of data acquired the
	 * opener's exchange (all 64-bit, as TSan pairs atomics by size). Its
	 * spin starts where the wait does: one clock read, and the departure
	 * then stands for the spin's loop if the spin saw the opening
	 * (st_spin_from_folded). Not after a round waited out: that
	 * wait began earlier than the spin. */
	if (!t0 && st_tracing()) {
		st_spin_from_folded(t0 = st_now_ns());
		folds = st_tls.spin_fold;
	}
	int spun = wait_round(b, round, shared, &spins);
	/* Our last touch of b: destroy waits for `leaving` to drain. */
	depart(b, shared);
	if (t0) {
		unsigned long long t1 = st_waited_end(spun, t0);
		st_barrier_ev_departure_at(st_rec_at(t1), b, caller, (int)round, t1 - t0,
					   spun && folds ? spins : -1);
	}
	return 0;
}

int st_barrier_destroy(struct st_barrier *b, const void *caller)
{
	int shared = b->shared != 0, v;
	st_set_caller(caller);
	/* Partly gathered: threads are blocked in it (POSIX: undefined). As
	 * glibc's, wait until other arrivals complete the round, then for
	 * its threads to leave, and return 0: the memory is not freed under
	 * them. We wait as an extra arrival does, without arriving (b is
	 * valid: only its destroyer may free it). */
	uint64_t d = __atomic_load_n(&b->data, __ATOMIC_ACQUIRE);
	int blocked = (int)(unsigned)d, spins;
	if (blocked)
		wait_round(b, round_of(d), shared, &spins);
	/* Wait for the last round's waiters to leave (glibc 13065). */
	while ((v = st_load_acquire(&b->leaving)) != 0) {
		if (!(v & ST_BARRIER_DESTROYER)) {
			st_cas_acq_rel(&b->leaving, v, v | ST_BARRIER_DESTROYER);
			continue;
		}
		if (v == ST_BARRIER_DESTROYER)
			break;
		st_futex_wait(&b->leaving, v, shared, CLOCK_REALTIME, 0, b);
	}
	st_barrier_ev_destroy(b, caller, 0, blocked);
	b->count = 0;
	return 0;
}
