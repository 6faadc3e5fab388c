/* A semaphore hang: `consumer` waits on `items` holding `pool_lock`; its
 * only poster `producer` (known: it posted once while consumer slept)
 * needs pool_lock first. usage: sem_cycle READY */
#include "hang_pool.h"

static void *consumer(void *arg)
{
	(void)arg;
	hang_consumer_rounds();         /* round 2: never */
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	if (argc != 2)
		return 2;
	hang_pool_reached(&a, &b, consumer);
	hang_ready(argv[1]);
}
