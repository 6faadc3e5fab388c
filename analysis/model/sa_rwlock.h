/* The rwlock model: one struct sa_rwlock per read-write lock (ext).
 * `how` as in the mutex (tracepoints/events/rwlock.def); side 0 read,
 * 1 write. */
#ifndef SA_RWLOCK_H
#define SA_RWLOCK_H

#include <stdint.h>

#include "sa_dist.h"

#define SA_RW_HOW_N 4 /* 0 at once, 1 spinning, 2 after sleeping, 3 try */

struct sa_rwlock {
	int init_seen, kind;
	uint64_t acquired[2], how[2][SA_RW_HOW_N];
	uint64_t requested[2], timeouts[2], trylock_failed[2];
	uint64_t releases, release_wakes, release_wasted, drained, drained_wasted;
	uint64_t writer_waits, misuse;
	struct sa_dist wait[2];  /* wait_ns of acquisitions that waited, per side */
	uint64_t timeout_wait_ns;
	struct sa_dist hold[2];  /* full level: hold times per side */
	int have_writer;         /* write hold in progress: by writer since wr_since */
	uint32_t writer;         /* model thread index */
	int64_t wr_since;
};

#endif
