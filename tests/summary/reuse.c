/* Memory of a synchronization object used again as another kind, with no
 * init in between (a zeroed pthread_mutex_t is a default mutex): the
 * report must give the new object its own numbers at both levels, not
 * drop them or add them to the old one's row (analysis/model/model.c,
 * sa_model_object_as). At the summary level the old object may even
 * still be alive to the analyzer: a semaphore's destroy kept back
 * (src/trace/summary.c, graves) is written only at exit.
 * A: a semaphore, 3 lives at one site (a failed trywait each), then a
 * mutex. B: a barrier (its destroy always written), then a mutex. Each
 * mutex: held by main while a thread fails TRIES trylocks. Deterministic:
 * no contention.
 * usage: reuse [TRIES] */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static union {
	sem_t s;
	pthread_mutex_t m;
} a;
static union {
	pthread_barrier_t b;
	pthread_mutex_t m;
} b;
static int tries = 5;

static void *worker(void *arg)
{
	pthread_mutex_t *m = arg;
	for (int i = 0; i < tries; i++)
		CHECK_EQ(pthread_mutex_trylock(m), EBUSY);
	return NULL;
}

/* m, fresh from memset: main holds it while a thread fails its trylocks. */
static void use_mutex(pthread_mutex_t *m)
{
	pthread_t t;
	CHECK_EQ(pthread_mutex_lock(m), 0);
	CHECK_EQ(pthread_create(&t, NULL, worker, m), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK_EQ(pthread_mutex_unlock(m), 0);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		tries = atoi(argv[1]);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(sem_init(&a.s, 0, 0), 0);
		CHECK_EQ(sem_trywait(&a.s), -1);
		CHECK_EQ(sem_destroy(&a.s), 0);
	}
	memset(&a, 0, sizeof(a));
	use_mutex(&a.m);

	CHECK_EQ(pthread_barrier_init(&b.b, NULL, 1), 0);
	CHECK(pthread_barrier_wait(&b.b) == PTHREAD_BARRIER_SERIAL_THREAD);
	CHECK_EQ(pthread_barrier_destroy(&b.b), 0);
	memset(&b, 0, sizeof(b));
	use_mutex(&b.m);
	return 0;
}
