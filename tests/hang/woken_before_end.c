/* Looks like sem_cycle but does not hang: `consumer` waits on `items`
 * holding `pool_lock` while `producer` sleeps on pool_lock, and then main
 * posts `items`: consumer wakes, releases the lock, producer posts, both
 * end. Nothing is blocked at the end. usage: woken_before_end READY */
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
	sem_wait(&items);               /* round 2: main posts */
	pthread_mutex_unlock(&pool_lock);
	sem_wait(&items);               /* round 3: producer's second post */
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
	produce();                      /* sleeps on pool_lock until main's post */
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
	sem_post(&items);               /* the rescue */
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	hang_ready(argv[1]);
}
