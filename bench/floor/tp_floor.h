/* The LTTng-UST provider of tp_floor.c: one event with the fields of
 * synctrace_mutex:released (tracepoints/events/mutex.def), and one with
 * none. Keep `released` in step with mutex.def. */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER st_floor

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./tp_floor.h"

#if !defined(ST_TP_FLOOR_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define ST_TP_FLOOR_H

#include <stdint.h>
#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(st_floor, released,
	LTTNG_UST_TP_ARGS(const void *, obj, const void *, caller, int, waiters, int, woken,
			  uint64_t, acquisitions, uint64_t, acq_ts, int, acq_how),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uint64_t, obj, (uint64_t)(uintptr_t)obj)
		lttng_ust_field_integer_hex(uint64_t, caller, (uint64_t)(uintptr_t)caller)
		lttng_ust_field_integer(int, waiters, waiters)
		lttng_ust_field_integer(int, woken, woken)
		lttng_ust_field_integer(uint64_t, acquisitions, acquisitions)
		lttng_ust_field_integer(uint64_t, acq_ts, acq_ts)
		lttng_ust_field_integer(int, acq_how, acq_how)))

LTTNG_UST_TRACEPOINT_EVENT(st_floor, empty, LTTNG_UST_TP_ARGS(), LTTNG_UST_TP_FIELDS())

#endif

#include <lttng/tracepoint-event.h>
