#ifndef ST_THREAD_TIMES_H
#define ST_THREAD_TIMES_H
#include <stdint.h>

/* The calling thread's CPU time so far (0 if unknown) and its time
 * runnable but waiting for a CPU (-1 if unknown): CLOCK_THREAD_CPUTIME_ID,
 * and for a thread that used 2 ms of CPU or more /proc/thread-self/
 * schedstat for both (src/thread/times.c). errno is kept. */
void st_thread_times(uint64_t *cpu_ns, int64_t *runq_ns);
/* fn(tid, ...) for every other thread of the process still alive (its
 * schedstat read; /proc/self/task listed by system calls). errno is kept. */
void st_other_threads_times(void (*fn)(int tid, uint64_t cpu_ns, int64_t runq_ns));
/* fn(tid, ...) for the calling thread, then every other one alive, what
 * they used before the trace (meta:base; exported for
 * libsynctrace-tp.so, declared in tracepoints/st_probes.h). */
void synctrace_threads_base(void (*fn)(int tid, uint64_t cpu_ns, int64_t runq_ns));

#endif
