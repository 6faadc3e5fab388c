/* A barrier that can never fill: three threads pass round 0 of `gate`
 * (count 3), `quitter` exits, the other two arrive at round 1 and wait for
 * ever. usage: barrier_exit READY */
#include "hang_util.h"

static pthread_barrier_t gate;
static _Atomic pid_t tids[2];

static void *stayer(void *arg)
{
	int i = (int)(long)arg;
	hang_name(i ? "stayer1" : "stayer0");
	atomic_store(&tids[i], hang_tid());
	pthread_barrier_wait(&gate);    /* round 0 */
	pthread_barrier_wait(&gate);    /* round 1: never opens */
	return NULL;
}

static void *quitter(void *arg)
{
	(void)arg;
	hang_name("quitter");
	pthread_barrier_wait(&gate);    /* round 0, then it exits */
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b, q;
	if (argc != 2 || pthread_barrier_init(&gate, NULL, 3))
		return 2;
	pthread_create(&a, NULL, stayer, (void *)0L);
	pthread_create(&b, NULL, stayer, (void *)1L);
	pthread_create(&q, NULL, quitter, NULL);
	pthread_join(q, NULL);
	hang_wait_asleep(&tids[0], HANG_FUTEX, "stayer0");
	hang_wait_asleep(&tids[1], HANG_FUTEX, "stayer1");
	hang_ready(argv[1]);
}
