/* unlock_unlocked: a normal mutex unlocked while nobody holds it. */
#include <pthread.h>

#include "check.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
	CHECK_EQ(pthread_mutex_unlock(&m), 0); /* normal mutex: no error, a bug */
	return 0;
}
