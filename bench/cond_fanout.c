/* One signaler, several waiters (the 2014 seed's cond_bench shape): the
 * signaler posts one item at a time under the mutex and signals; each
 * waiter sleeps until an item is there and takes it. At most `waiters`
 * items are outstanding, so the signaler waits for room on a second
 * condvar. A completed signal is an item taken by a woken waiter.
 * usage: cond_fanout [waiters=4] [seconds=1]
 * prints: cond_fanout waiters=N signals=S seconds=T signals_per_s=R */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t avail = PTHREAD_COND_INITIALIZER; /* items for waiters */
static pthread_cond_t room = PTHREAD_COND_INITIALIZER;  /* room for the signaler */
static long pending, taken;
static int nwaiters, stop;

static void *waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	for (;;) {
		while (!pending && !stop)
			pthread_cond_wait(&avail, &m);
		if (stop)
			break;
		pending--;
		taken++;
		pthread_cond_signal(&room);
	}
	pthread_mutex_unlock(&m);
	return 0;
}

static void *signaler(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	while (!stop) {
		while (pending >= nwaiters && !stop)
			pthread_cond_wait(&room, &m);
		pending++;
		pthread_cond_signal(&avail);
	}
	pthread_mutex_unlock(&m);
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
	nwaiters = argc > 1 ? atoi(argv[1]) : 4;
	double secs = argc > 2 ? atof(argv[2]) : 1.0;
	pthread_t t[65];
	if (nwaiters < 1 || nwaiters > 64)
		return 2;
	double t0 = now();
	for (int i = 0; i < nwaiters; i++)
		pthread_create(&t[i], 0, waiter, 0);
	pthread_create(&t[nwaiters], 0, signaler, 0);
	struct timespec d = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
	nanosleep(&d, 0);
	pthread_mutex_lock(&m);
	stop = 1;
	long n = taken;
	pthread_cond_broadcast(&avail);
	pthread_cond_broadcast(&room);
	pthread_mutex_unlock(&m);
	double el = now() - t0;
	for (int i = 0; i <= nwaiters; i++)
		pthread_join(t[i], 0);
	printf("cond_fanout waiters=%d signals=%ld seconds=%.3f signals_per_s=%.0f\n",
	       nwaiters, n, el, n / el);
	return 0;
}
