/* C11 <threads.h> on synctrace's primitives.
 *
 * mtx_t is glibc's 40-byte union, the same object as pthread_mutex_t: the
 * mtx_* calls are the mutex family's (src/mutex), with C11's types mapped
 * to its attributes the way glibc's mtx_init does (recursive or not;
 * mtx_timed adds nothing). cnd_t is pthread_cond_t (src/cond); once_flag is
 * pthread_once_t's int (src/once). tss_* and thrd_* call the pthread
 * functions (thrd_create goes through our pthread_create, so C11 threads
 * get thread events). Events are the families' own: a C11 mutex shows up
 * in the trace as a synctrace_mutex object.
 *
 * Errors: every errno value becomes a thrd_* code in st_c11_result, the
 * one place, with glibc's mapping (ENOMEM nomem, ETIMEDOUT timedout, EBUSY
 * busy, anything else error). */
#ifndef ST_C11_H
#define ST_C11_H

#include <errno.h>
#include <pthread.h>
#include <threads.h>

static inline int st_c11_result(int err)
{
	switch (err) {
	case 0:
		return thrd_success;
	case ENOMEM:
		return thrd_nomem;
	case ETIMEDOUT:
		return thrd_timedout;
	case EBUSY:
		return thrd_busy;
	default:
		return thrd_error;
	}
}

_Static_assert(sizeof(mtx_t) == sizeof(pthread_mutex_t), "mtx_t is a pthread_mutex_t");
_Static_assert(sizeof(cnd_t) == sizeof(pthread_cond_t), "cnd_t is a pthread_cond_t");
_Static_assert(sizeof(once_flag) == sizeof(pthread_once_t), "once_flag is a pthread_once_t");
_Static_assert(sizeof(tss_t) == sizeof(pthread_key_t), "tss_t is a pthread_key_t");
_Static_assert(sizeof(thrd_t) == sizeof(pthread_t), "thrd_t is a pthread_t");

/* Defined in src/mutex/init.c (declared here: the mutex family's header
 * does not export them). */
int st_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a, const void *caller);
int st_mutex_destroy(pthread_mutex_t *m, const void *caller);

/* thrd_create's start: the C11 routine's int result as the pthread value. */
int st_thrd_create(thrd_t *t, thrd_start_t fn, void *arg);

#endif
