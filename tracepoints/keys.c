/* pthread_key_create, as the tracer sees it when this library is preloaded
 * (tracer_keys.h): lttng-ust's calls get the highest free key below
 * ST_KEY_TOP, the program's calls are glibc's own.
 *
 * Holding keys to reach a high one is not atomic: a program thread that
 * creates a key in the same instant as the tracer (lttng-ust 2.13 creates
 * its keys while it loads, before the program's threads) gets a higher
 * value than untraced, never an invalid or shared one. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>

#include "tracer.h"
#include "tracer_keys.h"

static st_key_create_fn real_key_create(void)
{
	static st_key_create_fn fn;
	st_key_create_fn f = __atomic_load_n(&fn, __ATOMIC_ACQUIRE);
	if (!f) {
		f = (st_key_create_fn)dlsym(RTLD_NEXT, "pthread_key_create");
		__atomic_store_n(&fn, f, __ATOMIC_RELEASE);
	}
	return f;
}

static int called_by_tracer(const void *ip)
{
	Dl_info info;
	return dladdr(ip, &info) && info.dli_fname && st_is_tracer_object(info.dli_fname);
}

/* Keep the highest key below ST_KEY_TOP, give the others back. */
static int tracer_key_create(st_key_create_fn create, pthread_key_t *key, void (*dtor)(void *))
{
	pthread_key_t held[ST_KEY_TOP + 1];
	int err, best = -1;
	int n = st_keys_hold(create, held, ST_KEY_TOP - 1, dtor, &err);
	for (int i = 0; i < n; i++)
		if (held[i] < ST_KEY_TOP && (best < 0 || held[i] > held[best]))
			best = i;
	if (best < 0)
		best = n - 1; /* every key below ST_KEY_TOP is taken: any will do */
	if (best < 0)
		return err;
	for (int i = 0; i < n; i++)
		if (i != best)
			pthread_key_delete(held[i]);
	*key = held[best];
	return 0;
}

__attribute__((visibility("default"))) int pthread_key_create(pthread_key_t *key,
							     void (*dtor)(void *))
{
	st_key_create_fn create = real_key_create();
	if (!create)
		return EAGAIN;
	if (!called_by_tracer(__builtin_return_address(0)))
		return create(key, dtor);
	return tracer_key_create(create, key, dtor);
}
