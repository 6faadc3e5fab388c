/* Looks like sem_cycle but does not hang: `consumer` waits on `items`
 * holding `pool_lock` while `producer` sleeps on pool_lock, and then main
 * posts `items`: consumer wakes, releases the lock, producer posts, both
 * end. Nothing is blocked at the end. usage: woken_before_end READY */
#include "hang_pool.h"

static void *consumer(void *arg)
{
	(void)arg;
	hang_consumer_rounds();         /* round 2: main posts */
	pthread_mutex_unlock(&pool_lock);
	sem_wait(&items);               /* round 3: the producer's second post */
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	if (argc != 2)
		return 2;
	hang_pool_reached(&a, &b, consumer);
	sem_post(&items);               /* the rescue */
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	hang_ready(argv[1]);
}
