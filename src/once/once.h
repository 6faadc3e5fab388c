/* pthread_once and C11 call_once.
 *
 * LAYOUT: the 4-byte int of glibc's pthread_once_t / once_flag; both
 * initialisers are 0.
 *
 * STATES      word
 *   NEVER     0     the routine has not run (or its run was cancelled)
 *   RUNNING   1     one caller runs it, nobody waits
 *   WAITED    2     one caller runs it, others may sleep on the word
 *   DONE      3     it ran to completion
 *
 * TRANSITIONS
 *   from      to       by               atomic                   event
 *   DONE      DONE     any caller       load (acquire)           none
 *   NEVER     RUNNING  the first caller CAS 0→1 (acquire)        run
 *   RUNNING   WAITED   a later caller   CAS 1→2, then futex-wait wait
 *   WAITED    WAITED   a later caller   futex-wait on 2          wait
 *   RUNNING/  DONE     the runner       swap →3 (release); wake  finished (cancelled 0)
 *   WAITED                              all if it was WAITED
 *   RUNNING/  NEVER    the runner,      swap →0 (release); wake  finished (cancelled 1)
 *   WAITED             cancelled, or    all if it was WAITED: a
 *                      its routine      woken caller runs it
 *                      threw (cleanup
 *                      handler)
 * The cleanup handler runs on any unwind through the routine: once.c is
 * built with -fexceptions (CMakeLists.txt), so a C++ exception resets the
 * once on its way to the caller, as glibc's does.
 * Waiters return once they read DONE (acquire: the routine's effects are
 * theirs). The once object is static in practice; it is read after the
 * swap only by address (the wake). A fork while RUNNING leaves the child's
 * word RUNNING (glibc resets it with a fork generation; we do not). */
#ifndef ST_ONCE_H
#define ST_ONCE_H

#include "internal/atomic.h"
#include "internal/trace.h"

enum st_once_state {
	ST_ONCE_NEVER = 0,   /* not run, or the run was cancelled */
	ST_ONCE_RUNNING = 1, /* being run, no waiters */
	ST_ONCE_WAITED = 2,  /* being run, waiters may sleep */
	ST_ONCE_DONE = 3,    /* ran to completion */
};

int st_once_slow(volatile int *once, void (*fn)(void), const void *caller);

static inline int st_once(volatile int *once, void (*fn)(void), const void *caller)
{
	if (st_likely(st_load_acquire(once) == ST_ONCE_DONE))
		return 0;
	return st_once_slow(once, fn, caller);
}

#endif
