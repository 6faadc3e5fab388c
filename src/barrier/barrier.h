/* Barriers: the object and its state machine.
 *
 * LAYOUT (32 bytes, glibc's pthread_barrier_t; asserts in barrier.c)
 *   off  field     use
 *    0   arrived   threads arrived in the current round  } one 64-bit word,
 *    4   round     bits 0-30: the round number; bit 31:   } `data`; `round`
 *                  ASLEEP, a thread of this round may be  } is the futex
 *                  in a futex wait                        } word
 *    8   count     threads per round (from init)
 *   12   shared    0 private, 128 process-shared
 *   16   leaving   threads of finished rounds still inside wait, plus
 *                  ST_BARRIER_DESTROYER while destroy waits for them
 *   20   spin_misses  waits in a row whose spinning failed: the adaptive
 *                  hand-off spinning hint (wait.h), relaxed loads and stores
 *   24   spare
 *
 * STATES (of data = round:arrived)
 *   GATHERING(r, k)   round r, k < count threads arrived and waiting
 *   FULL(r)           k >= count: the last arrival is opening it; a thread
 *                     arriving now (more threads than count) waits for
 *                     round r+1 and arrives in it
 *   ASLEEP is set in either state by the first waiter that goes to sleep
 *   and cleared only by the opening of the next round.
 *
 * TRANSITIONS (every RMW is on the 64-bit `data` unless it says `leaving`)
 *   from             to                by            atomic                 event
 *   GATHERING(r,k)   GATHERING(r,k+1)  an arrival    fetch_add data+1       arrival
 *                                      (k+1 < count) (acq_rel)
 *   GATHERING(r,c-1) FULL(r)           the last      fetch_add data+1       -
 *                                      arrival       (acq_rel)
 *   FULL(r)          FULL(r)           an extra      fetch_add data+1: sees -
 *                                      arrival       k >= c; its +1 is void
 *                                                    (the opening erases
 *                                                    it); waits for r+1,
 *                                                    then arrives again
 *   FULL(r)          GATHERING(r+1,0)  the last      leaving += c-1, then   released
 *                                      arrival       exchange data with
 *                                      (SERIAL)      (r+1):0 (acq_rel); if
 *                                                    the old word had
 *                                                    ASLEEP, wake all on
 *                                                    `round`
 *   (waiting)        (asleep)          a waiter      CAS data to data |     (futex:wait)
 *                                      that spun     ASLEEP (acquire) if
 *                                      in vain       not set yet, then
 *                                                    futex-wait on
 *                                                    `round` == r|ASLEEP
 *   (waiting)        (left)            a waiter      sees round != r        departure
 *                                                    (acquire load of
 *                                                    data), then
 *                                                    leaving -1 (release)
 *   GATHERING(r,k>0) (unchanged)       destroy       waits as a waiter of   -
 *   or FULL(r)                                       r does (ASLEEP CAS,
 *                                                    futex-wait), without
 *                                                    arriving
 *   (no round        (destroyed)       destroy       leaving |= DESTROYER   destroy
 *   in progress)                                     (CAS), futex-wait
 *                                                    until it is exactly
 *                                                    DESTROYER
 * NO LOST WAKE-UP: a waiter sleeps only while `round` holds r|ASLEEP (the
 * kernel compares). ASLEEP enters round r only by a waiter's CAS whose
 * expected word has round r, and round r ends only by the opener's
 * exchange; both are RMWs of `data`, so one precedes the other in its
 * modification order. CAS first: the exchange returns ASLEEP and the
 * opener wakes after it; a futex wait that compared before the exchange
 * is queued before that wake, one after it sees r+1 and returns. Exchange
 * first: the CAS fails (its expected word is gone), the waiter reloads and
 * sees r+1. A later sleeper that finds ASLEEP already set (in round r)
 * needs no RMW: the exchange comes after that CAS too. ASLEEP is never
 * left in a later round (the CAS expects round r), so a round whose
 * waiters all caught it spinning costs no system call.
 * LIFETIME (glibc 13065): a thread that returns from wait may destroy the
 * barrier at once while others of its round are still inside wait. So
 * every waiter of the round counts in `leaving` until its last access,
 * which is its decrement of `leaving`; destroy sleeps until `leaving` is
 * 0. The opener adds the count-1 waiters before its exchange, which is
 * its own last access: after it, it only wakes by address (the wake of a
 * gone barrier is at worst spurious, or EFAULT) and traces the pointer.
 * The one that brings `leaving` to exactly ST_BARRIER_DESTROYER wakes the
 * destroyer (by address too). Arrivals of the next round may start before
 * the last round has left: `leaving` simply adds them up. A destroy that
 * finds threads blocked in a round (undefined in POSIX) waits, as glibc's
 * does, until other arrivals complete it, and only then drains `leaving`:
 * the waiters of that round are counted there once it has opened. */
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
			volatile int round; /* the futex word */
		};
	};
	unsigned count;
	int shared;
	volatile int leaving;
	volatile int spin_misses;
	int spare[2];
};

#define ST_BARRIER_DESTROYER 0x40000000 /* in `leaving`: destroy is waiting */
#define ST_BARRIER_SHARED 128
#define ST_BARRIER_ASLEEP ((uint64_t)1 << 63) /* in `data`: bit 31 of round */
#define ST_BARRIER_ROUND 0x7fffffffu          /* round numbers wrap at 2^31 */

static inline struct st_barrier *st_barrier(pthread_barrier_t *b)
{
	return (struct st_barrier *)b;
}

int st_barrier_init(struct st_barrier *b, const pthread_barrierattr_t *a, unsigned count,
		    const void *caller);
int st_barrier_wait(struct st_barrier *b, const void *caller);
int st_barrier_destroy(struct st_barrier *b, const void *caller);

#endif
