/* The mutex family's events: each tracepoint has exactly one call site,
 * here (STYLE.md rule 4); the transitions call these. Fields are documented
 * in tracepoints/events/mutex.def and tracepoints/EVENTS.md. */
#ifndef ST_MUTEX_EVENTS_H
#define ST_MUTEX_EVENTS_H

#include <stdint.h>

#include "internal/trace.h"

static inline void st_mutex_ev_init(const void *m, const void *caller, int kind)
{
	ST_TRACE(mutex, init, m, caller, kind);
}

static inline void st_mutex_ev_destroy(const void *m, const void *caller, int result,
				       uint64_t acquisitions, uint32_t contended)
{
	ST_TRACE(mutex, destroy, m, caller, result, acquisitions, contended);
}

static inline void st_mutex_ev_requested(const void *m, const void *caller, int owner,
					 int waiters)
{
	ST_TRACE(mutex, requested, m, caller, owner, waiters);
}

static inline void st_mutex_ev_acquired(const void *m, const void *caller, int how,
					int spins, int sleeps, uint64_t wait_ns,
					uint64_t acquisitions, uint32_t contended)
{
	ST_TRACE(mutex, acquired, m, caller, how, spins, sleeps, wait_ns, acquisitions,
		 contended);
}

static inline void st_mutex_ev_released(const void *m, const void *caller, int waiters,
					int woken, uint64_t acquisitions, uint64_t acq_ts,
					int acq_how)
{
	ST_TRACE(mutex, released, m, caller, waiters, woken, acquisitions, acq_ts, acq_how);
}

static inline void st_mutex_ev_trylock_failed(const void *m, const void *caller,
					      int result, int owner)
{
	ST_TRACE(mutex, trylock_failed, m, caller, result, owner);
}

static inline void st_mutex_ev_timeout(const void *m, const void *caller, int sleeps,
				       uint64_t wait_ns)
{
	ST_TRACE(mutex, timeout, m, caller, sleeps, wait_ns);
}

static inline void st_mutex_ev_misuse(const void *m, const void *caller, int what,
				      int owner)
{
	ST_TRACE(mutex, misuse, m, caller, what, owner);
}

static inline void st_mutex_ev_counters(const void *m, uint64_t acquisitions,
					uint32_t contended)
{
	ST_TRACE(mutex, counters, m, acquisitions, contended);
}

#endif
