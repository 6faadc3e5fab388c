/* glibc 12674 / musl 2011: sem_post must not touch the semaphore after its
 * increment, because the waiter it releases may destroy it and free its
 * memory at once. Each round the waiter unmaps the page the semaphore is
 * in right after sem_wait returns: a poster reading it afterwards faults. */
#include <pthread.h>
#include <semaphore.h>
#include <sys/mman.h>

#include "check.h"

static sem_t *volatile current;
static sem_t go;

static void *poster(void *p)
{
	int rounds = (int)(long)p;
	for (int i = 0; i < rounds; i++) {
		CHECK_EQ(sem_wait(&go), 0);
		CHECK_EQ(sem_post(current), 0);
	}
	return 0;
}

int main(void)
{
	const int rounds = 3000;
	pthread_t t;
	st_check_interposed("sem_post");
	CHECK_EQ(sem_init(&go, 0, 0), 0);
	CHECK_EQ(pthread_create(&t, 0, poster, (void *)(long)rounds), 0);
	for (int i = 0; i < rounds; i++) {
		sem_t *s = mmap(0, 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		CHECK(s != MAP_FAILED);
		CHECK_EQ(sem_init(s, 0, 0), 0);
		current = s;
		CHECK_EQ(sem_post(&go), 0);
		CHECK_EQ(sem_wait(s), 0);
		CHECK_EQ(sem_destroy(s), 0);
		CHECK_EQ(munmap(s, 4096), 0);
	}
	CHECK_EQ(pthread_join(t, 0), 0);
	return 0;
}
