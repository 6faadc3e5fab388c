/* main ends with pthread_exit: the process must exit, status 0, when its
 * last own thread ends, traced or not (the tracer's listener threads must
 * not keep it alive). ctest's timeout turns a hang into a failure. */
#include <pthread.h>
#include <unistd.h>

#include "check.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *last(void *arg)
{
	(void)arg;
	usleep(100000);
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	fputs("exit_from_main: last thread ends\n", stdout);
	fflush(stdout);
	return (void *)7;
}

int main(void)
{
	pthread_t t;
	st_check_interposed("pthread_mutex_lock");
	CHECK_EQ(pthread_create(&t, 0, last, 0), 0);
	CHECK_EQ(pthread_detach(t), 0);
	pthread_exit((void *)3);
}
