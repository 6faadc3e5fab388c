/* Mutexes: the object, its state machine, and the fast paths.
 *
 * LAYOUT (40 bytes, glibc's pthread_mutex_t; asserts in init.c)
 *   off  field         glibc's name   use
 *    0   lock          __lock         the lock word, below
 *    4   count         __count        recursive type: depth beyond the first lock
 *    8   waiters       __owner        threads in the sleep loop (announce, sleep, leave)
 *   12   acq_ns_lo     __nusers       full level: when the holder took it (low half)
 *   16   kind          __kind         glibc's encoding, so its static initialisers work:
 *                                     type (0 normal, 1 recursive, 2 errorcheck,
 *                                     3 adaptive) | 128 pshared | 16 robust | 32 PI |
 *                                     64 PP; -1 after destroy
 *   20   acq_ns_hi     __spins...     (high half), written by the holder only
 *   24   acquisitions  __list.__prev  counter, written only by the holder
 *   32   contended     __list.__next  counter of slow-path acquisitions, holder only
 *   36   acq_how                      full level: how the holder took it (0 lock,
 *                                     3 trylock), for `released`; holder only
 * Robust, PI and PP mutexes are glibc's own objects (forward.c): glibc keeps
 * the robust list the kernel walks; we only trace around its calls.
 *
 * THE LOCK WORD
 *   bits 0-29  owner tid, 0 when free
 *   bit 31     ST_MUTEX_SLEEPERS: a thread may be asleep on the word
 *
 * STATES                                       lock word
 *   FREE        nobody holds it                 0
 *   HELD        held, nobody asleep              tid
 *   CONTENDED   held, sleepers may be queued     tid | SLEEPERS
 *
 * TRANSITIONS
 *   from        to         by       atomic                      event
 *   FREE        HELD       locker   CAS 0→tid (acquire)         acquired (fast: full level;
 *                                                               spin/sleep: after `requested`)
 *   FREE        CONTENDED  thread   CAS 0→tid|SLEEPERS          acquired (how = sleep)
 *                          in the
 *                          sleep loop
 *   HELD        CONTENDED  sleeper  CAS tid→tid|SLEEPERS        futex:wait follows
 *   HELD        FREE       owner    swap →0 (release)           released (full level)
 *   CONTENDED   FREE       owner    swap →0 (release), then     released, futex:wake
 *                                   wake one
 * Who wakes: only an unlock whose swap returned SLEEPERS. A sleeper sets the
 * bit itself (CAS on a held word) before every sleep, so a wake cannot be
 * lost: either the owner's swap sees the bit, or the sleeper's CAS fails on
 * the changed word and it looks again. A thread that takes the lock from
 * the sleep loop sets SLEEPERS again, as glibc's does, so its own unlock
 * wakes the next sleeper if there is one, and costs one wake that finds
 * nobody if there is not (doc/mutex.md: why not only when others surely
 * wait). A thread that takes a FREE word without the bit (a spinner, a
 * newcomer) owes nobody a wake: the one it beat was woken and is awake,
 * and will set the bit on the new owner's word before it sleeps again. So
 * a barging owner that unlocks and relocks does not wake a second sleeper
 * each time, and the unlocker never reads the mutex after its swap: the
 * next owner may destroy and free it (glibc bug 13690). A wake on a freed
 * address is a harmless spurious wake for whoever reuses it.
 * `waiters` counts threads inside the sleep loop (atomic inc before the
 * first sleep, dec once they hold the lock or time out); the bail spin
 * strategy stops spinning when it is non-zero.
 *
 * Counters: `acquisitions` and `contended` are plain fields written by the
 * holder only, under the lock itself: no extra atomic on any path.
 *
 * Full level: an uncontended lock emits no event; it stamps acq_ns, and the
 * unlock emits one `released` event carrying that stamp: the hold is the
 * event's timestamp minus it (both CLOCK_MONOTONIC), so the unlock reads no
 * clock itself (lttng-ust reads one for the event anyway). One event per
 * pair instead of two halves the tracing cost of the common case. */
#ifndef ST_MUTEX_H
#define ST_MUTEX_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "internal/atomic.h"
#include "internal/futex.h"
#include "internal/tls.h"
#include "internal/trace.h"

struct st_mutex {
	volatile int lock;
	unsigned count;
	volatile int waiters;
	uint32_t acq_ns_lo;
	int kind;
	uint32_t acq_ns_hi;
	uint64_t acquisitions;
	uint32_t contended;
	uint32_t acq_how;
};

#define ST_MUTEX_SLEEPERS ((int)0x80000000u)
#define ST_MUTEX_TID_MASK 0x3fffffff

#define ST_MUTEX_TYPE_MASK 3
#define ST_MUTEX_PSHARED 128
#define ST_MUTEX_FORWARDED (16 | 32 | 64) /* robust | PI | PP: glibc's */
#define ST_MUTEX_ELISION (256 | 512)       /* glibc tunables; ignored */
#define ST_MUTEX_DESTROYED (-1)

/* One of ours (not glibc's robust/PI/PP, not destroyed, not garbage). */
static inline int st_mutex_ours(int kind)
{
	return !(kind & ~(ST_MUTEX_TYPE_MASK | ST_MUTEX_PSHARED | ST_MUTEX_ELISION));
}


/* Codes (`how`, `what`): enum st_mutex_how, st_mutex_misuse in
 * tracepoints/events/mutex.def. */

static inline struct st_mutex *st_mutex(pthread_mutex_t *m)
{
	return (struct st_mutex *)m;
}

