/* trylock_order: one thread holds A and trylocks B, a later one takes B
 * then A. A trylock cannot block, so A→B is no lock-order edge and there
 * is no cycle: no finding (lockdep's rule). */
#include <pthread.h>

#include "check.h"

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;

static void *a_then_try_b(void *arg)
{
	(void)arg;
	CHECK_EQ(pthread_mutex_lock(&a), 0);
	CHECK_EQ(pthread_mutex_trylock(&b), 0);
	CHECK_EQ(pthread_mutex_unlock(&b), 0);
	CHECK_EQ(pthread_mutex_unlock(&a), 0);
	return NULL;
}

static void *b_then_a(void *arg)
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
	CHECK_EQ(pthread_create(&t, NULL, a_then_try_b, NULL), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK_EQ(pthread_create(&t, NULL, b_then_a, NULL), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	return 0;
}
