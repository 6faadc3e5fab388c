#ifndef ST_THREAD_TIMES_H
#define ST_THREAD_TIMES_H
#include <stdint.h>

/* The calling thread's CPU time so far (0 if unknown) and its time
 * runnable but waiting for a CPU (-1 if unknown): /proc/thread-self/
 * schedstat, else CLOCK_THREAD_CPUTIME_ID for the CPU time alone
 * (src/thread/times.c). errno is kept. */
void st_thread_times(uint64_t *cpu_ns, int64_t *runq_ns);

#endif
