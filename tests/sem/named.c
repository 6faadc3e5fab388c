/* Named semaphores: glibc's sem_open initialises the storage, synctrace's
 * sem_wait/sem_post operate on it (across processes). */
#include <fcntl.h>
#include <semaphore.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

int main(void)
{
	char name[64];
	snprintf(name, sizeof(name), "/st-test-named-%d", (int)getpid());
	st_check_interposed("sem_wait");
	sem_t *s = sem_open(name, O_CREAT | O_EXCL, 0600, 2);
	CHECK(s != SEM_FAILED);
	int v = -1;
	CHECK_EQ(sem_getvalue(s, &v), 0);
	CHECK_EQ(v, 2);
	CHECK_EQ(sem_wait(s), 0);
	CHECK_EQ(sem_wait(s), 0);
	errno = 0;
	CHECK_EQ(sem_trywait(s), -1);
	CHECK_EQ(errno, EAGAIN);

	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		sem_t *c = sem_open(name, 0);
		if (c == SEM_FAILED)
			_exit(1);
		usleep(20000);
		for (int i = 0; i < 50; i++)
			if (sem_post(c))
				_exit(2);
		sem_close(c);
		_exit(0);
	}
	for (int i = 0; i < 50; i++)
		CHECK_EQ(sem_wait(s), 0); /* the first ones sleep: a shared futex */
	int st;
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_EQ(sem_getvalue(s, &v), 0);
	CHECK_EQ(v, 0);
	CHECK_EQ(sem_close(s), 0);
	CHECK_EQ(sem_unlink(name), 0);
	return 0;
}
