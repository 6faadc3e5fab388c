/* Spinlocks: pthread_spin_*. Never sleep: a spinlock is a promise to hold
 * it for a few instructions, and its users chose spinning.
 *
 * LAYOUT (4 bytes, glibc's pthread_spinlock_t, a plain int)
 *   0 free, 1 held — glibc's values, so a lock set to 0 by hand (as glibc
 *   programs do instead of pthread_spin_init) is a free lock.
 *
 * STATES      word
 *   FREE      0
 *   HELD      1
 *
 * TRANSITIONS
 *   from   to     by       atomic                         event
 *   FREE   HELD   locker   CAS 0→1 (acquire)              none (first try)
 *   FREE   HELD   locker   CAS 0→1 after spinning on a    contended (iterations,
 *                          relaxed load (test-and-test-   spin_ns)
 *                          and-set, no bus locking while
 *                          it is held; sched_yield every
 *                          256 pauses while the machine
 *                          is crowded, wait/crowd.h)
 *   HELD   FREE   owner    store 0 (release)              none
 * The unlocker's store is its last access: the next owner may free it.
 * No owner is recorded (glibc records none; unlock by another thread is
 * allowed to "work" there, and does here). */
#ifndef ST_SPINLOCK_H
#define ST_SPINLOCK_H

#include <pthread.h>

#include "internal/atomic.h"
#include "internal/trace.h"

int st_spinlock_lock_slow(volatile int *l, const void *caller);

static inline int st_spinlock_trylock(volatile int *l)
{
	return st_load_relaxed(l) == 0 && st_cas_acquire(l, 0, 1);
}

static inline int st_spinlock_lock(volatile int *l, const void *caller)
{
	if (st_likely(st_cas_acquire(l, 0, 1)))
		return 0;
	return st_spinlock_lock_slow(l, caller);
}

#endif
