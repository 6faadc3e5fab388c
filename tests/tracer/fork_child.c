/* A forked child's first event is in the trace: with lttng-ust's fork
 * helper the child registers with the session daemon anew, and its first
 * event waits for that (tracepoints/probes.c, fork; the wait is bounded by
 * SYNCTRACE_REGISTER_WAIT, 15 s in the suite). Each child initializes one
 * mutex at once and exits; the check (fork_child_check.sh) finds CHILDREN
 * mutex:init events, one per child vpid. Prints the mean and largest time from fork() to the child's code
 * (the cost README's "Limitations when tracing" gives). */
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define CHILDREN 8

int main(void)
{
	long long sum = 0, max = 0;
	st_check_interposed("pthread_mutex_init");
	for (int i = 0; i < CHILDREN; i++) {
		int p[2];
		CHECK_EQ(pipe(p), 0);
		long long t0 = st_mono_now_ns();
		pid_t pid = fork();
		CHECK(pid >= 0);
		if (pid == 0) {
			long long d = st_mono_now_ns() - t0;
			pthread_mutex_t m;
			if (pthread_mutex_init(&m, 0) || write(p[1], &d, sizeof(d)) != sizeof(d))
				_exit(1);
			_exit(0);
		}
		long long d;
		CHECK_EQ(read(p[0], &d, sizeof(d)), sizeof(d));
		close(p[0]);
		close(p[1]);
		sum += d;
		max = d > max ? d : max;
		int st;
		CHECK_EQ(waitpid(pid, &st, 0), pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	printf("fork_child (%s): %d children, fork to child code: mean %.1f ms, max %.1f ms\n",
	       st_test_mode(), CHILDREN, sum / CHILDREN / 1e6, max / 1e6);
	return 0;
}
