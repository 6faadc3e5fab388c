/* _exit and _Exit: a process that ends without exit() (a forked child,
 * typically) runs no destructor, so at the summary level its threads'
 * aggregates would be lost (src/trace/summary.h); they go out first.
 * Then the next _exit in the search order: the probe library's when it
 * is preloaded after this one (it writes out the threads' batched records,
 * tracepoints/batch.c), else glibc's. It is looked up when the library
 * loads, not in _exit (a forked child must not take the loader's lock);
 * failing that, exactly glibc's: the exit_group system call. */
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal/trace.h"

typedef void (*exit_fn)(int);
static exit_fn next_exit, next_Exit;

__attribute__((constructor)) static void st_exit_resolve(void)
{
	next_exit = (exit_fn)dlsym(RTLD_NEXT, "_exit");
	next_Exit = (exit_fn)dlsym(RTLD_NEXT, "_Exit");
}

static _Noreturn void st_exit_via(exit_fn next, int status)
{
	if (st_tracing() && !st_tls.guard) { /* (no table: nothing to do) */
		st_set_caller(0);
		st_summary_flush_all();
	}
	if (next)
		next(status);
	for (;;)
		syscall(SYS_exit_group, status);
}

ST_EXPORT _Noreturn void _exit(int status)
{
	st_exit_via(next_exit, status);
}

ST_EXPORT _Noreturn void _Exit(int status)
{
	st_exit_via(next_Exit, status);
}
