/* Events a thread makes after its own end, and the process after it
 * stopped tracing: a pthread key's destructor that runs after the
 * thread's thread:exit (THREADS threads, LOCKS lock/unlock pairs each) and
 * an atexit handler (one pair). `synctrace record` enables only the
 * providers of the events written singly; these transitions, with no
 * batch to go to, must still be recorded (tracepoints/probes.c). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 3
#define LOCKS 5

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t key;

static void pairs(int n)
{
	for (int i = 0; i < n; i++) {
		pthread_mutex_lock(&m);
		pthread_mutex_unlock(&m);
	}
}

static void destructor(void *p)
{
	(void)p;
	pairs(LOCKS);
}

static void *thread(void *arg)
{
	(void)arg;
	pthread_setspecific(key, &key);
	return NULL;
}

static void at_exit(void)
{
	pairs(1);
}

int main(void)
{
	if (atexit(at_exit) || pthread_key_create(&key, destructor))
		return 1;
	for (int i = 0; i < THREADS; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, thread, NULL) || pthread_join(t, NULL))
			return 1;
	}
	printf("late_events: %d x %d pairs in key destructors, 1 at exit\n", THREADS, LOCKS);
	return 0;
}
