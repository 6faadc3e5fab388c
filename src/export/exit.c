/* _exit and _Exit: a process that ends without exit() (a forked child,
 * typically) runs no destructor, so at the summary level its threads'
 * aggregates would be lost (src/trace/summary.h); they go out first.
 * Otherwise exactly glibc's: the exit_group system call. */
#include <sys/syscall.h>
#include <unistd.h>

#include "internal/trace.h"

ST_EXPORT _Noreturn void _exit(int status)
{
	if (st_tracing() && !st_tls.guard) { /* (no table: nothing to do) */
		st_set_caller(0);
		st_summary_flush_all();
	}
	for (;;)
		syscall(SYS_exit_group, status);
}

ST_EXPORT _Noreturn void _Exit(int status)
{
	_exit(status);
}
