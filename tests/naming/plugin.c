/* A library the loader (loader.c) dlopens after the process started, so
 * after the announcement's list of loaded objects: its lock is named only
 * through the meta:module event the probes' dlopen emits for it. */
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

pthread_mutex_t plugin_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int worker_tid;

static void *worker(void *arg)
{
	(void)arg;
	__atomic_store_n(&worker_tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	CHECK_EQ(pthread_mutex_lock(&plugin_lock), 0); /* NAMESITE plugin */
	CHECK_EQ(pthread_mutex_unlock(&plugin_lock), 0);
	return NULL;
}

/* plugin_lock contended once (a worker sleeps on it, or 2 s pass). */
__attribute__((visibility("default"))) void plugin_run(void)
{
	pthread_t t;
	CHECK_EQ(pthread_mutex_lock(&plugin_lock), 0);
	CHECK_EQ(pthread_create(&t, NULL, worker, NULL), 0);
	while (!__atomic_load_n(&worker_tid, __ATOMIC_ACQUIRE))
		usleep(100);
	for (int i = 0; i < 20000 && !st_thread_in_futex_wait(worker_tid); i++)
		usleep(100);
	CHECK_EQ(pthread_mutex_unlock(&plugin_lock), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
}
