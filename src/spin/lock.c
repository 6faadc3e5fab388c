/* pthread_spin_lock past the first CAS. The state machine is in spinlock.h. */
#include <sys/syscall.h>
#include <unistd.h>

#include "config.h"
#include "internal/futex.h"
#include "spin/spinlock.h"
#include "wait/crowd.h"

/* Pauses between two looks at the crowd hint (wait/crowd.h): ~5 us. */
#define ST_SPINLOCK_YIELD_EVERY 256

int st_spinlock_lock_slow(volatile int *l, const void *caller)
{
	unsigned long long t0 = st_tracing() ? st_now_ns() : 0;
	long n = 0;

	do {
		while (st_load_relaxed(l)) {
			st_cpu_relax();
			/* Held that long on a crowded machine: its owner is
			 * likely queued behind us. Still a spinlock (it never
			 * sleeps on the word), but it lets the owner run. The
			 * raw call: sched_yield is no cancellation point, but
			 * nothing of glibc's runs here. */
			if (++n % ST_SPINLOCK_YIELD_EVERY == 0 && st_spin_crowd &&
			    st_crowded(st_crowd_now()))
				syscall(SYS_sched_yield);
		}
	} while (!st_cas_acquire(l, 0, 1));
	if (t0) {
		st_set_caller(caller);
		st_spinlock_ev_contended((const void *)l, caller,
					 n > 0x7fffffff ? 0x7fffffff : (int)n, st_now_ns() - t0);
	}
	return 0;
}
