/* Mutexes: the object, its state machine, and the fast paths.
 *
 * LAYOUT (40 bytes, glibc's pthread_mutex_t; asserts in mutex_layout.c)
 *   off  field         glibc's name   use
 *    0   lock          __lock         the lock word, below
 *    4   count         __count        recursive type: depth beyond the first lock
 *    8   waiters       __owner        threads in the sleep loop (announce, sleep, leave)
 *   12   spare         __nusers       unused (0)
 *   16   kind          __kind         glibc's encoding, so its static initialisers work:
 *                                     type (0 normal, 1 recursive, 2 errorcheck,
 *                                     3 adaptive) | 128 pshared | 16 robust | 32 PI |
 *                                     64 PP; -1 after destroy
 *   20   spare2        __spins...     unused
 *   24   acquisitions  __list.__prev  counter, written only by the holder
 *   32   contended     __list.__next  counter of slow-path acquisitions, holder only
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
 *   FREE        CONTENDED  sleeper  CAS 0→tid|SLEEPERS, when    acquired (how = sleep)
 *                          woken    others are in the sleep loop
 *   HELD        CONTENDED  sleeper  CAS tid→tid|SLEEPERS        futex:wait follows
 *   HELD        FREE       owner    swap →0 (release)           released (full level)
 *   CONTENDED   FREE       owner    swap →0 (release), then     released, futex:wake
 *                                   wake one
 * Who wakes: only an unlock whose swap returned SLEEPERS. A sleeper sets the
 * bit itself (CAS on a held word) before every sleep, so a wake cannot be
 * lost: either the owner's swap sees the bit, or the sleeper's CAS fails on
 * the changed word and it looks again. A woken thread that takes the lock
 * while others are in the sleep loop (`waiters` > 1: asleep, or about to
 * be) sets SLEEPERS again, so its own unlock wakes the next. A thread that
 * takes a FREE word without the bit (a spinner, a newcomer) owes nobody a
 * wake: the one it beat was woken and is awake, and will set the bit on the
 * new owner's word before it sleeps again. So a barging owner that unlocks
 * and relocks does not wake a second sleeper each time (the wasted wakes of
 * the 2014 seed), and the unlocker never reads the mutex after its swap:
 * the next owner may destroy and free it (glibc 13690). A wake on a freed
 * address is a harmless spurious wake for whoever reuses it.
 * `waiters` counts threads inside the sleep loop (atomic inc before the
 * first sleep, dec once they hold the lock or time out); the bail spin
 * strategy stops spinning when it is non-zero.
 *
 * Counters: `acquisitions` and `contended` are plain fields written by the
 * holder only, under the lock itself: no extra atomic on any path. */
#ifndef ST_MUTEX_H
#define ST_MUTEX_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "internal/atomic.h"
#include "internal/tls.h"
#include "internal/trace.h"

struct st_mutex {
	volatile int lock;
	unsigned count;
	volatile int waiters;
	int spare;
	int kind;
	int spare2;
	uint64_t acquisitions;
	uint32_t contended;
	uint32_t spare3;
};

#define ST_MUTEX_SLEEPERS ((int)0x80000000u)
#define ST_MUTEX_TID_MASK 0x3fffffff

#define ST_MUTEX_TYPE_MASK 3
#define ST_MUTEX_PSHARED 128
#define ST_MUTEX_FORWARDED (16 | 32 | 64) /* robust | PI | PP: glibc's */
#define ST_MUTEX_ELISION (256 | 512)       /* glibc tunables; ignored */
#define ST_MUTEX_DESTROYED (-1)

/* `how` of the acquired event. */
enum st_mutex_how {
	ST_HOW_FAST = 0,      /* uncontended CAS (full level) */
	ST_HOW_SPIN = 1,      /* while spinning */
	ST_HOW_SLEEP = 2,     /* after one or more futex sleeps */
	ST_HOW_TRYLOCK = 3,   /* trylock succeeded (full level) */
	ST_HOW_FORWARDED = 4, /* glibc's robust/PI/PP code */
	ST_HOW_RECURSIVE = 5, /* recursive re-lock (full level) */
};

/* `what` of the misuse event. */
enum st_mutex_misuse {
	ST_MISUSE_UNLOCK_NOT_OWNER = 1, /* unlock by a thread that does not hold it */
	ST_MISUSE_UNLOCK_UNLOCKED = 2,  /* unlock of a free mutex */
	ST_MISUSE_DESTROY_LOCKED = 3,   /* destroy while held (EBUSY) */
	ST_MISUSE_RELOCK_OWNER = 4,     /* normal mutex relocked by its owner: self-deadlock */
	ST_MISUSE_USE_DESTROYED = 5,    /* any operation after destroy (EINVAL) */
};

static inline struct st_mutex *st_mutex(pthread_mutex_t *m)
{
	return (struct st_mutex *)m;
}

/* Slow paths (lock.c, unlock.c, trylock.c). abs NULL: no timeout. */
int st_mutex_lock_slow(struct st_mutex *m, clockid_t clk,
		       const struct timespec *abs, const void *caller);
int st_mutex_unlock_slow(struct st_mutex *m, int old, const void *caller);
int st_mutex_trylock_slow(struct st_mutex *m, const void *caller);

/* Robust / PI / PP: glibc's functions (forward.c). */
int st_mutex_forward_lock(pthread_mutex_t *m, clockid_t clk,
			  const struct timespec *abs, int timed, const void *caller);
int st_mutex_forward_trylock(pthread_mutex_t *m, const void *caller);
int st_mutex_forward_unlock(pthread_mutex_t *m, const void *caller);
int st_mutex_forward_init(pthread_mutex_t *m, const pthread_mutexattr_t *a);
int st_mutex_forward_destroy(pthread_mutex_t *m);

/* Lock: the uncontended normal private mutex is one CAS and a counter. */
static inline int st_mutex_lock(struct st_mutex *m, clockid_t clk,
				const struct timespec *abs, const void *caller)
{
	if (st_likely(m->kind == 0)) {
		int self = st_tid();
		if (st_likely(st_cas_acquire(&m->lock, 0, self))) {
			/* We hold it: the counter is ours to write. */
			uint64_t n = ++m->acquisitions;
			ST_TRACE_FULL(caller, mutex, acquired, m, caller, ST_HOW_FAST,
				      0, 0, 0, n, m->contended);
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
