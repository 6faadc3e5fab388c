/* synctrace_flush: the program asks for what its threads recorded to be in
 * the trace now (include/synctrace/flush.h): each thread's batched records
 * are written to LTTng's buffers, from which the session keeps them even if
 * the process is killed the next moment. Not tracing: a load and a branch. */
#include "internal/trace.h"

ST_EXPORT int synctrace_flush(void)
{
	return st_trace_flush();
}
