/* main is the only thread and ends with pthread_exit: exit status 0. */
#include <pthread.h>

#include "check.h"

int main(void)
{
	st_check_interposed("pthread_mutex_lock");
	pthread_exit(0);
}
