/* unlock_not_owner: a thread unlocks a normal mutex that main holds. */
#include <pthread.h>

#include "check.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *other(void *arg)
{
	(void)arg;
	CHECK_EQ(pthread_mutex_unlock(&m), 0); /* normal mutex: no error, a bug */
	return NULL;
}

int main(void)
{
	pthread_t t;
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	CHECK_EQ(pthread_create(&t, NULL, other, NULL), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	return 0;
}
