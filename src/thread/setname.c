/* pthread_setname_np: glibc's, plus an event with the name so reports can
 * name threads. A thread usually names itself: then tid is its own; for
 * another thread glibc offers no portable way to its tid (before 2.42), so
 * the event carries the pthread_t handle and tid 0. */
#include <dlfcn.h>
#include <pthread.h>

#include "internal/trace.h"

typedef int (*setname_fn)(pthread_t, const char *);
static void *volatile real_setname;

ST_EXPORT int pthread_setname_np(pthread_t t, const char *name)
{
	setname_fn real = st_load_acquire(&real_setname);
	if (!real) {
		real = (setname_fn)dlsym(RTLD_NEXT, "pthread_setname_np");
		st_store_release(&real_setname, (void *)real);
	}
	int r = real(t, name);
	if (r == 0 && st_tracing()) {
		st_set_caller(ST_CALLER());
		st_thread_ev_name((uint64_t)t, pthread_equal(t, pthread_self()) ? st_tid() : 0,
				  name);
	}
	return r;
}
