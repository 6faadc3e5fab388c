/* A burst of events: PAIRS lock/unlock pairs from each of THREADS threads,
 * on their own mutexes (uncontended), as fast as they go. At full level
 * each pair is one synctrace_mutex:released event.
 * usage: burst THREADS PAIRS */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long pairs;

static void *run(void *arg)
{
	pthread_mutex_t *m = arg;
	for (long i = 0; i < pairs; i++) {
		pthread_mutex_lock(m);
		pthread_mutex_unlock(m);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	pairs = argc > 2 ? atol(argv[2]) : 5000000;
	pthread_t t[16];
	pthread_mutex_t m[16];
	if (n < 1 || n > 16)
		return 2;
	for (int i = 0; i < n; i++) {
		pthread_mutex_init(&m[i], 0);
		pthread_create(&t[i], 0, run, &m[i]);
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], 0);
	printf("burst: %d threads x %ld pairs\n", n, pairs);
	return 0;
}
