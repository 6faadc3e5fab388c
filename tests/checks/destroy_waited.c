/* destroy_waited: sem_destroy while a thread sleeps in sem_wait. (glibc's
 * sem_destroy does nothing, so the post that follows still wakes it.) */
#include <pthread.h>
#include <semaphore.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static sem_t s;
static volatile int waiter_tid;

static void *waiter(void *arg)
{
	(void)arg;
	waiter_tid = (int)syscall(SYS_gettid);
	CHECK_EQ(sem_wait(&s), 0);
	return NULL;
}

int main(void)
{
	pthread_t t;
	struct timespec d = { 0, 1000 * 1000 };
	CHECK_EQ(sem_init(&s, 0, 0), 0);
	CHECK_EQ(pthread_create(&t, NULL, waiter, NULL), 0);
	/* until the waiter sleeps (in sem_wait: it does nothing else) */
	while (!waiter_tid || !st_thread_in_futex_wait(waiter_tid))
		nanosleep(&d, NULL);
	CHECK_EQ(sem_destroy(&s), 0);
	CHECK_EQ(sem_post(&s), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	return 0;
}
