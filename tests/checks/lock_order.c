/* lock_order: one thread takes A then B, a later one B then A. They never
 * overlap, so this run does not deadlock; the order inversion is reported
 * all the same (lockdep-style). */
#include <pthread.h>

#include "check.h"

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;

static void *ab(void *arg)
{
	(void)arg;
	CHECK_EQ(pthread_mutex_lock(&a), 0);
	CHECK_EQ(pthread_mutex_lock(&b), 0);
	CHECK_EQ(pthread_mutex_unlock(&b), 0);
	CHECK_EQ(pthread_mutex_unlock(&a), 0);
	return NULL;
}

static void *ba(void *arg)
{
	(void)arg;
	CHECK_EQ(pthread_mutex_lock(&b), 0);
	CHECK_EQ(pthread_mutex_lock(&a), 0);
	CHECK_EQ(pthread_mutex_unlock(&a), 0);
	CHECK_EQ(pthread_mutex_unlock(&b), 0);
	return NULL;
}

int main(void)
{
	pthread_t t;
	CHECK_EQ(pthread_create(&t, NULL, ab, NULL), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK_EQ(pthread_create(&t, NULL, ba, NULL), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	return 0;
}
