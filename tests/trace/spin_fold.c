/* Waits that a spin ends, on a semaphore, a mutex, a rwlock, a barrier and
 * a condvar (run with a spin budget far longer than a round,
 * SYNCTRACE_SPIN=full:N): ROUNDS times per object, main holds it (the
 * semaphore at 0, the mutex locked, the rwlock write-locked; the
 * barrier's round needs it, the condvar waits for its signal) and says
 * go, the worker says it is about to wait and waits, main busy-waits
 * ~30 us and lets go (or arrives, or signals after unlocking the
 * condvar's mutex: the waiter's relock does not wait; then it waits for
 * the worker's reply on a second condvar). The worker's wait
 * is then mostly ended by its spin (how SPIN), sometimes taken on the fast
 * path (no event) when main let go before the worker reached it, or
 * asleep if main was descheduled past the budget. Last, ROUNDS condvar
 * waits whose relock waits: main signals holding the mutex and keeps it
 * ~30 us more, so the woken worker waits for it in the mutex's lock
 * (shared_reads.sh). spin_fold.sh checks what the trace and the report
 * hold for those spins at each format. */
#include <pthread.h>
#include <semaphore.h>
#include <time.h>

#include "check.h"

#define ROUNDS 40

static sem_t s;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t bar;
static pthread_mutex_t cm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER, cv2 = PTHREAD_COND_INITIALIZER;
static int signalled, acked;
static int go, about_to_wait, done_round;

static void busy_us(long us)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < us * 1000);
}

static void await(int *flag, int v)
{
	while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != v)
		;
}

static void *worker(void *arg)
{
	(void)arg;
	for (int r = 1; r <= 6 * ROUNDS; r++) {
		await(&go, r);
		if (r <= 4 * ROUNDS) /* the condvar's waiter says so holding cm */
			__atomic_store_n(&about_to_wait, r, __ATOMIC_RELEASE);
		if (r <= ROUNDS) {
			CHECK_EQ(sem_wait(&s), 0);
		} else if (r <= 2 * ROUNDS) {
			CHECK_EQ(pthread_mutex_lock(&m), 0);
			CHECK_EQ(pthread_mutex_unlock(&m), 0);
		} else if (r <= 3 * ROUNDS) {
			CHECK_EQ(pthread_rwlock_rdlock(&rw), 0);
			CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
		} else if (r <= 4 * ROUNDS) {
			int b = pthread_barrier_wait(&bar);
			CHECK(b == 0 || b == PTHREAD_BARRIER_SERIAL_THREAD);
		} else if (r <= 5 * ROUNDS) {
			CHECK_EQ(pthread_mutex_lock(&cm), 0);
			__atomic_store_n(&about_to_wait, r, __ATOMIC_RELEASE);
			while (signalled != r)
				CHECK_EQ(pthread_cond_wait(&cv, &cm), 0);
			acked = r;
			CHECK_EQ(pthread_mutex_unlock(&cm), 0);
			CHECK_EQ(pthread_cond_signal(&cv2), 0);
		} else {
			CHECK_EQ(pthread_mutex_lock(&cm), 0);
			__atomic_store_n(&about_to_wait, r, __ATOMIC_RELEASE);
			while (signalled != r)
				CHECK_EQ(pthread_cond_wait(&cv, &cm), 0);
			CHECK_EQ(pthread_mutex_unlock(&cm), 0);
		}
		__atomic_store_n(&done_round, r, __ATOMIC_RELEASE);
	}
	return 0;
}

int main(void)
{
	pthread_t t;
	CHECK_EQ(sem_init(&s, 0, 0), 0);
	CHECK_EQ(pthread_barrier_init(&bar, 0, 2), 0);
	for (int r = 1; r <= 6 * ROUNDS; r++) {
		if (r > ROUNDS && r <= 2 * ROUNDS)
			CHECK_EQ(pthread_mutex_lock(&m), 0);
		else if (r > 2 * ROUNDS && r <= 3 * ROUNDS)
			CHECK_EQ(pthread_rwlock_wrlock(&rw), 0);
		if (r == 1)
			CHECK_EQ(pthread_create(&t, 0, worker, 0), 0);
		__atomic_store_n(&go, r, __ATOMIC_RELEASE);
		await(&about_to_wait, r);
		busy_us(30);
		if (r <= ROUNDS)
			CHECK_EQ(sem_post(&s), 0);
		else if (r <= 2 * ROUNDS)
			CHECK_EQ(pthread_mutex_unlock(&m), 0);
		else if (r <= 3 * ROUNDS)
			CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
		else if (r <= 4 * ROUNDS) {
			int b = pthread_barrier_wait(&bar);
			CHECK(b == 0 || b == PTHREAD_BARRIER_SERIAL_THREAD);
		} else if (r > 5 * ROUNDS) {
			/* Signalled holding cm, kept ~30 us: the relock waits. */
			CHECK_EQ(pthread_mutex_lock(&cm), 0);
			signalled = r;
			CHECK_EQ(pthread_cond_signal(&cv), 0);
			busy_us(30);
			CHECK_EQ(pthread_mutex_unlock(&cm), 0);
		} else {
			CHECK_EQ(pthread_mutex_lock(&cm), 0);
			signalled = r;
			CHECK_EQ(pthread_mutex_unlock(&cm), 0);
			CHECK_EQ(pthread_cond_signal(&cv), 0);
			/* main waits on a condvar too, so its signals are replies:
			 * a waiter they catch spinning keeps spinning (cond.h) */
			CHECK_EQ(pthread_mutex_lock(&cm), 0);
			while (acked != r)
				CHECK_EQ(pthread_cond_wait(&cv2, &cm), 0);
			CHECK_EQ(pthread_mutex_unlock(&cm), 0);
		}
		await(&done_round, r);
	}
	CHECK_EQ(pthread_join(t, 0), 0);
	CHECK_EQ(sem_destroy(&s), 0);
	CHECK_EQ(pthread_barrier_destroy(&bar), 0);
	CHECK_EQ(pthread_cond_destroy(&cv), 0);
	CHECK_EQ(pthread_cond_destroy(&cv2), 0);
	return 0;
}
