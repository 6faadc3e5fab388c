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
 * asleep if main was descheduled past the budget. spin_fold.sh checks
 * what the trace and the report hold for those spins at each format.
 *
 * `spin_fold relock` (run with SYNCTRACE_SPIN=none; shared_reads.sh):
 * ROUNDS condvar waits whose relock waits in the mutex's lock, by state,
 * not by time: main takes the mutex once the waiter has released it,
 * signals holding it, and lets it go only once the woken waiter has gone
 * to sleep in the mutex's lock (the lock word's sleepers bit,
 * src/mutex/mutex.h: THE LOCK WORD; a single signal wakes its waiter,
 * never requeues it, so the relock is the waiter's own). */
#include <pthread.h>
#include <semaphore.h>
#include <string.h>
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

/* cm's lock word (offset 0 of pthread_mutex_t, glibc's __lock; ours:
 * the holder's tid, and CM_SLEEPERS while a thread may sleep on it). */
#define CM_SLEEPERS ((int)0x80000000u)
static int cm_word(void)
{
	return __atomic_load_n((int *)(void *)&cm, __ATOMIC_ACQUIRE);
}

/* Until cm's word matches (word & mask) == want; a guard of 60 s against
 * a hang (a library whose mutex word says something else). */
static void await_cm(int mask, int want)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	while ((cm_word() & mask) != want) {
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (b.tv_sec - a.tv_sec > 60) {
			fprintf(stderr, "spin_fold: cm's lock word stayed %#x (want %#x under %#x)\n",
				(unsigned)cm_word(), (unsigned)want, (unsigned)mask);
			exit(1);
		}
	}
}

static void *relock_worker(void *arg)
{
	(void)arg;
	for (int r = 1; r <= ROUNDS; r++) {
		await(&go, r);
		CHECK_EQ(pthread_mutex_lock(&cm), 0);
		__atomic_store_n(&about_to_wait, r, __ATOMIC_RELEASE);
		while (signalled != r)
			CHECK_EQ(pthread_cond_wait(&cv, &cm), 0);
		CHECK_EQ(pthread_mutex_unlock(&cm), 0);
		__atomic_store_n(&done_round, r, __ATOMIC_RELEASE);
	}
	return 0;
}

static int relock_rounds(void)
{
	pthread_t t;
	CHECK_EQ(pthread_create(&t, 0, relock_worker, 0), 0);
	for (int r = 1; r <= ROUNDS; r++) {
		__atomic_store_n(&go, r, __ATOMIC_RELEASE);
		/* The waiter says so holding cm; cm is free again only once
		 * its wait released it (nothing signals it before us, and it
		 * returns from a wait only signaled). Taken free, main's lock
		 * leaves the sleepers bit clear. */
		await(&about_to_wait, r);
		await_cm(-1, 0);
		CHECK_EQ(pthread_mutex_lock(&cm), 0);
		signalled = r;
		CHECK_EQ(pthread_cond_signal(&cv), 0);
		/* The woken waiter's relock finds cm held and sleeps. */
		await_cm(CM_SLEEPERS, CM_SLEEPERS);
		CHECK_EQ(pthread_mutex_unlock(&cm), 0);
		await(&done_round, r);
	}
	CHECK_EQ(pthread_join(t, 0), 0);
	CHECK_EQ(pthread_cond_destroy(&cv), 0);
	return 0;
}

static void *worker(void *arg)
{
	(void)arg;
	for (int r = 1; r <= 5 * ROUNDS; r++) {
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
		} else {
			CHECK_EQ(pthread_mutex_lock(&cm), 0);
			__atomic_store_n(&about_to_wait, r, __ATOMIC_RELEASE);
			while (signalled != r)
				CHECK_EQ(pthread_cond_wait(&cv, &cm), 0);
			acked = r;
			CHECK_EQ(pthread_mutex_unlock(&cm), 0);
			CHECK_EQ(pthread_cond_signal(&cv2), 0);
		}
		__atomic_store_n(&done_round, r, __ATOMIC_RELEASE);
	}
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t t;
	if (argc > 1 && !strcmp(argv[1], "relock"))
		return relock_rounds();
	CHECK_EQ(sem_init(&s, 0, 0), 0);
	CHECK_EQ(pthread_barrier_init(&bar, 0, 2), 0);
	for (int r = 1; r <= 5 * ROUNDS; r++) {
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
