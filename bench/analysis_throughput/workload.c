/* A workload that makes a multi-million-event trace at the full level:
 * T threads each lock/unlock one of L mutexes N times (acquired + released
 * per iteration, plus the contended paths' events).
 * usage: workload T N L */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t locks[64];
static long counters[64];
static int T = 4, N = 500000, L = 4;

static void *run(void *arg)
{
	unsigned s = (unsigned)(long)arg * 2654435761u + 1;
	for (int i = 0; i < N; i++) {
		s = s * 1103515245u + 12345u;
		int k = (int)((s >> 16) % (unsigned)L);
		pthread_mutex_lock(&locks[k]);
		counters[k]++;
		pthread_mutex_unlock(&locks[k]);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[64];
	if (argc > 1)
		T = atoi(argv[1]);
	if (argc > 2)
		N = atoi(argv[2]);
	if (argc > 3)
		L = atoi(argv[3]);
	if (T < 1 || T > 64 || L < 1 || L > 64)
		return 2;
	for (int i = 0; i < L; i++)
		pthread_mutex_init(&locks[i], NULL);
	for (int i = 0; i < T; i++)
		pthread_create(&t[i], NULL, run, (void *)(long)i);
	long sum = 0;
	for (int i = 0; i < T; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < L; i++) {
		sum += counters[i];
		pthread_mutex_destroy(&locks[i]);
	}
	printf("workload: %ld acquisitions\n", sum);
	return sum == (long)T * N ? 0 : 1;
}
