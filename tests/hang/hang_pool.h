/* The pool shape of sem_cycle.c and woken_before_end.c: a producer posts
 * `items` under pool_lock, a consumer waits for them. Round 1 makes the
 * producer a known poster: it posts while the consumer sleeps on items;
 * then the consumer takes pool_lock and waits again (phase 2). */
#ifndef HANG_POOL_H
#define HANG_POOL_H

#include <semaphore.h>

#include "hang_util.h"

static sem_t items;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic pid_t consumer_tid, producer_tid;
static _Atomic int phase;

static inline void produce(void)
{
	pthread_mutex_lock(&pool_lock);
	sem_post(&items);
	pthread_mutex_unlock(&pool_lock);
}

/* The consumer's round 1 and its second wait, holding pool_lock. */
static inline void hang_consumer_rounds(void)
{
	hang_name("consumer");
	atomic_store(&consumer_tid, hang_tid());
	sem_wait(&items);               /* round 1: the producer posts */
	pthread_mutex_lock(&pool_lock);
	atomic_store(&phase, 2);
	sem_wait(&items);               /* round 2 */
}

static void *producer(void *arg)
{
	(void)arg;
	hang_name("producer");
	atomic_store(&producer_tid, hang_tid());
	hang_wait_asleep(&consumer_tid, HANG_FUTEX, "consumer (round 1)");
	produce();
	hang_wait_phase(&phase, 2);
	hang_wait_asleep(&consumer_tid, HANG_FUTEX, "consumer (round 2)");
	produce();                      /* sleeps on pool_lock, held by the consumer */
	return NULL;
}

/* main: both threads started, the consumer in round 2, both asleep. */
static inline void hang_pool_reached(pthread_t *c, pthread_t *p, void *(*consumer)(void *))
{
	if (sem_init(&items, 0, 0))
		exit(2);
	pthread_create(c, NULL, consumer, NULL);
	pthread_create(p, NULL, producer, NULL);
	hang_wait_phase(&phase, 2);
	hang_wait_asleep(&consumer_tid, HANG_FUTEX, "consumer");
	hang_wait_asleep(&producer_tid, HANG_FUTEX, "producer");
}

#endif
