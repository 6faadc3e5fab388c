/* The 2003 NPTL two-queue workload (shared/SEEDS.md): two suppliers each
 * insert N ints into their own preallocated queue as fast as they can; one
 * consumer drains both.
 *   cond      one mutex + one condvar for both queues
 *   twomutex  one mutex per queue, and a "twomutex" condvar (a mutex, a
 *             condvar and a sequence number; the consumer compares the
 *             sequence before draining and before sleeping)
 * Suppliers signal after every message, as the seed's twomutex_cond_signal
 * does (the twomutex signal is sent with the queue mutex held, as there);
 * "waiting" as third argument signals only when the consumer sleeps.
 * The consumer sleeps on the twomutex condvar's own mutex, not on a queue
 * mutex as in the seed's pseudo-code: that closes its lost-wakeup window
 * (a signal sent between the second sequence read and the wait).
 * usage: cond_twoqueue [cond|twomutex] [N=1000000] [always|waiting]
 * prints: variant, time, messages, consumer wakeups (returns from
 * pthread_cond_wait), messages per wakeup, and the consumer's context
 * switches: sleeps (voluntary: it blocked in the kernel) and messages per
 * sleep, preempted (involuntary). A wait that ends by spinning is a wakeup
 * but not a sleep; in 2003 every wakeup was a sleep. A consumer that never
 * waited (the suppliers were done before it ran) moved every message in
 * its one pass: both rates are then the whole count, not 0. */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct queue {
	int *buf;
	long head, tail; /* consumer reads head, supplier writes tail */
	pthread_mutex_t m;
};

static struct queue q[2];
static long n;
static int twomutex;
static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER; /* variant cond */
static pthread_cond_t big_c = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t tm_m = PTHREAD_MUTEX_INITIALIZER; /* twomutex */
static pthread_cond_t tm_c = PTHREAD_COND_INITIALIZER;
static unsigned long tm_seq;
static int consumer_waiting;
static long wakeups;
static int always = 1; /* signal after every message */
/* The consumer's context switches: voluntary ones are the times it
 * really slept (in any library, whether the wait spun first or not). */
static long sleeps, preempted;

static void count_switches(void)
{
	struct rusage ru;
	if (!getrusage(RUSAGE_THREAD, &ru)) {
		sleeps = ru.ru_nvcsw;
		preempted = ru.ru_nivcsw;
	}
}

static void *supplier(void *arg)
{
	struct queue *qq = &q[(long)arg];
	for (long i = 0; i < n; i++) {
		if (!twomutex) {
			pthread_mutex_lock(&big);
			qq->buf[qq->tail++] = (int)i;
			if (always || consumer_waiting)
				pthread_cond_signal(&big_c);
			pthread_mutex_unlock(&big);
		} else {
			pthread_mutex_lock(&qq->m);
			qq->buf[qq->tail++] = (int)i;
			pthread_mutex_lock(&tm_m);
			tm_seq++;
			int w = consumer_waiting;
			pthread_mutex_unlock(&tm_m);
			if (always || w)
				pthread_cond_signal(&tm_c);
			pthread_mutex_unlock(&qq->m);
		}
	}
	return 0;
}

static long drain(struct queue *qq)
{
	long k = qq->tail - qq->head;
	qq->head = qq->tail;
	return k;
}

static void *consumer(void *arg)
{
	long got = 0;
	(void)arg;
	if (!twomutex) {
		pthread_mutex_lock(&big);
		while (got < 2 * n) {
			long k = drain(&q[0]) + drain(&q[1]);
			got += k;
			if (!k) {
				consumer_waiting = 1;
				pthread_cond_wait(&big_c, &big);
				consumer_waiting = 0;
				wakeups++;
			}
		}
		pthread_mutex_unlock(&big);
		count_switches();
		return 0;
	}
	while (got < 2 * n) {
		pthread_mutex_lock(&tm_m);
		unsigned long seq = tm_seq;
		pthread_mutex_unlock(&tm_m);
		long k = 0;
		for (int i = 0; i < 2; i++) {
			pthread_mutex_lock(&q[i].m);
			k += drain(&q[i]);
			pthread_mutex_unlock(&q[i].m);
		}
		got += k;
		if (k)
			continue;
		pthread_mutex_lock(&tm_m);
		if (tm_seq == seq) {
			consumer_waiting = 1;
			pthread_cond_wait(&tm_c, &tm_m);
			consumer_waiting = 0;
			wakeups++;
		}
		pthread_mutex_unlock(&tm_m);
	}
	count_switches();
	return 0;
}

int main(int argc, char **argv)
{
	twomutex = argc > 1 && !strcmp(argv[1], "twomutex");
	n = argc > 2 ? atol(argv[2]) : 1000000;
	always = !(argc > 3 && !strcmp(argv[3], "waiting"));
	pthread_t s[2], c;
	for (int i = 0; i < 2; i++) {
		q[i].buf = malloc(n * sizeof(int));
		memset(q[i].buf, 0, n * sizeof(int)); /* preallocated: fault it in */
		pthread_mutex_init(&q[i].m, 0);
	}
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	pthread_create(&c, 0, consumer, 0);
	for (long i = 0; i < 2; i++)
		pthread_create(&s[i], 0, supplier, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(s[i], 0);
	pthread_join(c, 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double t = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	printf("cond_twoqueue variant=%s signal=%s seconds=%.3f messages=%ld wakeups=%ld messages_per_wakeup=%.1f sleeps=%ld messages_per_sleep=%.1f preempted=%ld\n",
	       twomutex ? "twomutex" : "cond", always ? "always" : "waiting", t, 2 * n, wakeups,
	       wakeups ? 2.0 * n / wakeups : 2.0 * n, sleeps, sleeps ? 2.0 * n / sleeps : 2.0 * n, preempted);
	return 0;
}
