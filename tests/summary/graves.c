/* Lives of semaphores passed between threads through a pool of shared
 * memory slots, as fast as they go: the summary level keeps destroys back
 * (src/trace/summary.c, graves) and takes them back at the same thread's
 * next init there from the same site, while other threads take the same
 * slots and must write those kept destroys first. However the threads
 * interleave, each init site's class must end with exactly its lives
 * (objects) and their failed trywaits, as at the contention level.
 * THREADS threads, ROUNDS rounds each: take a free slot (any), initialise
 * a semaphore there from site A (rounds r % 3 != 0) or B, fail a trywait
 * (A) or two (B), destroy it, free the slot.
 * usage: graves THREADS ROUNDS */
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

#define SLOTS 6
static sem_t *pool;   /* on the heap: named by their init sites */
static int busy[SLOTS];
static int rounds = 200;
static volatile int site_a, site_b; /* keep the two sites' code apart */

static __attribute__((noinline)) void sem_a(sem_t *s)
{
	CHECK_EQ(sem_init(s, 0, 0), 0);
	site_a++;
}

static __attribute__((noinline)) void sem_b(sem_t *s)
{
	CHECK_EQ(sem_init(s, 0, 0), 0);
	site_b--;
}

static int take_slot(unsigned *seed)
{
	for (;;) {
		int i = (int)(rand_r(seed) % SLOTS);
		if (!__atomic_exchange_n(&busy[i], 1, __ATOMIC_ACQUIRE))
			return i;
		sched_yield();
	}
}

static void *worker(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;
	for (int r = 0; r < rounds; r++) {
		int i = take_slot(&seed);
		sem_t *s = &pool[i];
		int b = r % 3 == 0;
		if (b)
			sem_b(s);
		else
			sem_a(s);
		for (int k = 0; k <= b; k++)
			CHECK_EQ(sem_trywait(s), -1);
		CHECK_EQ(sem_destroy(s), 0);
		__atomic_store_n(&busy[i], 0, __ATOMIC_RELEASE);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	if (argc > 2)
		rounds = atoi(argv[2]);
	pthread_t t[16];
	CHECK(n > 0 && n <= 16 && rounds > 0);
	CHECK((pool = calloc(SLOTS, sizeof(*pool))) != NULL);
	for (int i = 0; i < n; i++)
		CHECK_EQ(pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)(i + 1)), 0);
	for (int i = 0; i < n; i++)
		CHECK_EQ(pthread_join(t[i], NULL), 0);
	return 0;
}
