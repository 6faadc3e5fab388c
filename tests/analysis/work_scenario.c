/* Wakeups per unit of work, known exactly.
 * usage: work_scenario K M
 *   A consumer thread takes K tokens from semaphore S (initially 0), each
 *   while asleep in the kernel: main posts only once the consumer is
 *   registered as a sleeper and has had time to enter FUTEX_WAIT. After
 *   each token the consumer declares one unit (synctrace_work(1)); main
 *   declares 2 batches of M units at the end.
 * Traced, the report must say: K + 2M units; K futex wakes, each waking one
 * thread, K semaphore wakeups, all issued by main; the consumer woken K
 * times (1 per unit of its own); K / (K + 2M) threads woken per unit.
 * Run without synctrace (glibc) or preloaded without tracing, the weak
 * synctrace_work_done is null or does nothing: the program runs the same. */
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "synctrace/work.h"

static sem_t s;
static atomic_int done;
static int K = 6, M = 3;

/* The semaphore's registered sleepers: the high half of its first 64-bit
 * word, in synctrace's layout and in glibc's (new_sem.data) alike. */
static int sleepers(void)
{
	return atomic_load((_Atomic int *)((char *)&s + 4));
}

static void *consumer(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "consumer");
	for (int i = 0; i < K; i++) {
		if (sem_wait(&s)) {
			perror("sem_wait");
			exit(1);
		}
		synctrace_work(1);
		atomic_store(&done, i + 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	if (argc > 1)
		K = atoi(argv[1]);
	if (argc > 2)
		M = atoi(argv[2]);
	if (sem_init(&s, 0, 0) || pthread_create(&t, NULL, consumer, NULL))
		return 1;
	for (int i = 0; i < K; i++) {
		while (!sleepers())
			usleep(100);
		usleep(20000); /* let it reach FUTEX_WAIT */
		sem_post(&s);
		while (atomic_load(&done) != i + 1)
			usleep(100);
	}
	pthread_join(t, NULL);
	synctrace_work(M);
	synctrace_work(M);
	sem_destroy(&s);
	printf("work_scenario: K=%d M=%d done (synctrace_work_done %s)\n", K, M,
	       synctrace_work_done ? "resolved" : "absent");
	return 0;
}
