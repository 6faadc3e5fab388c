/* Robust, priority-inheritance and priority-protect mutexes are glibc's.
 *
 * glibc keeps a per-thread robust list that the kernel walks when a thread
 * dies, and PI/PP need the kernel's FUTEX_LOCK_PI protocol on glibc's
 * layout: re-implementing them would break the kernel's contract. So
 * pthread_mutex_init hands such attributes to glibc, the object is glibc's
 * (its __kind carries the robust/PI/PP bits, which is how every operation
 * here recognises it), and synctrace only traces around glibc's calls:
 * requested, acquired (how = forwarded), released. */
#include <dlfcn.h>
#include <errno.h>

#include "internal/futex.h"
#include "mutex/mutex.h"

typedef int (*mutex_fn)(pthread_mutex_t *);

/* The next definition after ours: glibc's. Resolved once per name; a
 * racing double resolution stores the same pointer. */
static void *real(void *volatile *slot, const char *name)
{
	void *f = st_load_acquire(slot);
	if (!f) {
		f = dlsym(RTLD_NEXT, name);
		st_store_release(slot, f);
	}
	return f;
}

#define REAL(name) real(&real_##name, #name)
static void *volatile real_pthread_mutex_lock, *volatile real_pthread_mutex_trylock,
	*volatile real_pthread_mutex_unlock, *volatile real_pthread_mutex_init,
	*volatile real_pthread_mutex_destroy, *volatile real_pthread_mutex_clocklock;

int st_mutex_forward_lock(pthread_mutex_t *m, clockid_t clk,
			  const struct timespec *abs, int timed, const void *caller)
{
	int r;
	unsigned long long t0 = 0;

	st_set_caller(caller);
	if (st_tracing()) {
		t0 = st_now_ns();
		st_mutex_ev_requested(m, caller, m->__data.__owner, 0);
	}
	if (timed && abs) {
		int (*f)(pthread_mutex_t *, clockid_t, const struct timespec *) =
			REAL(pthread_mutex_clocklock);
		r = f(m, clk, abs);
	} else {
		r = ((mutex_fn)REAL(pthread_mutex_lock))(m);
	}
	st_set_caller(caller);
	if (t0 && (r == 0 || r == EOWNERDEAD))
		st_mutex_ev_acquired(m, caller, ST_MUTEX_HOW_FORWARDED, 0, 0,
			 st_now_ns() - t0, 0, 0);
	else if (t0 && r == ETIMEDOUT)
		st_mutex_ev_timeout(m, caller, 0, st_now_ns() - t0);
	return r;
}

int st_mutex_forward_trylock(pthread_mutex_t *m, const void *caller)
{
	int r = ((mutex_fn)REAL(pthread_mutex_trylock))(m);
	st_set_caller(caller);
	if (r == 0 || r == EOWNERDEAD) {
		if (st_tracing_full())
			st_mutex_ev_acquired(m, caller, ST_MUTEX_HOW_FORWARDED, 0, 0, 0, 0, 0);
	} else {
		st_mutex_ev_trylock_failed(m, caller, r, m->__data.__owner);
	}
	return r;
}

int st_mutex_forward_unlock(pthread_mutex_t *m, const void *caller)
{
	int r = ((mutex_fn)REAL(pthread_mutex_unlock))(m);
	st_set_caller(caller);
	/* m may be gone: only its address goes into the event. */
	st_mutex_ev_released(m, caller, -1, r == 0 ? -1 : -r, (uint64_t)0, (uint64_t)0, -1);
	return r;
}

int st_mutex_forward_init(pthread_mutex_t *m, const pthread_mutexattr_t *a)
{
	int (*f)(pthread_mutex_t *, const pthread_mutexattr_t *) = REAL(pthread_mutex_init);
	return f(m, a);
}

int st_mutex_forward_destroy(pthread_mutex_t *m)
{
	return ((mutex_fn)REAL(pthread_mutex_destroy))(m);
}
