/* thrd_create: a C11 start routine returns int, a pthread one void *. The
 * trampoline carries the int in the pointer (thrd_join takes it back out),
 * as glibc does internally. Thread creation is no lock path: malloc here
 * is fine (freed by the new thread, or at once if creation fails). */
#include <stdint.h>
#include <stdlib.h>

#include "c11/c11.h"

struct c11_start {
	thrd_start_t fn;
	void *arg;
};

static void *c11_trampoline(void *p)
{
	struct c11_start s = *(struct c11_start *)p;
	free(p);
	return (void *)(intptr_t)s.fn(s.arg);
}

int st_thrd_create(thrd_t *t, thrd_start_t fn, void *arg)
{
	struct c11_start *s = malloc(sizeof(*s));
	if (!s)
		return thrd_nomem;
	s->fn = fn;
	s->arg = arg;
	/* Our exported pthread_create (the preloaded definition): C11
	 * threads get thread events like the others. */
	int r = pthread_create((pthread_t *)t, 0, c11_trampoline, s);
	if (r)
		free(s);
	return st_c11_result(r);
}
