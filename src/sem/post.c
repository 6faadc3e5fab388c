/* sem_post. The state machine is in sem.h. */
#include <errno.h>

#include "config.h"
#include "internal/futex.h"
#include "sem/sem.h"
#include "trace/ready.h"
#include "wait/wait.h"

/* The post. limit < 0: no SYNCTRACE_SEM_MAX check; inlined into both
 * callers, so the default one (limit -1, a constant) has no trace of it. */
static inline __attribute__((always_inline)) int post(struct st_sem *s, const void *caller,
						      int limit, int what)
{
	/* Read before the CAS: after it a waiter may have destroyed s. */
	int shared = s->private != 0;
	uint64_t d = __atomic_load_n(&s->data, __ATOMIC_RELAXED);

	do {
		if (st_sem_tokens(d) >= SEM_VALUE_MAX) {
			st_set_caller(caller);
			st_sem_ev_post(s, caller, EOVERFLOW, (int)st_sem_tokens(d),
				       (int)(d >> 32), -1);
			return EOVERFLOW;
		}
		/* Release: what the poster wrote is visible to the taker
		 * (glibc 14532 had acquire here). */
	} while (!__atomic_compare_exchange_n(&s->data, &d, d + 1, 1,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));

	/* d is the word before our increment; s may be gone now: only its
	 * address is used. WAITED → HANDOVER: wake one registered sleeper,
	 * unless the tokens already there match the registered sleepers: each
	 * of those had its wake (sem.h, WHO WAKES). */
	int nwaiters = (int)(d >> 32), woken = -1;
	if (nwaiters) {
		st_set_caller(caller);
		if ((uint32_t)nwaiters > st_sem_tokens(d)) {
			woken = st_futex_wake(&s->value, 1, shared, s);
			st_spin_note_wake(woken); /* wait.h: AFTER A WAKE */
		}
		st_sem_ev_post(s, caller, 0, (int)st_sem_tokens(d) + 1, nwaiters, woken);
	} else {
		st_spin_note_wake(0); /* nobody asleep: wait.h, AFTER A WAKE */
		if (st_tracing_full_from(caller))
			st_sem_ev_post(s, caller, 0, (int)st_sem_tokens(d) + 1,
				       0, -1);
	}
	/* The value this post left (the word's, which the woken sleeper has
	 * not taken from yet) above the limit: after the post event. */
	if (limit >= 0 && st_sem_tokens(d) + 1 > (uint32_t)limit) {
		st_set_caller(caller);
		st_sem_ev_misuse(s, caller, what, (int)st_sem_tokens(d) + 1, limit);
	}
	return 0;
}

/* SYNCTRACE_SEM_MAX is on: the limit, read before the CAS like `private`. */
static __attribute__((noinline)) int post_checked(struct st_sem *s, const void *caller)
{
	unsigned initial = s->initial;
	int limit = -1, what = 0;
	if ((st_sem_max_mode & ST_META_SEM_MAX_INIT) && (initial & ST_SEM_INITIAL_KNOWN))
		limit = (int)(initial & ~ST_SEM_INITIAL_KNOWN), what = ST_SEM_MISUSE_ABOVE_INITIAL;
	else if (st_sem_max_mode & ST_META_SEM_MAX_FIXED)
		limit = st_sem_max, what = ST_SEM_MISUSE_ABOVE_MAX;
	return post(s, caller, limit, what);
}

int st_sem_post(struct st_sem *s, const void *caller)
{
	/* While a registration is awaited: lttng-ust's post (trace/ready.h). */
	st_ready_on_post(s);
	/* The only cost of the check when it is off: this predictable branch. */
	if (st_unlikely(st_sem_max_mode != ST_META_SEM_MAX_OFF))
		return post_checked(s, caller);
	return post(s, caller, -1, 0);
}
