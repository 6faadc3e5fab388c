/* The built-in demo `./synctrace.sh run` records when given no command:
 * four threads share one queue guarded by one mutex (a short critical
 * section, so they contend), and a fifth keeps trying a timed lock on a
 * mutex a sixth holds for long stretches (so timeouts show up). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define WORKERS 4
#define ITEMS 200000

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t slow_lock = PTHREAD_MUTEX_INITIALIZER;
static long queue_len, produced;
static volatile int done;

static void work(int n)
{
	for (volatile int i = 0; i < n; i++)
		;
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ITEMS; i++) {
		pthread_mutex_lock(&queue_lock);
		queue_len += (i & 1) ? 1 : -1;
		produced++;
		work(50);
		pthread_mutex_unlock(&queue_lock);
		work(100);
	}
	return 0;
}

static void *holder(void *arg)
{
	(void)arg;
	while (!done) {
		pthread_mutex_lock(&slow_lock);
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, 0);
		pthread_mutex_unlock(&slow_lock);
		ts.tv_nsec = 200000;
		nanosleep(&ts, 0);
	}
	return 0;
}

static void *impatient(void *arg)
{
	long *timeouts = arg;
	while (!done) {
		struct timespec abs;
		clock_gettime(CLOCK_REALTIME, &abs);
		abs.tv_nsec += 500000;
		if (abs.tv_nsec >= 1000000000) {
			abs.tv_sec++;
			abs.tv_nsec -= 1000000000;
		}
		if (pthread_mutex_timedlock(&slow_lock, &abs) == ETIMEDOUT)
			++*timeouts;
		else
			pthread_mutex_unlock(&slow_lock);
	}
	return 0;
}

int main(void)
{
	pthread_t w[WORKERS], h, t;
	long timeouts = 0;

	pthread_create(&h, 0, holder, 0);
	pthread_create(&t, 0, impatient, &timeouts);
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&w[i], 0, worker, 0);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(w[i], 0);
	done = 1;
	pthread_join(h, 0);
	pthread_join(t, 0);
	printf("demo: %ld items through one mutex by %d threads; %ld timed locks timed out\n",
	       produced, WORKERS, timeouts);
	return produced == (long)WORKERS * ITEMS ? 0 : 1;
}
