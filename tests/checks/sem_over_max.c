/* sem_over_max (SYNCTRACE_SEM_MAX): posts that leave a semaphore above its
 * initial value, or above a set limit N.
 *   A  sem_init 1, used as a lock (wait, post: within the limit), then
 *      posted once more by mistake: value 2
 *   B  sem_init 0, posted 3 times from one call site: values 1, 2, 3
 *   C  from glibc's sem_open (initial value 0, not known to synctrace),
 *      posted 3 times from one call site: values 1, 2, 3
 * Findings, one per (semaphore, call site) with its count:
 *   SYNCTRACE_SEM_MAX=init    A ×1, B ×3 (C not checked: initial unknown)
 *   SYNCTRACE_SEM_MAX=2       B ×1, C ×1 (value 3)
 *   SYNCTRACE_SEM_MAX=init:2  A ×1, B ×3, C ×1
 *   unset                     none */
#include <fcntl.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>

#include "check.h"

static sem_t a, b;

static void post3(sem_t *s)
{
	for (int i = 0; i < 3; i++)
		CHECK_EQ(sem_post(s), 0);
}

int main(void)
{
	char name[64];
	snprintf(name, sizeof(name), "/st-check-sem-max-%d", (int)getpid());
	CHECK_EQ(sem_init(&a, 0, 1), 0);
	CHECK_EQ(sem_wait(&a), 0);
	CHECK_EQ(sem_post(&a), 0);
	CHECK_EQ(sem_post(&a), 0); /* the bug: released twice */
	CHECK_EQ(sem_init(&b, 0, 0), 0);
	post3(&b);
	sem_t *c = sem_open(name, O_CREAT | O_EXCL, 0600, 0);
	CHECK(c != SEM_FAILED);
	sem_unlink(name);
	post3(c);
	int v = -1;
	CHECK_EQ(sem_getvalue(&a, &v), 0);
	CHECK_EQ(v, 2);
	sem_close(c);
	sem_destroy(&a);
	sem_destroy(&b);
	return 0;
}
