/* The two-queue workload of the 2003 NPTL condvar thread (see
 * /work/shared/SEEDS.md, seed 001). Variant cond: the suppliers signal the
 * one condvar whenever the consumer waits, under the one mutex. Variant
 * twomutex: each queue has its own mutex; a separate mutex guards a
 * sequence number and the condvar, so the consumer sleeps only if no
 * supplier advanced the sequence since it last looked. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

struct queue {
	int *slot;
	long head, tail;         /* consumer reads head, supplier writes tail */
	pthread_mutex_t lock;    /* twomutex: guards head/tail */
};

struct twoqueue {
	int twomutex;
	long n;
	struct queue q[2];
	pthread_mutex_t lock;    /* cond: both queues; twomutex: seq and waiting */
	pthread_cond_t more;
	unsigned long seq;       /* twomutex: bumped after every insertion */
	int waiting;             /* the consumer is in its wait */
	long wakeups;
};

struct supplier_arg {
	struct twoqueue *t;
	int which;
};

static void *supplier(void *arg)
{
	struct supplier_arg *a = arg;
	struct twoqueue *t = a->t;
	struct queue *q = &t->q[a->which];
	for (long i = 0; i < t->n; i++) {
		if (t->twomutex) {
			pthread_mutex_lock(&q->lock);
			q->slot[q->tail++] = (int)i;
			pthread_mutex_unlock(&q->lock);
		}
		pthread_mutex_lock(&t->lock);
		if (!t->twomutex)
			q->slot[q->tail++] = (int)i;
		else
			t->seq++;
		if (t->waiting)
			pthread_cond_signal(&t->more);
		pthread_mutex_unlock(&t->lock);
	}
	return 0;
}

static long take_all(struct queue *q)
{
	long k = q->tail - q->head;
	q->head = q->tail;
	return k;
}

static void consume_cond(struct twoqueue *t)
{
	long got = 0;
	pthread_mutex_lock(&t->lock);
	while (got < 2 * t->n) {
		long k = take_all(&t->q[0]) + take_all(&t->q[1]);
		got += k;
		if (k || got == 2 * t->n)
			continue;
		t->waiting = 1;
		pthread_cond_wait(&t->more, &t->lock);
		t->waiting = 0;
		t->wakeups++;
	}
	pthread_mutex_unlock(&t->lock);
}

static void consume_twomutex(struct twoqueue *t)
{
	long got = 0;
	while (got < 2 * t->n) {
		pthread_mutex_lock(&t->lock);
		unsigned long seen = t->seq;
		pthread_mutex_unlock(&t->lock);
		long k = 0;
		for (int i = 0; i < 2; i++) {
			pthread_mutex_lock(&t->q[i].lock);
			k += take_all(&t->q[i]);
			pthread_mutex_unlock(&t->q[i].lock);
		}
		got += k;
		if (k || got == 2 * t->n)
			continue;
		pthread_mutex_lock(&t->lock);
		if (t->seq == seen) {   /* nothing arrived since we looked: sleep */
			t->waiting = 1;
			pthread_cond_wait(&t->more, &t->lock);
			t->waiting = 0;
			t->wakeups++;
		}
		pthread_mutex_unlock(&t->lock);
	}
}

static void *consumer(void *arg)
{
	struct twoqueue *t = arg;
	if (t->twomutex)
		consume_twomutex(t);
	else
		consume_cond(t);
	return 0;
}

int twoqueue_run(int twomutex, long n, struct twoqueue_result *r)
{
	struct twoqueue t = { .twomutex = twomutex, .n = n };
	struct supplier_arg sa[2] = { { &t, 0 }, { &t, 1 } };
	pthread_t s[2], c;
	pthread_mutex_init(&t.lock, 0);
	pthread_cond_init(&t.more, 0);
	for (int i = 0; i < 2; i++) {
		t.q[i].slot = malloc((size_t)n * sizeof(int));
		if (!t.q[i].slot)
			return -1;
		memset(t.q[i].slot, 0, (size_t)n * sizeof(int)); /* preallocated: fault it in */
		pthread_mutex_init(&t.q[i].lock, 0);
	}
	double start = demo_now();
	pthread_create(&c, 0, consumer, &t);
	for (int i = 0; i < 2; i++)
		pthread_create(&s[i], 0, supplier, &sa[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(s[i], 0);
	pthread_join(c, 0);
	r->seconds = demo_now() - start;
	r->messages = t.q[0].head + t.q[1].head;
	r->wakeups = t.wakeups;
	for (int i = 0; i < 2; i++) {
		pthread_mutex_destroy(&t.q[i].lock);
		free(t.q[i].slot);
	}
	pthread_cond_destroy(&t.more);
	pthread_mutex_destroy(&t.lock);
	return r->messages == 2 * n ? 0 : -1;
}
