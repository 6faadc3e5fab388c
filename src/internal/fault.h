/* Fault injection for the test suite (CMake option ST_FAULTS=ON only; in
 * normal builds every hook below is an empty statement, so no hot path
 * changes).
 *
 *   SYNCTRACE_FAULTS=spurious:P,eintr:P,delay:P     (P: percent, 0-100)
 *     spurious  a futex wait returns 0 at once, without sleeping
 *     eintr     a futex wait returns EINTR at once
 *     delay     at each ST_FAULT_POINT (the race windows: after enqueue,
 *               before the LEAVING CAS, between unlock and wake, ...) and
 *               before each futex call: a yield or a short sleep
 *
 * ST_FAULT_POINT(name) marks a race window; name says which (it is only
 * documentation and a grep target). */
#ifndef ST_FAULT_H
#define ST_FAULT_H

#ifdef ST_FAULTS
enum st_fault { ST_FAULT_SPURIOUS, ST_FAULT_EINTR, ST_FAULT_DELAY, ST_FAULT_N };

/* Non-zero, with the configured probability, if fault f should fire now. */
int st_fault(enum st_fault f);
/* Yield or sleep a little, with the configured delay probability. */
void st_fault_delay(void);

#define ST_FAULT_POINT(name) st_fault_delay()
#else
#define ST_FAULT_POINT(name) ((void)0)
#endif

#endif
