/* SYNCTRACE_THRESHOLD: the probes (tracepoints/batch.c) hold a wait's
 * records until it ends, and hand those of a short wait here, one
 * by one, for the summary level's aggregators (src/trace/summary.h)
 * instead of recording them. */
#include <stdint.h>

#include "internal/trace.h"
#include "trace/summary.h"

ST_EXPORT int synctrace_summarize(unsigned evi, const uint64_t *a)
{
	return st_summary_take(evi, a);
}
