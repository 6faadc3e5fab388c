/* glibc 13690 / musl 2011: threads drop references under the object's own
 * lock; the last one destroys and frees it right after unlocking. An
 * unlock that touched the mutex after releasing it would write freed
 * memory (glibc's malloc reuses it at once; the next round's object often
 * lands at the same address). */
#include <pthread.h>
#include <stdlib.h>

#include "check.h"

#define THREADS 4
#define ROUNDS 3000

struct obj {
	pthread_mutex_t lock;
	int refs;
	long payload[4];
};

static struct obj *volatile current;
static pthread_barrier_t start;

static void drop(struct obj *o)
{
	CHECK_EQ(pthread_mutex_lock(&o->lock), 0);
	int last = --o->refs == 0;
	CHECK_EQ(pthread_mutex_unlock(&o->lock), 0);
	if (last) {
		CHECK_EQ(pthread_mutex_destroy(&o->lock), 0);
		for (int i = 0; i < 4; i++)
			o->payload[i] = -1;
		free(o);
	}
}

static void *run(void *arg)
{
	(void)arg;
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&start);
		drop(current);
		pthread_barrier_wait(&start);
	}
	return 0;
}

int main(void)
{
	pthread_t t[THREADS];
	CHECK_EQ(pthread_barrier_init(&start, 0, THREADS + 1), 0);
	for (int i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_create(&t[i], 0, run, 0), 0);
	for (int r = 0; r < ROUNDS; r++) {
		struct obj *o = calloc(1, sizeof(*o));
		CHECK(o);
		CHECK_EQ(pthread_mutex_init(&o->lock, 0), 0);
		o->refs = THREADS;
		current = o;
		pthread_barrier_wait(&start); /* go */
		pthread_barrier_wait(&start); /* all dropped */
	}
	for (int i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	printf("destroy after unlock: %d rounds\n", ROUNDS);
	return 0;
}
