/* THREADS threads lock and unlock one mutex ROUNDS times each, yielding
 * the CPU while holding it every 16th time (so the others find it held
 * and sleep: contended waits whatever the scheduling): many short waits,
 * whose aggregation emits summaries while the thread's batch is held (a
 * table filling up). Prints "hot: acquisitions=N".
 * usage: hot THREADS ROUNDS */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t hot = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned long counter;
static int rounds;

static void *run(void *arg)
{
	(void)arg;
	for (int i = 0; i < rounds; i++) {
		pthread_mutex_lock(&hot);
		for (int k = 0; k < 50; k++)
			counter++;
		if (i % 16 == 0)
			sched_yield();
		pthread_mutex_unlock(&hot);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	pthread_t t[16];
	rounds = argc > 2 ? atoi(argv[2]) : 20000;
	if (n < 1 || n > 16)
		return 2;
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], 0, run, 0))
			return 2;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], 0);
	printf("hot: acquisitions=%lu\n", counter / 50);
	return counter == 50ul * (unsigned long)n * (unsigned long)rounds ? 0 : 1;
}
