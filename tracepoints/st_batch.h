/* Batched records (trace formats 3 and 4): shared by the probes that write them
 * (tracepoints/batch.c) and the analyzer that reads them (analysis/bt2).
 * The layout of a record is in tracepoints/events/batch.def. */
#ifndef ST_BATCH_H
#define ST_BATCH_H

#include <stdint.h>

/* The trace format of a batched recording (meta:start's format_major):
 * readers of format 2 do not know synctrace_batch:records and must refuse
 * it rather than report a trace with most of its events missing. 4: a
 * spin that acquired a semaphore, mutex or rwlock writes no spin:loop, its
 * acquired event (how SPIN) stands for it, a barrier's departure for the
 * spin that saw its round open, a condvar's woke for the one that saw the
 * waiter released (src/wait/wait.h, st_spin_from_folded):
 * readers of format 3 would count those spins nowhere, so they refuse it
 * too. */
#define ST_BATCH_FORMAT_MAJOR 4

/* A record's event: FNV-1a of "family:event" (never 0), so a reader maps
 * it to its own event list whatever order either build has. */
static inline uint32_t st_batch_hash(const char *fam_ev)
{
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)fam_ev; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h ? h : 1;
}

/* Readers hold events this long behind the newest one seen before they
 * feed them in time order: a record reaches the trace about 2 × 10 ms
 * after it happened (tracepoints/batch.c), this leaves room for a loaded
 * machine's scheduling delays. */
#define ST_MERGE_NS 100000000LL

#define ST_BATCH_HEAD(hash, n) ((uint64_t)(hash) << 32 | (uint32_t)(n))
#define ST_BATCH_HASH_OF(w0) ((uint32_t)((w0) >> 32))
#define ST_BATCH_N_OF(w0) ((uint32_t)(w0))

#endif
