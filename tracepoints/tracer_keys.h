/* The tracer's pthread keys go high, the program's stay as untraced.
 *
 * glibc hands out the lowest free key. liblttng-ust-common and
 * liblttng-ust create one each while they load: left alone, they take keys
 * 0 and 1, so the program's first key is 2 instead of 0 and keys it never
 * created are valid (pthread_setspecific(0, p) returns 0, not EINVAL).
 * So the tracer is given keys just below ST_KEY_TOP: by libsynctrace-tp.so's
 * pthread_key_create (tracepoints/keys.c) when preloaded, and by
 * libsynctrace.so holding the low keys while it dlopens the probes
 * (SYNCTRACE_TRACE=1, src/config.c). Keys 0 .. ST_KEY_TOP - 3 behave as
 * untraced.
 *
 * ST_KEY_TOP: glibc keeps the values of keys below 32 in the thread
 * descriptor, the others in blocks it allocates per thread on the first
 * pthread_setspecific: a tracer key below 32 costs no memory per thread. */
#ifndef ST_TRACER_KEYS_H
#define ST_TRACER_KEYS_H

#include <pthread.h>

#define ST_KEY_TOP 32

typedef int (*st_key_create_fn)(pthread_key_t *, void (*)(void *));

/* Take keys from create() until one is >= last or ST_KEY_TOP + 1 are held;
 * the count held. No thread has a value for them: given back with
 * pthread_key_delete, their destructor never runs. */
static inline int st_keys_hold(st_key_create_fn create, pthread_key_t held[ST_KEY_TOP + 1],
			       pthread_key_t last, void (*dtor)(void *), int *err)
{
	int n = 0;
	*err = 0;
	while (n <= ST_KEY_TOP && (*err = create(&held[n], dtor)) == 0)
		if (held[n++] >= last)
			break;
	return n;
}

#endif
