/* N producers, N consumers, a bounded channel guarded by two counting
 * semaphores (slots, items) and a mutex.
 * usage: sem_channel [n=2] [capacity=16] [seconds=1]
 * prints: sem_channel n=N capacity=C items=I seconds=S items_per_s=R */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static sem_t slots, items;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int *ring, cap, head, tail;
static volatile int stop;
static long consumed;

static void *producer(void *p)
{
	(void)p;
	while (!stop) {
		sem_wait(&slots);
		pthread_mutex_lock(&m);
		ring[tail] = 1;
		tail = (tail + 1) % cap;
		pthread_mutex_unlock(&m);
		sem_post(&items);
	}
	return 0;
}

static void *consumer(void *p)
{
	(void)p;
	long mine = 0;
	struct timespec t;
	for (;;) {
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += 10000000;
		if (t.tv_nsec >= 1000000000)
			t.tv_sec++, t.tv_nsec -= 1000000000;
		if (sem_timedwait(&items, &t)) {
			if (stop)
				break;
			continue;
		}
		pthread_mutex_lock(&m);
		mine += ring[head];
		head = (head + 1) % cap;
		pthread_mutex_unlock(&m);
		sem_post(&slots);
	}
	__atomic_fetch_add(&consumed, mine, __ATOMIC_RELAXED);
	return 0;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	cap = argc > 2 ? atoi(argv[2]) : 16;
	double secs = argc > 3 ? atof(argv[3]) : 1.0;
	pthread_t p[64], c[64];
	if (n < 1 || n > 64 || cap < 1)
		return 2;
	ring = calloc((size_t)cap, sizeof(*ring));
	sem_init(&slots, 0, (unsigned)cap);
	sem_init(&items, 0, 0);
	double t0 = now();
	for (int i = 0; i < n; i++) {
		pthread_create(&p[i], 0, producer, 0);
		pthread_create(&c[i], 0, consumer, 0);
	}
	struct timespec d = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
	nanosleep(&d, 0);
	stop = 1;
	for (int i = 0; i < n; i++) /* unblock producers waiting for a slot */
		sem_post(&slots);
	for (int i = 0; i < n; i++)
		pthread_join(p[i], 0);
	for (int i = 0; i < n; i++)
		pthread_join(c[i], 0);
	double el = now() - t0;
	printf("sem_channel n=%d capacity=%d items=%ld seconds=%.3f items_per_s=%.0f\n", n, cap,
	       consumed, el, consumed / el);
	return 0;
}
