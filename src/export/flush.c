/* synctrace_flush: the program asks for what its threads recorded to be in
 * the trace now (include/synctrace/flush.h): each thread's batched records
 * are written to LTTng's buffers, from which the session keeps them even if
 * the process is killed the next moment. Not tracing: a load and a branch. */
#include "internal/trace.h"
#include "trace/summary.h"

ST_EXPORT int synctrace_flush(void)
{
	if (!st_tracing() || st_load_relaxed(&st_trace_flags) == ST_TRACE_SUMMARY)
		return -1;
	if (!st_trace_enter())
		return -1; /* called from inside the tracer */
	const void *caller = st_tls.caller;
	st_load_acquire(&st_probes_in)->flush();
	st_tls.caller = caller;
	st_trace_leave();
	return 0;
}
