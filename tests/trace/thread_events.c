/* Every traced thread has its start and exit events, whatever it did in
 * between (nothing; an uncontended lock only; a lock and unlock): at full
 * level the tracer's own nested mutex calls inside a probe once hid the
 * exit of threads that made no slow-path call of their own. */
#include <pthread.h>

#include "check.h"

static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;

static void *nothing(void *a) { return a; }

static void *lock_only(void *a)
{
	CHECK_EQ(pthread_mutex_lock(&m1), 0);
	return a;
}

static void *lock_unlock(void *a)
{
	CHECK_EQ(pthread_mutex_lock(&m2), 0);
	CHECK_EQ(pthread_mutex_unlock(&m2), 0);
	return a;
}

int main(void)
{
	void *(*fn[])(void *) = { nothing, lock_only, lock_unlock };
	pthread_t t;
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(pthread_create(&t, 0, fn[i], 0), 0);
		CHECK_EQ(pthread_join(t, 0), 0);
	}
	puts("thread events: 3 threads");
	return 0;
}
