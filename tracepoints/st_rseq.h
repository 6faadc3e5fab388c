/* The calling thread's CPU, for the counters read per CPU: the durations'
 * (src/internal/clock.h) and the records' (tracepoints/batch.h).
 *
 * glibc's rseq area (2.35 on): the thread's struct rseq is at the thread
 * pointer plus __rseq_offset; its cpu_id (offset 4) is -1 where the
 * thread is not registered. A TLS load, where sched_getcpu costs ~20 ns.
 * The kernel rewrites it on the way back to the thread after a migration,
 * which is an interrupt's boundary: a count read between two loads that
 * agree was read on that CPU. Only where __rseq_size >= 8 (checked before
 * the per-CPU mode is chosen: src/internal/clock.c). */
#ifndef ST_RSEQ_H
#define ST_RSEQ_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));
static inline int st_rseq_cpu(void)
{
	return __atomic_load_n((const int32_t *)((char *)__builtin_thread_pointer() +
						 __rseq_offset + 4),
			       __ATOMIC_RELAXED);
}
#endif

#endif
