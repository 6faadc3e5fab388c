/* The one place synctrace issues the futex system call.
 *
 * Every wait emits synctrace_futex:wait (object, word, expected value,
 * result, time slept) and every wake emits synctrace_futex:wake with the
 * number of threads the kernel says it woke: a wake that woke nobody is a
 * wasted system call, and that is how the report finds them. */
#ifndef ST_FUTEX_H
#define ST_FUTEX_H

#include <time.h>

#include "clock.h" /* st_now_ns, st_mono_ns */
#include "fault.h" /* ST_FAULT_POINT: empty unless built with ST_FAULTS */

/* Results of st_futex_wait, as positive errno values. */
#define ST_FUTEX_WOKEN 0 /* woken by a wake (or a spurious kernel return) */
/* EAGAIN: the word no longer held the expected value; ETIMEDOUT; EINTR */

/* Sleep while *addr == val. abs is an absolute time on clk
 * (CLOCK_REALTIME or CLOCK_MONOTONIC), NULL to sleep without a limit.
 * shared: non-zero for PTHREAD_PROCESS_SHARED objects (no FUTEX_PRIVATE).
 * obj is the synchronization object the word belongs to (trace identity).
 * abs must be valid (see st_timespec_check); a negative tv_sec times out. */
int st_futex_wait(volatile int *addr, int val, int shared, clockid_t clk,
		  const struct timespec *abs, const void *obj);

/* The same wait as a cancellation point (pthread_cond_wait, sem_wait):
 * asynchronous cancellation is enabled around the system call alone, so a
 * cancel there unwinds into the caller's pthread_cleanup_push handler and
 * never from inside a probe; the event is emitted after the call. */
int st_futex_wait_cancel(volatile int *addr, int val, int shared, clockid_t clk,
			 const struct timespec *abs, const void *obj);

/* Wake at most n sleepers of addr; returns how many the kernel woke. */
int st_futex_wake(volatile int *addr, int n, int shared, const void *obj);

/* FUTEX_CMP_REQUEUE: if *addr == val, wake nwake sleepers of addr and move
 * up to nmove of the others to addr2. Returns woken + moved, or -EAGAIN. */
int st_futex_requeue(volatile int *addr, int val, int nwake, int nmove,
		     volatile int *addr2, int shared, const void *obj);

/* The tracer's own wait and wake (trace/ready.c): private, no event, no
 * fault point. abs: CLOCK_MONOTONIC, NULL for none. Returns 0 or an errno. */
int st_futex_wait_untraced(volatile int *addr, int val, const struct timespec *abs);
void st_futex_wake_untraced(volatile int *addr, int n);

/* 0 if abs may be waited on, EINVAL if tv_nsec is outside [0, 1e9). */
static inline int st_timespec_check(const struct timespec *abs)
{
	if (abs && (abs->tv_nsec < 0 || abs->tv_nsec >= 1000000000L))
		return 22; /* EINVAL; errno.h is not needed by every includer */
	return 0;
}

/* 0 for the clocks an absolute futex timeout can use, else EINVAL. */
static inline int st_clock_check(clockid_t clk)
{
	return (clk == CLOCK_REALTIME || clk == CLOCK_MONOTONIC) ? 0 : 22;
}

#endif
