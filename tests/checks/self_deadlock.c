/* self_deadlock: a normal mutex relocked by its owner (a timed lock, so the
 * program ends: it times out instead of hanging). */
#include <pthread.h>
#include <time.h>

#include "check.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
	struct timespec abs;
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	clock_gettime(CLOCK_REALTIME, &abs);
	abs.tv_nsec += 50 * 1000 * 1000;
	if (abs.tv_nsec >= 1000000000) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000;
	}
	CHECK_EQ(pthread_mutex_timedlock(&m, &abs), ETIMEDOUT);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	return 0;
}
