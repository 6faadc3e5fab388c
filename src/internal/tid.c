#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tls.h"

__thread struct st_tls st_tls __attribute__((tls_model("initial-exec")));

int st_tid_fresh(void)
{
	return (int)syscall(SYS_gettid);
}

/* In a fork()ed child the only thread has a new tid: forget the cached one,
 * as glibc's own thread descriptor does (a mutex the parent's thread held
 * is then owned by "another" thread in the child, exactly as with glibc). */
static void st_tid_forget(void)
{
	st_tls.tid = 0;
}

int st_tid_slow(void)
{
	static volatile int atfork_registered;

	/* Registered on first use, not at load: loading allocates nothing. */
	if (!st_load_acquire(&atfork_registered) &&
	    st_cas_acq_rel(&atfork_registered, 0, 1))
		pthread_atfork(0, 0, st_tid_forget);
	return st_tls.tid = st_tid_fresh();
}
