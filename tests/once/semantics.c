/* pthread_once: runs once, others wait for it, and a cancelled init routine
 * lets the next caller run it again. */
#include <pthread.h>
#include <unistd.h>

#include "check.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int runs;
static void init_slowly(void)
{
	usleep(30000);
	__atomic_fetch_add(&runs, 1, __ATOMIC_RELAXED);
}

static void *caller(void *p)
{
	(void)p;
	CHECK_EQ(pthread_once(&once, init_slowly), 0);
	CHECK_EQ(__atomic_load_n(&runs, __ATOMIC_RELAXED), 1); /* done before we return */
	return 0;
}

static pthread_once_t cancel_once = PTHREAD_ONCE_INIT;
static int cancel_runs;
static void init_cancelled_first(void)
{
	if (__atomic_fetch_add(&cancel_runs, 1, __ATOMIC_RELAXED) == 0) {
		pthread_cancel(pthread_self());
		pthread_testcancel(); /* the routine is cancelled here */
		CHECK(0);
	}
}

static void *cancelled_caller(void *p)
{
	(void)p;
	pthread_once(&cancel_once, init_cancelled_first);
	return (void *)1;
}

int main(void)
{
	pthread_t t[4];
	st_check_interposed("pthread_once");
	for (int i = 0; i < 4; i++)
		CHECK_EQ(pthread_create(&t[i], 0, caller, 0), 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	CHECK_EQ(runs, 1);
	CHECK_EQ(pthread_once(&once, init_slowly), 0);
	CHECK_EQ(runs, 1);

	void *r;
	CHECK_EQ(pthread_create(&t[0], 0, cancelled_caller, 0), 0);
	CHECK_EQ(pthread_join(t[0], &r), 0);
	CHECK(r == PTHREAD_CANCELED);
	CHECK_EQ(cancel_runs, 1);
	CHECK_EQ(pthread_once(&cancel_once, init_cancelled_first), 0);
	CHECK_EQ(cancel_runs, 2);
	CHECK_EQ(pthread_once(&cancel_once, init_cancelled_first), 0);
	CHECK_EQ(cancel_runs, 2);
	return 0;
}
