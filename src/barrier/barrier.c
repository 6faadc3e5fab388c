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
	ST_TRACE(barrier, init, b, caller, (int)count, pshared == PTHREAD_PROCESS_SHARED);
	return 0;
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

int st_barrier_wait(struct st_barrier *b, const void *caller)
{
	/* Read before arriving: after the round opens b may be destroyed. */
	unsigned count = b->count;
	int shared = b->shared != 0;
	unsigned long long t0 = st_tracing() ? st_now_ns() : 0;

	st_set_caller(caller);
	/* Arrive. A round that is full but not yet open (more threads than
	 * count use the barrier) is waited out: this thread belongs to the
	 * next one. */
	uint64_t d = __atomic_load_n(&b->data, __ATOMIC_RELAXED);
	for (;;) {
		if ((unsigned)d >= count) {
			st_wait_handoff(b, &b->round, (int)(d >> 32), &b->sleepers,
					&b->spin_misses, shared, CLOCK_REALTIME, 0, 0);
			d = __atomic_load_n(&b->data, __ATOMIC_RELAXED);
			continue;
		}
		if (__atomic_compare_exchange_n(&b->data, &d, d + 1, 1, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			break;
	}
	int round = (int)(d >> 32);
	unsigned k = (unsigned)d + 1;

	if (k == count) {
		/* GATHERING(r, c-1) → GATHERING(r+1, 0). The others count as
		 * leaving before they can see the new round, and so do we:
		 * destroy waits for us too, so b stays valid until we have
		 * looked for sleepers. */
		__atomic_fetch_add(&b->leaving, (int)count, __ATOMIC_RELAXED);
		__atomic_store_n(&b->data, (uint64_t)(unsigned)(round + 1) << 32,
				 __ATOMIC_SEQ_CST);
		/* Wake only if a waiter may be asleep. A waiter counts itself in
		 * `sleepers` before its last look at `round` (st_wait); we look
		 * at `sleepers` after the store. All four are seq_cst (full
		 * barriers on the hardware): either it sees the new round or we
		 * see it counted. */
		int woken = -1;
		if (__atomic_load_n(&b->sleepers, __ATOMIC_SEQ_CST))
			woken = st_futex_wake(&b->round, INT_MAX, shared, b);
		/* Our last touch of b. */
		depart(b, shared);
		ST_TRACE(barrier, released, b, caller, round, (int)count, woken);
		return PTHREAD_BARRIER_SERIAL_THREAD;
	}

	ST_TRACE(barrier, arrival, b, caller, round, (int)k, (int)count);
	/* Waiting: b is valid, its round cannot open without us. The last
	 * arrival ends the wait: a hand-off wait (wait.h). */
	st_wait_handoff(b, &b->round, round, &b->sleepers, &b->spin_misses, shared,
			CLOCK_REALTIME, 0, 0);
	/* The opener published the round with a 64-bit release of `data`;
	 * st_wait saw its 32-bit half. Acquire the whole word, so what the
	 * other threads did before the barrier is ordered before our return
	 * in the C11 model too (TSan pairs atomics by size and address). */
	(void)__atomic_load_n(&b->data, __ATOMIC_ACQUIRE);
	/* Our last touch of b: destroy waits for `leaving` to drain. */
	depart(b, shared);
	if (t0)
		ST_TRACE(barrier, departure, b, caller, round, st_now_ns() - t0);
	return 0;
}

int st_barrier_destroy(struct st_barrier *b, const void *caller)
{
	int shared = b->shared != 0, v;
	st_set_caller(caller);
	/* Partly gathered: threads are blocked in it. glibc answers EBUSY. */
	if (st_load_relaxed(&b->arrived)) {
		ST_TRACE(barrier, destroy, b, caller, EBUSY, (int)st_load_relaxed(&b->arrived));
		return EBUSY;
	}
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
	ST_TRACE(barrier, destroy, b, caller, 0, 0);
	b->count = 0;
	return 0;
}
