/* The exported pthread_once (C11's call_once is in export/c11_thrd.c). */
#include <pthread.h>

#include "once/once.h"

ST_EXPORT int pthread_once(pthread_once_t *once, void (*fn)(void))
{
	return st_once(once, fn, ST_CALLER());
}
