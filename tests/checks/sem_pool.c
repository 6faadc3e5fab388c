/* A correct program for SYNCTRACE_SEM_MAX=init: a pool of 3 resources
 * guarded by a semaphore of initial value 3, and a binary semaphore used as
 * a lock, hammered by 4 threads; every post returns what a wait took, so
 * no count ever exceeds its initial value. */
#include <pthread.h>
#include <semaphore.h>

#include "check.h"

static sem_t pool, lock;
static int in_use, max_in_use, counter;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2000; i++) {
		CHECK_EQ(sem_wait(&pool), 0);
		CHECK_EQ(sem_wait(&lock), 0);
		if (++in_use > max_in_use)
			max_in_use = in_use;
		counter++;
		CHECK_EQ(sem_post(&lock), 0);
		CHECK_EQ(sem_wait(&lock), 0);
		in_use--;
		CHECK_EQ(sem_post(&lock), 0);
		CHECK_EQ(sem_post(&pool), 0);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	CHECK_EQ(sem_init(&pool, 0, 3), 0);
	CHECK_EQ(sem_init(&lock, 0, 1), 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(pthread_create(&t[i], NULL, worker, NULL), 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(pthread_join(t[i], NULL), 0);
	CHECK_EQ(counter, 8000);
	CHECK(max_in_use <= 3);
	int v = -1;
	CHECK_EQ(sem_getvalue(&pool, &v), 0);
	CHECK_EQ(v, 3);
	sem_destroy(&pool);
	sem_destroy(&lock);
	return 0;
}
