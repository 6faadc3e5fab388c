/* Semaphores: the object, its state machine, and the fast paths.
 *
 * LAYOUT (32 bytes, glibc's sem_t; asserts in init.c). The first 16 bytes
 * are glibc's `struct new_sem` of 64-bit targets, field for field, so a
 * semaphore glibc's sem_open has initialised (value in `data`, waiters 0,
 * private = FUTEX_SHARED, the rest zero) is one of ours as it is.
 *   off  field     glibc's name      use
 *    0   value     data, low half    the count of tokens, 0..SEM_VALUE_MAX;
 *                                    the futex word sleepers wait on (for 0)
 *    4   nwaiters  data, high half   threads registered as sleepers
 *    8   private   private           0 process-private, 128 (glibc's
 *                                    FUTEX_SHARED) process-shared
 *   12   pad       pad               unused (0)
 *   16   spin_misses (sem_t padding) slow-path waits whose spinning failed in
 *                                    a row: a hint, relaxed loads and stores
 *   20   initial   (sem_t padding)   sem_init's value | ST_SEM_INITIAL_KNOWN,
 *                                    written once by sem_init, read only by
 *                                    sem_post's SYNCTRACE_SEM_MAX check
 *                                    (init.c, post.c). 0 for semaphores
 *                                    glibc's sem_open initialised (it zeroes
 *                                    the padding): initial value unknown
 * `value` and `nwaiters` are the two halves of one 64-bit word, `data`:
 * every change to either is one 64-bit atomic on `data`, so a poster learns
 * from its own CAS whether anybody was registered — it never reads the
 * semaphore after its increment (glibc 12674, musl 2011).
 *
 * STATES (of data = nwaiters:value)
 *   EMPTY       no tokens, nobody registered        0:0
 *   AVAILABLE   tokens, nobody registered           0:v   (v > 0)
 *   WAITED      no tokens, sleepers registered      n:0   (n > 0)
 *   HANDOVER    tokens posted, sleepers registered  n:v   (woken ones on
 *                                                         their way to take)
 *
 * TRANSITIONS
 *   from        to          by        atomic                       event
 *   AVAILABLE   EMPTY/AVAIL waiter    CAS v → v-1 (acquire)        acquired (fast,
 *                                                                  trywait: full level)
 *   EMPTY       AVAILABLE   poster    CAS v → v+1 (release)        post (full level)
 *   WAITED      HANDOVER    poster    CAS v → v+1 (release), then  post (woken ≥ 0,
 *   HANDOVER    HANDOVER              wake one if the CAS saw       or -1: no wake),
 *                                     n > v (WHO WAKES)             futex:wake
 *   *           *+1 waiter  waiter    fetch_add n+1 (relaxed; the  sleep
 *                                     word's modification order
 *                                     is what matters)
 *   HANDOVER    WAITED/...  sleeper   CAS n:v → n-1:v-1 (acquire): acquired (how = sleep)
 *                                     token taken and registration
 *                                     dropped in one step
 *   WAITED      EMPTY/...   sleeper   fetch_sub n-1 (timeout, EINTR) timeout
 *   *           *-1 waiter  sleeper,  fetch_sub n-1, then wake one   none (the thread
 *                           cancelled if tokens are left and others    is unwinding)
 *                           (cleanup) are registered: the cancel may
 *                                     have eaten a post's wake
 *   AVAILABLE   (EOVERFLOW) poster    none: v == SEM_VALUE_MAX       post (result 75)
 * WHO WAKES. A sleeper futex-waits on `value` expecting 0. A post wakes one
 * sleeper when its CAS saw more registered sleepers than tokens (n > v):
 * as registration and post are RMWs of the same word, either the post's
 * CAS sees the registration, or the registration's fetch_add returns the
 * posted token (and the waiter takes it without sleeping). Why n > v and
 * not n > 0: while any sleeper is in the kernel, the tokens never exceed
 * the registered waiters that are awake (woken, spurious, or not asleep
 * yet), m: a thread sleeps only on value 0; each post with v < n moves
 * one sleeper to m as it adds one token; a waiter taking a token lowers
 * both, trywait lowers v; a waiter leaves without a token only from a
 * sleep that timed out or was interrupted (it was not in m), or cancelled
 * (then it passes a wake on). So with a sleeper queued, v <=
 * m < n at every post: the gate never skips a needed wake. A post with
 * v >= n would only wake a thread that is already awake; with n > 0 as
 * the gate (glibc's rule) 88 % of the wakes in bench_sem_channel woke
 * nobody. tests/model/sem.pml checks it (2 and 3 waiters and posters);
 * the mutation one wake short is caught. The kernel makes a woken sleeper
 * return 0, never ETIMEDOUT, so the token a wake stands for is always
 * looked at: a woken sleeper tries to take a token before it checks for a
 * timeout. No has-waiters bit to lose (musl 2022/2024 lost one).
 *
 * LIFETIME: a registered sleeper keeps the semaphore alive (destroying a
 * semaphore with waiters is undefined). The CAS that takes a token also
 * drops the registration: after it the taker touches the object no more,
 * so the last waiter may destroy and free it at once. A poster reads
 * `private` before its CAS and only the address after it.
 *
 * CANCELLATION: sem_wait and sem_timedwait act on a pending cancel before
 * their first CAS (export/sem.c, as glibc); inside, the sleep is the one
 * cancellation point (asynchronous around the futex call alone, as in
 * src/cond), and a cancel there drops the registration (the cleanup
 * transition above).
 *
 * No counters live in the object (no lock to keep them under, and an extra
 * atomic per operation is not free): uncontended traffic is visible only at
 * full level. */
