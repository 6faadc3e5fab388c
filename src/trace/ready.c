/* The wait for lttng-ust's registration at a process's first event
 * (ready.h has the why and the states). */
#include "trace/ready.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal/futex.h"
#include "internal/trace.h"

int st_ready_mode = -1;
struct st_sem *st_ready_sem;
struct st_sem *st_ready_ctor;
int st_ready_loading;
static int st_ready_done;      /* futex word: 1 once lttng-ust posted */
static long st_ready_limit_ms; /* the wait's limit; < 0: none */

/* Once: SYNCTRACE_REGISTER_WAIT=MS (0 or unset: off). Racing callers
 * compute the same values from the same environment. */
static int mode(void)
{
	int m = __atomic_load_n(&st_ready_mode, __ATOMIC_ACQUIRE);
	if (m >= 0)
		return m;
	const char *s = getenv("SYNCTRACE_REGISTER_WAIT");
	char *end = 0;
	long ms = s && *s ? strtol(s, &end, 10) : 0;
	if (s && *s && (*end || ms == LONG_MIN || ms == LONG_MAX)) {
		fprintf(stderr, "synctrace: SYNCTRACE_REGISTER_WAIT=%s is not a number of "
				"milliseconds; not waiting\n", s);
		ms = 0;
	}
	__atomic_store_n(&st_ready_limit_ms, ms, __ATOMIC_RELAXED);
	m = ms != 0;
	__atomic_store_n(&st_ready_mode, m, __ATOMIC_RELEASE);
	return m;
}

/* sem_init while mode is not off, or while the probes load. lttng-ust's
 * constructor runs before the probes' (they link it) and maybe before
 * ours: the mode is read here. Once lttng-ust's is noted (or posted),
 * other sem_inits of the process return before the dladdr. */
void st_ready_sem_init(struct st_sem *s, const void *caller)
{
	Dl_info at;
	int watch = mode() == 1 && !__atomic_load_n(&st_ready_done, __ATOMIC_ACQUIRE) &&
		    !st_load_relaxed(&st_ready_sem);
	if (!watch && !st_load_relaxed(&st_ready_loading))
		return;
	if (!dladdr(caller, &at) || !at.dli_fname || !strstr(at.dli_fname, "/liblttng-ust.so"))
		return;
	__atomic_store_n(&st_ready_ctor, s, __ATOMIC_RELEASE);
	if (watch)
		__atomic_store_n(&st_ready_sem, s, __ATOMIC_RELEASE);
}

/* lttng-ust's constructor, right after its sem_init: its wait ends at once
 * (the first event waits instead, or it could only time out). Once: a
 * forked child's constructor notes it again. */
int st_ready_ctor_wait(struct st_sem *s)
{
	struct st_sem *c = s;
	return __atomic_compare_exchange_n(&st_ready_ctor, &c, 0, 0, __ATOMIC_ACQ_REL,
					   __ATOMIC_RELAXED);
}

/* sem_post while a registration is awaited: lttng-ust's post (from its
 * listener thread) ends it. done is set before the semaphore is forgotten:
 * a waiter that finds no semaphore then finds done if it was posted. */
void st_ready_sem_post(struct st_sem *s)
{
	if (__atomic_load_n(&st_ready_sem, __ATOMIC_ACQUIRE) != s)
		return;
	__atomic_store_n(&st_ready_done, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&st_ready_sem, 0, __ATOMIC_RELEASE);
	st_futex_wake_untraced(&st_ready_done, INT_MAX);
}

ST_EXPORT int synctrace_ready_state(void)
{
	static int told;
	if (mode() != 1)
		return 0;
	if (__atomic_load_n(&st_ready_sem, __ATOMIC_ACQUIRE))
		return 1;
	if (__atomic_load_n(&st_ready_done, __ATOMIC_ACQUIRE))
		return 2;
	/* Watching, but lttng-ust initialised no semaphore: not the lttng-ust
	 * this was written for. Without its wait a process's first events
	 * are lost; say so rather than wait for the limit. */
	if (!__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED))
		fprintf(stderr, "synctrace: SYNCTRACE_REGISTER_WAIT: lttng-ust's "
				"registration cannot be seen; events before it are lost\n");
	return 0;
}

ST_EXPORT int synctrace_ready_wait(void)
{
	if (mode() != 1)
		return 0;
	long limit = __atomic_load_n(&st_ready_limit_ms, __ATOMIC_RELAXED);
	/* a kernel deadline: CLOCK_MONOTONIC itself */
	unsigned long long e = st_mono_ns() + (unsigned long long)(limit > 0 ? limit : 0) * 1000000ull;
	struct timespec end = { (time_t)(e / 1000000000ull), (long)(e % 1000000000ull) };
	for (;;) {
		if (!__atomic_load_n(&st_ready_sem, __ATOMIC_ACQUIRE))
			return __atomic_load_n(&st_ready_done, __ATOMIC_ACQUIRE); /* or never seen */
		if (st_futex_wait_untraced(&st_ready_done, 0, limit > 0 ? &end : 0) == ETIMEDOUT)
			return __atomic_load_n(&st_ready_done, __ATOMIC_ACQUIRE);
	}
}

/* The only thread of a forked child: no other thread reads these now. */
ST_EXPORT int synctrace_ready_rearm(void)
{
	if (mode() != 1)
		return 0;
	__atomic_store_n(&st_ready_sem, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&st_ready_done, 0, __ATOMIC_RELAXED);
	return 1;
}
