/* exit_holding: a thread ends holding a mutex (it waited for it: main held
 * it first); main then finds it still owned. */
#include <pthread.h>
#include <time.h>

#include "check.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *holder(void *arg)
{
	(void)arg;
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	return NULL; /* the bug: still locked */
}

int main(void)
{
	pthread_t t;
	struct timespec d = { 0, 50 * 1000 * 1000 };
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	CHECK_EQ(pthread_create(&t, NULL, holder, NULL), 0);
	nanosleep(&d, NULL); /* the holder waits for m */
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK_EQ(pthread_mutex_trylock(&m), EBUSY);
	return 0;
}
