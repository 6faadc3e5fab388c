/* A semaphore hang before any post: main waits on `items` holding
 * `pool_lock`, and `producer`, which would post first, sleeps on
 * pool_lock. No poster is known (none ever posted), but every thread of
 * the process is blocked (the thread that says so exits first): nothing
 * in it can end the waits. usage: first_post READY */
#include <semaphore.h>

#include "hang_util.h"

static sem_t items;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic pid_t main_tid, producer_tid;
static const char *ready;

static void *producer(void *arg)
{
	(void)arg;
	hang_name("producer");
	atomic_store(&producer_tid, hang_tid());
	pthread_mutex_lock(&pool_lock); /* never */
	sem_post(&items);
	pthread_mutex_unlock(&pool_lock);
	return NULL;
}

static void *watcher(void *arg)
{
	(void)arg;
	hang_wait_asleep(&main_tid, HANG_FUTEX, "main");
	hang_say_ready(ready);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t p, w;
	if (argc != 2 || sem_init(&items, 0, 0))
		return 2;
	ready = argv[1];
	atomic_store(&main_tid, hang_tid());
	pthread_mutex_lock(&pool_lock);
	pthread_create(&p, NULL, producer, NULL);
	hang_wait_asleep(&producer_tid, HANG_FUTEX, "producer");
	pthread_create(&w, NULL, watcher, NULL);
	sem_wait(&items);               /* never */
	return 0;
}