#ifndef ST_SEM_H
#define ST_SEM_H

#include <limits.h>
#include <semaphore.h>
#include <stdint.h>
#include <time.h>

#include "internal/atomic.h"
#include "internal/trace.h"

struct st_sem {
	union {
		volatile uint64_t data; /* nwaiters:value, one 64-bit word */
		struct {
			volatile int value;    /* tokens; the futex word */
			volatile int nwaiters; /* registered sleepers */
		};
	};
	int private; /* 0, or ST_SEM_SHARED */
	int pad;
	volatile int spin_misses; /* hand-off spinning hint (wait/wait.h) */
	unsigned initial; /* sem_init's value | ST_SEM_INITIAL_KNOWN; 0: unknown */
	uint64_t spare2;
};

#define ST_SEM_SHARED 128             /* glibc's FUTEX_SHARED in `private` */
#define ST_SEM_ONE_WAITER (1ull << 32) /* nwaiters' unit in `data` */
#define ST_SEM_INITIAL_KNOWN 0x80000000u /* in `initial`: sem_init set it (values fit in 31 bits) */

/* `how` of the acquired event. */
enum st_sem_how {
	ST_SEM_FAST = 0,    /* token there at once (full level) */
	ST_SEM_SPIN = 1,    /* taken while spinning */
	ST_SEM_SLEEP = 2,   /* taken after registering as a sleeper */
	ST_SEM_TRYWAIT = 3, /* sem_trywait took one (full level) */
};

static inline struct st_sem *st_sem(sem_t *s)
{
	return (struct st_sem *)s;
}

static inline uint32_t st_sem_tokens(uint64_t d)
{
	return (uint32_t)d;
}

/* Take a token if there is one: AVAILABLE → AVAILABLE/EMPTY. Acquire pairs
 * with the poster's release: what it wrote before sem_post is visible. */
static inline int st_sem_take(struct st_sem *s)
{
	uint64_t d = __atomic_load_n(&s->data, __ATOMIC_RELAXED);
	while (st_sem_tokens(d))
		if (__atomic_compare_exchange_n(&s->data, &d, d - 1, 1,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return 1;
	return 0;
}

/* Slow paths (wait.c, post.c, init.c). abs NULL: no timeout. Return 0 or
 * an errno value; the exported functions set errno. */
int st_sem_wait_slow(struct st_sem *s, clockid_t clk, const struct timespec *abs,
		     const void *caller);
int st_sem_trywait_failed(struct st_sem *s, const void *caller);
int st_sem_post(struct st_sem *s, const void *caller);
int st_sem_init(struct st_sem *s, int pshared, unsigned value, const void *caller);
int st_sem_destroy(struct st_sem *s, const void *caller);
int st_sem_getvalue(struct st_sem *s);

/* sem_wait / timedwait / clockwait: one CAS when a token is there. */
static inline int st_sem_wait(struct st_sem *s, clockid_t clk,
			      const struct timespec *abs, const void *caller)
{
	if (st_likely(st_sem_take(s))) {
		ST_TRACE_FULL(caller, sem, acquired, s, caller, ST_SEM_FAST, 0, 0,
			      (uint64_t)0);
		return 0;
	}
	return st_sem_wait_slow(s, clk, abs, caller);
}

static inline int st_sem_trywait(struct st_sem *s, const void *caller)
{
	if (st_likely(st_sem_take(s))) {
		ST_TRACE_FULL(caller, sem, acquired, s, caller, ST_SEM_TRYWAIT, 0, 0,
			      (uint64_t)0);
		return 0;
	}
	return st_sem_trywait_failed(s, caller);
}

#endif
