/* fork() while other threads hold and wait on locks: in the child only the
 * forking thread exists; locks it held stay usable by it, locks other
 * threads held stay held (POSIX), fresh locks work, and the child exits. */
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static pthread_mutex_t held_by_other = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t contended = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t mine = PTHREAD_MUTEX_INITIALIZER;
static volatile int stop, ready;

static void *holder(void *arg)
{
	(void)arg;
	CHECK_EQ(pthread_mutex_lock(&held_by_other), 0);
	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	while (!stop)
		usleep(1000);
	CHECK_EQ(pthread_mutex_unlock(&held_by_other), 0);
	return 0;
}

static void *churner(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	while (!stop) {
		CHECK_EQ(pthread_mutex_lock(&contended), 0);
		CHECK_EQ(pthread_mutex_unlock(&contended), 0);
	}
	return 0;
}

int main(void)
{
	pthread_t t[3];
	CHECK_EQ(pthread_create(&t[0], 0, holder, 0), 0);
	CHECK_EQ(pthread_create(&t[1], 0, churner, 0), 0);
	CHECK_EQ(pthread_create(&t[2], 0, churner, 0), 0);
	while (ready < 3)
		usleep(100);
	for (int round = 0; round < 20; round++) {
		CHECK_EQ(pthread_mutex_lock(&mine), 0);
		pid_t c = fork();
		CHECK(c >= 0);
		if (c == 0) {
			/* The child: one thread. */
			if (pthread_mutex_trylock(&held_by_other) != EBUSY)
				_exit(10);
			if (pthread_mutex_unlock(&mine) != 0)
				_exit(11);
			pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
			for (int i = 0; i < 1000; i++)
				if (pthread_mutex_lock(&fresh) || pthread_mutex_unlock(&fresh))
					_exit(12);
			_exit(0);
		}
		CHECK_EQ(pthread_mutex_unlock(&mine), 0);
		int status;
		CHECK_EQ(waitpid(c, &status, 0), c);
		CHECK(WIFEXITED(status));
		CHECK_EQ(WEXITSTATUS(status), 0);
	}
	stop = 1;
	for (int i = 0; i < 3; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	puts("fork with held locks: ok");
	return 0;
}
