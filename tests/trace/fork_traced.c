/* Under tracing, a fork()ed child is traced too: parent and child each
 * make one contended acquisition of their own mutex (deterministically:
 * a second thread holds it until the first is seen asleep), and the trace
 * must hold that from both processes (fork_traced_check.sh). Untraced, the
 * same program simply works. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile int sleeper_tid;

static void *sleeper(void *arg)
{
	(void)arg;
	sleeper_tid = (int)syscall(SYS_gettid);
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	return 0;
}

static void one_contended_acquisition(void)
{
	pthread_t t;
	sleeper_tid = 0;
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	CHECK_EQ(pthread_create(&t, 0, sleeper, 0), 0);
	while (!sleeper_tid || !st_thread_in_futex_wait(sleeper_tid))
		usleep(200);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	CHECK_EQ(pthread_join(t, 0), 0);
}

int main(void)
{
	one_contended_acquisition();
	pid_t c = fork();
	CHECK(c >= 0);
	if (c == 0) {
		one_contended_acquisition();
		_exit(0);
	}
	int status;
	CHECK_EQ(waitpid(c, &status, 0), c);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	puts("fork traced: parent and child each acquired after sleeping");
	return 0;
}
