/* Barriers: the object and its state machine.
 *
 * LAYOUT (32 bytes, glibc's pthread_barrier_t; asserts in barrier.c)
 *   off  field     use
 *    0   arrived   threads arrived in the current round  } one 64-bit word,
 *    4   round     the round number; the futex word       } `data`
 *    8   count     threads per round (from init)
 *   12   shared    0 private, 128 process-shared
 *   16   leaving   threads of finished rounds still inside wait, plus
 *                  ST_BARRIER_DESTROYER while destroy waits for them
 *   20   sleepers  threads in st_wait's sleep loop (spin strategy `bail`)
 *   24   spin_misses  waits in a row whose spinning failed: the adaptive
 *                  hand-off spinning hint (wait.h), relaxed loads and stores
 *   28   spare
 *
 * STATES (of data = round:arrived)
 *   GATHERING(r, k)   round r, k < count threads arrived and waiting
 *   FULL(r)           k == count: the last arrival is opening it; a thread
 *                     arriving now (more threads than count) waits for
 *                     round r+1 and arrives in it
 *
 * TRANSITIONS
 *   from             to                by            atomic                 event
 *   GATHERING(r,k)   GATHERING(r,k+1)  an arrival    CAS data+1 (acq_rel)   arrival
 *                                      (k+1 < count)
 *   GATHERING(r,c-1) FULL(r)           the last      CAS data+1 (acq_rel)   -
 *   FULL(r)          GATHERING(r+1,0)  the last      leaving += c, then     released
 *                                      arrival       store data (seq_cst),
 *                                      (SERIAL)      load sleepers (seq_cst),
 *                                                    wake all on `round`
 *                                                    only if it is != 0, then
 *                                                    leaving -1 (release)
 *   (waiting)        (left)            a waiter      sees round != r        departure
 *                                                    (acquire), then
 *                                                    leaving -1 (release)
 *   (waiting)        (asleep)          a waiter      sleepers +1, load      (futex:wait)
 *                                      that spun     round (both seq_cst),
 *                                      in vain       futex-wait on round r
 * Waiters spin first (a hand-off wait, wait.h), then count themselves in
 * `sleepers` and look at `round` once more (both seq_cst) before each
 * futex wait; so either that look sees the new round or the opener's look
 * at `sleepers` after its store sees them, and a round whose waiters all
 * caught it spinning costs no system call.
 * LIFETIME (glibc 13065): a thread that returns from wait may destroy the
 * barrier at once while others of its round are still inside wait. So
 * every thread of the round, the opener included, counts in `leaving`
 * until its last access, which is its decrement of `leaving`; destroy
 * sleeps until `leaving` is 0. The one that brings `leaving` to exactly
 * ST_BARRIER_DESTROYER wakes the destroyer (by address: it may be gone).
 * Arrivals of the next round may start before the last round has left:
 * `leaving` simply adds them up. */
#ifndef ST_BARRIER_H
#define ST_BARRIER_H

#include <pthread.h>
#include <stdint.h>

#include "internal/atomic.h"
#include "internal/trace.h"

struct st_barrier {
	union {
		volatile uint64_t data; /* round:arrived */
		struct {
			volatile unsigned arrived;
			volatile int round;
		};
	};
	unsigned count;
	int shared;
	volatile int leaving;
	volatile int sleepers;
	volatile int spin_misses;
	int spare;
};

#define ST_BARRIER_DESTROYER 0x40000000 /* in `leaving`: destroy is waiting */
#define ST_BARRIER_SHARED 128

static inline struct st_barrier *st_barrier(pthread_barrier_t *b)
{
	return (struct st_barrier *)b;
}

int st_barrier_init(struct st_barrier *b, const pthread_barrierattr_t *a, unsigned count,
		    const void *caller);
int st_barrier_wait(struct st_barrier *b, const void *caller);
int st_barrier_destroy(struct st_barrier *b, const void *caller);

#endif
