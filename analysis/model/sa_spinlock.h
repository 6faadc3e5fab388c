/* The spinlock model (pthread_spin_*): only contended acquisitions are
 * events (tracepoints/events/spinlock.def). */
#ifndef SA_SPINLOCK_H
#define SA_SPINLOCK_H

#include <stdint.h>

#include "sa_dist.h"

struct sa_spinlock {
	uint64_t contended;
	struct sa_dist spin_ns;     /* time spun until acquired */
	struct sa_dist iterations;
};

#endif
