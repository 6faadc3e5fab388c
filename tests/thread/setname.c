/* pthread_setname_np still names threads (and, traced, emits the name). */
#include <pthread.h>

#include "check.h"

static void *named(void *p)
{
	(void)p;
	char buf[16];
	CHECK_EQ(pthread_setname_np(pthread_self(), "st-worker"), 0);
	CHECK_EQ(pthread_getname_np(pthread_self(), buf, sizeof(buf)), 0);
	CHECK_EQ(strcmp(buf, "st-worker"), 0);
	return 0;
}

int main(void)
{
	pthread_t t;
	char buf[16];
	st_check_interposed("pthread_setname_np");
	CHECK_EQ(pthread_create(&t, 0, named, 0), 0);
	CHECK_EQ(pthread_join(t, 0), 0);
	CHECK_EQ(pthread_setname_np(pthread_self(), "a-name-that-is-too-long"), ERANGE);
	CHECK_EQ(pthread_setname_np(pthread_self(), "st-main"), 0);
	CHECK_EQ(pthread_getname_np(pthread_self(), buf, sizeof(buf)), 0);
	CHECK_EQ(strcmp(buf, "st-main"), 0);
	return 0;
}
