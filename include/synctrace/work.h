/* synctrace/work.h: tell synctrace when the program has done useful work,
 * so `synctrace report` gives wakeups per unit of work (table wakes.work).
 *
 *   #include <synctrace/work.h>
 *   ...
 *   process(item);
 *   synctrace_work(1);        // or synctrace_work(n) after a batch of n
 *
 * The program needs nothing else: synctrace_work_done is a weak reference,
 * resolved when libsynctrace.so is loaded (LD_PRELOAD by `synctrace run`
 * or `synctrace record`, or linked); without it the call is a test of a
 * null pointer. With synctrace loaded but not tracing, it is a load and a
 * branch; while tracing, each call records one event (synctrace_work:done),
 * so count batches rather than tiny items on very hot paths.
 *
 * The weak reference is resolved at run time in position-independent
 * executables (the default of Debian's and most distributions' compilers);
 * a -no-pie executable also needs -Wl,-z,dynamic-undefined-weak, or must
 * link libsynctrace.so. Units are per thread: the report divides each
 * thread's wakeups by its own units and the process's by the sum. */
#ifndef SYNCTRACE_WORK_H
#define SYNCTRACE_WORK_H

#ifdef __cplusplus
extern "C" {
#endif

/* Exported by libsynctrace.so. */
extern void synctrace_work_done(unsigned long units) __attribute__((weak));

/* The calling thread finished `units` units of work. */
static inline void synctrace_work(unsigned long units)
{
	if (synctrace_work_done)
		synctrace_work_done(units);
}

#ifdef __cplusplus
}
#endif

#endif