/* Slow paths (lock.c, unlock.c, trylock.c). abs NULL: no timeout. */
int st_mutex_lock_relock(struct st_mutex *m, const void *caller, unsigned long long *span);
int st_mutex_lock_slow(struct st_mutex *m, clockid_t clk,
		       const struct timespec *abs, const void *caller);
int st_mutex_unlock_slow(struct st_mutex *m, int old, const void *caller);
int st_mutex_trylock_slow(struct st_mutex *m, const void *caller);
/* The sleep loop for a thread counted in m->waiters (lock.c). */
int st_mutex_sleep(struct st_mutex *m, int self, clockid_t clk,
		   const struct timespec *abs, int *sleeps);

/* Robust / PI / PP: glibc's functions (forward.c). */
int st_mutex_forward_lock(pthread_mutex_t *m, clockid_t clk,
			  const struct timespec *abs, int timed, const void *caller);
int st_mutex_forward_trylock(pthread_mutex_t *m, const void *caller);
int st_mutex_forward_unlock(pthread_mutex_t *m, const void *caller);
int st_mutex_forward_init(pthread_mutex_t *m, const pthread_mutexattr_t *a);
int st_mutex_forward_destroy(pthread_mutex_t *m);

/* For condition variables (cond_support.c; protocol in src/cond/cond.h).
 * check: EPERM if a type that checks ownership is not held by the caller.
 * requeueable: 1 if a condvar waiter may be requeued onto the lock word.
 * handoff: the holder counts a thread about to be requeued onto the word
 * in `waiters` and sets SLEEPERS; 0 if the mutex cannot take requeues.
 * relock: re-acquire after a wait; counted: the caller was counted by a
 * handoff (it drops that count); *contended: it could not take it at once;
 * span (traced, else NULL): the durations' clock when it began to wait for
 * the mutex (span[0]) and when it had it (span[1]), both 0 if it took it
 * at its first attempt (one CAS: nothing waited, and no clock is read for
 * it); span[1] may be 0 after a wait too: then the caller reads the end.
 * The lock's own wait (lock.c, lock_slow) gives both: its start is the
 * one its spin and its `acquired` record take, its end the spin's last
 * moment, so a relock that waits in the lock reads the clock twice, not
 * four times. A requeued waiter's (counted) gives its start only. */
int st_mutex_cond_check(pthread_mutex_t *m);
int st_mutex_cond_requeueable(pthread_mutex_t *m);
int st_mutex_cond_held(pthread_mutex_t *m); /* ours, private, held by the caller */
int st_mutex_cond_handoff(pthread_mutex_t *m);
int st_mutex_cond_relock(pthread_mutex_t *m, int counted, const void *caller,
			 int *contended, unsigned long long *span);

/* Full level: note when and how the holder took the mutex (holder only).
 * The time is CLOCK_MONOTONIC's, not the durations' clock: the analyzer
 * subtracts it from the released event's timestamp (mutex.def). */
static inline void st_mutex_stamp_how(struct st_mutex *m, uint32_t how)
{
	if (st_tracing_full()) {
		unsigned long long t = st_mono_ns();
		m->acq_ns_lo = (uint32_t)t;
		m->acq_ns_hi = (uint32_t)(t >> 32);
		m->acq_how = how;
	}
}

static inline void st_mutex_stamp(struct st_mutex *m)
{
	st_mutex_stamp_how(m, ST_MUTEX_HOW_FAST);
}

/* When the holder took it (st_mutex_stamp), 0 if not stamped (holder only). */
static inline uint64_t st_mutex_acq_ns(const struct st_mutex *m)
{
	return (uint64_t)m->acq_ns_hi << 32 | m->acq_ns_lo;
}

/* The acquisitions counter, for a condvar waiter that holds m (its enqueued
 * and relocked events: the same value twice means it never released m in
 * between); 0 for glibc's robust/PI/PP objects, which keep none. The
 * holder alone writes it, so the holder reads it stable. */
static inline uint64_t st_mutex_cond_acquisitions(pthread_mutex_t *pm)
{
	struct st_mutex *m = st_mutex(pm);
	return st_mutex_ours(m->kind) ? m->acquisitions : 0;
}

/* Trylock: the uncontended normal private mutex is one CAS and a counter. */
static inline int st_mutex_trylock(struct st_mutex *m, const void *caller)
{
	if (st_likely(m->kind == 0) && st_cas_acquire(&m->lock, 0, st_tid())) {
		m->acquisitions++;
		st_mutex_stamp_how(m, ST_MUTEX_HOW_TRYLOCK);
		return 0;
	}
	return st_mutex_trylock_slow(m, caller);
}

/* Lock: the uncontended normal private mutex is one CAS and a counter. */
static inline int st_mutex_lock(struct st_mutex *m, clockid_t clk,
				const struct timespec *abs, const void *caller)
{
	if (st_likely(m->kind == 0)) {
		int self = st_tid();
		if (st_likely(st_cas_acquire(&m->lock, 0, self))) {
			/* We hold it: the counter is ours to write. */
			m->acquisitions++;
			st_mutex_stamp(m);
			return 0;
		}
	}
	return st_mutex_lock_slow(m, clk, abs, caller);
}

/* Unlock: swap, then look at the old value (after the swap the mutex may
 * already be gone; only its address is used). */
static inline int st_mutex_unlock(struct st_mutex *m, const void *caller)
{
	if (st_likely(m->kind == 0) && !st_tracing_full()) {
		int self = st_tid();
		int old = st_swap_release(&m->lock, 0);
		if (st_likely(old == self))
			return 0;
		return st_mutex_unlock_slow(m, old, caller);
	}
	return st_mutex_unlock_slow(m, -1, caller);
}

#endif
