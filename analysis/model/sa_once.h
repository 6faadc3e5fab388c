/* The once model: one struct sa_once per pthread_once_t / once_flag
 * (sa_object.ext). Only callers that did not find the routine done emit
 * events (tracepoints/events/once.def): run → finished by the runner,
 * wait → waited by callers that found it running. */
#ifndef SA_ONCE_H
#define SA_ONCE_H

#include <stdint.h>

#include "sa_dist.h"

struct sa_once {
	uint64_t runs;          /* run events */
	uint64_t completed;     /* finished, cancelled 0 */
	uint64_t cancelled;     /* finished, cancelled 1: back to not run */
	uint64_t routine;       /* the init routine's address (last run) */
	int32_t runner;         /* vtid whose run completed (0: none yet) */
	int32_t cancelled_runner; /* vtid of the last cancelled run */
	uint64_t run_done_ns;   /* run_ns of the completed run */
	int running;            /* a run not finished (yet, or ever) */
	int32_t cur_runner;
	uint64_t waits;         /* wait events: callers that slept */
	uint64_t waited;        /* waited events */
	uint64_t woken;         /* finished.woken: threads the kernel woke */
	uint64_t sleeping, max_sleeping; /* callers asleep at once */
	uint64_t summarized;    /* waits known from summaries (not in max_sleeping) */
	struct sa_dist run;     /* finished.run_ns (completed and cancelled runs) */
	struct sa_dist wait;    /* waited.wait_ns */
};

#endif
