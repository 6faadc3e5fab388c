/* pthread_spin_lock past the first CAS. The state machine is in spinlock.h. */
#include "internal/futex.h"
#include "spin/spinlock.h"

int st_spinlock_lock_slow(volatile int *l, const void *caller)
{
	unsigned long long t0 = st_tracing() ? st_now_ns() : 0;
	long n = 0;

	do {
		while (st_load_relaxed(l)) {
			st_cpu_relax();
			n++;
		}
	} while (!st_cas_acquire(l, 0, 1));
	if (t0) {
		st_set_caller(caller);
		st_spinlock_ev_contended((const void *)l, caller,
					 n > 0x7fffffff ? 0x7fffffff : (int)n, st_now_ns() - t0);
	}
	return 0;
}
