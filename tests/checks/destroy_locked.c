/* destroy_locked: pthread_mutex_destroy of a held mutex (EBUSY). */
#include <pthread.h>

#include "check.h"

int main(void)
{
	pthread_mutex_t m;
	CHECK_EQ(pthread_mutex_init(&m, NULL), 0);
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	CHECK_EQ(pthread_mutex_destroy(&m), EBUSY);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	CHECK_EQ(pthread_mutex_destroy(&m), 0);
	return 0;
}
