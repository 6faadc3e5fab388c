/* synctrace_work_done: the program declares units of useful work
 * (include/synctrace/work.h), recorded as synctrace_work:done so the
 * reports can give wakeups per unit. Not tracing: a load and a branch. */
#include <stdint.h>

#include "internal/trace.h"

ST_EXPORT void synctrace_work_done(unsigned long units)
{
	if (st_tracing()) {
		const void *caller = ST_CALLER();
		st_set_caller(caller);
		st_work_ev_done(caller, (uint64_t)units);
	}
}
