/* No lost wakeup, and nothing touched after the release (src/rwlock/
 * rwlock.h, "Who wakes"). Run with SYNCTRACE_SPIN=none: every wait that
 * cannot take the lock at once sleeps, and sleepers acquiring from the
 * sleep loop clear S and must put it back for the others.
 *
 * 1. Readers and writers, each lock held across a yield so that the
 *    others go to sleep; every lock has a deadline far beyond what it
 *    needs: ETIMEDOUT is a sleeper nobody woke.
 * 2. The lock on its own page: a reader releases while a writer sleeps
 *    or waits; the writer takes it, releases, destroys it and unmaps the
 *    page at once, while the reader's unlock may still run: its wake goes
 *    to an unmapped address and must be harmless. An unlock that read the
 *    lock after its releasing RMW would fault only if preempted right
 *    there (a seeded read passed 5 of 5 runs): tests/model/rwlock.pml
 *    (MUT_GATE_AFTER) is the check for that. */
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"

#define THREADS 5
#define WRITERS 2
#define ROUNDS 2000

static pthread_rwlock_t rw;
static long shared_value;

static struct timespec in_s(int s)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += s;
	return t;
}

static void *worker(void *p)
{
	long id = (long)p;
	for (int i = 0; i < ROUNDS; i++) {
		struct timespec t = in_s(10);
		if (id < WRITERS || i % 16 == 0) {
			CHECK_EQ(pthread_rwlock_clockwrlock(&rw, CLOCK_MONOTONIC, &t), 0);
			long v = shared_value;
			sched_yield();
			shared_value = v + 1;
		} else {
			CHECK_EQ(pthread_rwlock_clockrdlock(&rw, CLOCK_MONOTONIC, &t), 0);
			long v = shared_value;
			if (i % 4 == 0)
				sched_yield();
			CHECK_EQ(shared_value, v);
		}
		CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	}
	return 0;
}

static void sleepers_are_woken(int kind)
{
	pthread_rwlockattr_t a;
	pthread_t t[THREADS];
	CHECK_EQ(pthread_rwlockattr_init(&a), 0);
	CHECK_EQ(pthread_rwlockattr_setkind_np(&a, kind), 0);
	CHECK_EQ(pthread_rwlock_init(&rw, &a), 0);
	shared_value = 0;
	for (long i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_create(&t[i], 0, worker, (void *)i), 0);
	for (int i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	CHECK_EQ(shared_value, WRITERS * ROUNDS + (THREADS - WRITERS) * (ROUNDS / 16));
	CHECK_EQ(pthread_rwlock_destroy(&rw), 0);
}

static pthread_rwlock_t *paged;
static volatile int writer_started;

static void *destroying_writer(void *p)
{
	(void)p;
	struct timespec t = in_s(10);
	writer_started = 1;
	CHECK_EQ(pthread_rwlock_clockwrlock(paged, CLOCK_MONOTONIC, &t), 0);
	CHECK_EQ(pthread_rwlock_unlock(paged), 0);
	/* Nobody holds or waits: the reader's release came before our lock. */
	CHECK_EQ(pthread_rwlock_destroy(paged), 0);
	CHECK_EQ(munmap(paged, (size_t)sysconf(_SC_PAGESIZE)), 0);
	return 0;
}

static void unlock_leaves_the_lock_alone(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	for (int i = 0; i < 300; i++) {
		void *m = mmap(0, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		CHECK(m != MAP_FAILED);
		paged = m;
		CHECK_EQ(pthread_rwlock_init(paged, 0), 0);
		CHECK_EQ(pthread_rwlock_rdlock(paged), 0);
		pthread_t w;
		writer_started = 0;
		CHECK_EQ(pthread_create(&w, 0, destroying_writer, 0), 0);
		while (!writer_started)
			sched_yield();
		if (i % 2)
			usleep(100); /* let it sleep, so the unlock wakes */
		CHECK_EQ(pthread_rwlock_unlock(paged), 0);
		CHECK_EQ(pthread_join(w, 0), 0);
	}
}

int main(void)
{
	st_check_interposed("pthread_rwlock_clockwrlock");
	sleepers_are_woken(PTHREAD_RWLOCK_PREFER_READER_NP);
	sleepers_are_woken(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	unlock_leaves_the_lock_alone();
	return 0;
}
