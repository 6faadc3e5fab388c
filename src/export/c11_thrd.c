/* C11 thrd_*, tss_* and call_once. See c11/c11.h. */
#include <sched.h>
#include <stdint.h>
#include <time.h>

#include "c11/c11.h"
#include "once/once.h"

ST_EXPORT void call_once(once_flag *f, void (*fn)(void))
{
	st_once((volatile int *)f, fn, ST_CALLER());
}

ST_EXPORT int thrd_create(thrd_t *t, thrd_start_t fn, void *arg)
{
	return st_thrd_create(t, fn, arg);
}

ST_EXPORT int thrd_join(thrd_t t, int *res)
{
	void *v;
	int r = pthread_join((pthread_t)t, &v);
	if (!r && res)
		*res = (int)(intptr_t)v;
	return st_c11_result(r);
}

ST_EXPORT int thrd_detach(thrd_t t)
{
	return st_c11_result(pthread_detach((pthread_t)t));
}

ST_EXPORT _Noreturn void thrd_exit(int res)
{
	pthread_exit((void *)(intptr_t)res);
}

ST_EXPORT thrd_t thrd_current(void)
{
	return (thrd_t)pthread_self();
}

ST_EXPORT int thrd_equal(thrd_t a, thrd_t b)
{
	return pthread_equal((pthread_t)a, (pthread_t)b);
}

/* C11: 0 slept, -1 interrupted by a signal, other negative on failure. */
ST_EXPORT int thrd_sleep(const struct timespec *d, struct timespec *rem)
{
	int r = clock_nanosleep(CLOCK_REALTIME, 0, d, rem);
	return r == 0 ? 0 : r == EINTR ? -1 : -2;
}

ST_EXPORT void thrd_yield(void)
{
	sched_yield();
}

ST_EXPORT int tss_create(tss_t *k, tss_dtor_t dtor)
{
	return st_c11_result(pthread_key_create((pthread_key_t *)k, dtor));
}

ST_EXPORT void *tss_get(tss_t k)
{
	return pthread_getspecific((pthread_key_t)k);
}

ST_EXPORT int tss_set(tss_t k, void *v)
{
	return st_c11_result(pthread_setspecific((pthread_key_t)k, v));
}

ST_EXPORT void tss_delete(tss_t k)
{
	pthread_key_delete((pthread_key_t)k);
}
