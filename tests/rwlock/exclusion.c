/* A writer never overlaps a reader or another writer; readers do overlap.
 * Run on a reader-preferring and a writer-preferring lock. */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "check.h"

#define READERS 4
#define WRITERS 2
#define ROUNDS 20000

static pthread_rwlock_t rw;
static int readers_in, writers_in, max_readers;
static long writes;
static int ready;

/* All threads start together, or they would run one after the other. */
static void gate(void)
{
	__atomic_add_fetch(&ready, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < READERS + WRITERS)
		sched_yield();
}

static void *reader(void *p)
{
	(void)p;
	gate();
	for (int i = 0; i < ROUNDS; i++) {
		CHECK_EQ(i % 3 ? pthread_rwlock_rdlock(&rw)
			       : (pthread_rwlock_tryrdlock(&rw) ? pthread_rwlock_rdlock(&rw) : 0),
			 0);
		int n = __atomic_add_fetch(&readers_in, 1, __ATOMIC_RELAXED);
		CHECK_EQ(__atomic_load_n(&writers_in, __ATOMIC_RELAXED), 0);
		if (n > __atomic_load_n(&max_readers, __ATOMIC_RELAXED))
			__atomic_store_n(&max_readers, n, __ATOMIC_RELAXED);
		for (volatile int k = 0; k < 50; k++)
			; /* hold it a little: readers overlap, writers queue */
		__atomic_sub_fetch(&readers_in, 1, __ATOMIC_RELAXED);
		CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	}
	return 0;
}

static void *writer(void *p)
{
	(void)p;
	gate();
	for (int i = 0; i < ROUNDS / 4; i++) {
		CHECK_EQ(i % 5 ? pthread_rwlock_wrlock(&rw)
			       : (pthread_rwlock_trywrlock(&rw) ? pthread_rwlock_wrlock(&rw) : 0),
			 0);
		CHECK_EQ(__atomic_add_fetch(&writers_in, 1, __ATOMIC_RELAXED), 1);
		CHECK_EQ(__atomic_load_n(&readers_in, __ATOMIC_RELAXED), 0);
		writes++; /* plain: the lock orders it */
		for (volatile int k = 0; k < 50; k++)
			;
		__atomic_sub_fetch(&writers_in, 1, __ATOMIC_RELAXED);
		CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	}
	return 0;
}

static void run(int kind)
{
	pthread_rwlockattr_t a;
	pthread_t r[READERS], w[WRITERS];
	CHECK_EQ(pthread_rwlockattr_init(&a), 0);
	CHECK_EQ(pthread_rwlockattr_setkind_np(&a, kind), 0);
	CHECK_EQ(pthread_rwlock_init(&rw, &a), 0);
	writes = 0;
	ready = 0;
	/* Held while the threads start: they all queue up behind it. */
	CHECK_EQ(pthread_rwlock_wrlock(&rw), 0);
	for (int i = 0; i < READERS; i++)
		CHECK_EQ(pthread_create(&r[i], 0, reader, 0), 0);
	for (int i = 0; i < WRITERS; i++)
		CHECK_EQ(pthread_create(&w[i], 0, writer, 0), 0);
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < READERS + WRITERS)
		sched_yield();
	usleep(10000);
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	for (int i = 0; i < READERS; i++)
		CHECK_EQ(pthread_join(r[i], 0), 0);
	for (int i = 0; i < WRITERS; i++)
		CHECK_EQ(pthread_join(w[i], 0), 0);
	CHECK_EQ(writes, WRITERS * (ROUNDS / 4));
	CHECK_EQ(pthread_rwlock_destroy(&rw), 0);
}

int main(void)
{
	st_check_interposed("pthread_rwlock_rdlock");
	run(PTHREAD_RWLOCK_PREFER_READER_NP);
	run(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	return 0;
}
