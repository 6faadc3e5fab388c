/* A semaphore hang: `consumer` waits on `items` holding `pool_lock`; its
 * only poster `producer` (known: it posted once while consumer slept)
 * needs pool_lock first. usage: sem_cycle READY */
#include <semaphore.h>

#include "hang_util.h"

static sem_t items;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic pid_t consumer_tid, producer_tid;
static _Atomic int phase;

static void *consumer(void *arg)
{
	(void)arg;
	hang_name("consumer");
	atomic_store(&consumer_tid, hang_tid());
	sem_wait(&items);               /* round 1: producer posts */
	pthread_mutex_lock(&pool_lock);
	atomic_store(&phase, 2);
	sem_wait(&items);               /* round 2: never */
	return NULL;
}

static void produce(void)
{
	pthread_mutex_lock(&pool_lock);
	sem_post(&items);
	pthread_mutex_unlock(&pool_lock);
}

static void *producer(void *arg)
{
	(void)arg;
	hang_name("producer");
	atomic_store(&producer_tid, hang_tid());
	hang_wait_asleep(&consumer_tid, HANG_FUTEX, "consumer (round 1)");
	produce();
	hang_wait_phase(&phase, 2);
	hang_wait_asleep(&consumer_tid, HANG_FUTEX, "consumer (round 2)");
	produce();                      /* sleeps on pool_lock */
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	if (argc != 2 || sem_init(&items, 0, 0))
		return 2;
	pthread_create(&a, NULL, consumer, NULL);
	pthread_create(&b, NULL, producer, NULL);
	hang_wait_phase(&phase, 2);
	hang_wait_asleep(&consumer_tid, HANG_FUTEX, "consumer");
	hang_wait_asleep(&producer_tid, HANG_FUTEX, "producer");
	hang_ready(argv[1]);
}
