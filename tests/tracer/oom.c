/* Out of memory in a forked child (address space limited to 1 MiB, as
 * LTP's pthread_mutex_init/5-1 and musl's pthread_create-oom do), the
 * child's primitives still answer and exit() ends it normally. Traced,
 * lttng-ust's exit cancels its threads; glibc's pthread_cancel needs
 * libgcc_s, which it could not load now: the probes load it while memory
 * is there (tracepoints/probes.c). */
#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static void *nothing(void *arg)
{
	return arg;
}

int main(void)
{
	st_check_interposed("pthread_mutex_init");
	for (int round = 0; round < 3; round++) {
		pid_t pid = fork();
		CHECK(pid >= 0);
		if (pid == 0) {
			struct rlimit r = { 1 << 20, 1 << 20 };
			if (setrlimit(RLIMIT_AS, &r))
				_exit(3);
			pthread_mutex_t m;
			pthread_cond_t c;
			if (pthread_mutex_init(&m, 0) || pthread_cond_init(&c, 0) ||
			    pthread_mutex_lock(&m) || pthread_mutex_unlock(&m))
				_exit(4);
			/* May succeed on a stack glibc kept from the parent's
			 * threads; either answer is fine, no crash is. */
			pthread_t t;
			if (pthread_create(&t, 0, nothing, 0) == 0)
				pthread_join(t, 0);
			exit(0); /* destructors run: lttng-ust's exit path */
		}
		int st;
		CHECK_EQ(waitpid(pid, &st, 0), pid);
		if (!WIFEXITED(st))
			fprintf(stderr, "round %d: child killed by signal %d\n", round,
				WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		CHECK(WIFEXITED(st));
		CHECK_EQ(WEXITSTATUS(st), 0);
	}
	return 0;
}
