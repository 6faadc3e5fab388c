/* Lost wakeups: posters and waiters with short timeouts. Every token posted
 * must be taken exactly once, and nobody may sleep while tokens remain. */
#include <pthread.h>
#include <semaphore.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define POSTERS 3
#define WAITERS 4
#define PER_POSTER 10000

static sem_t s;
static int taken;
static int done_posting;

static void *post_loop(void *p)
{
	(void)p;
	for (int i = 0; i < PER_POSTER; i++) {
		CHECK_EQ(sem_post(&s), 0);
		if ((i & 255) == 0)
			sched_yield();
	}
	return 0;
}

static void *wait_loop(void *p)
{
	long mine = 0, timeouts = 0;
	(void)p;
	for (;;) {
		struct timespec t;
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += 200000; /* 0.2 ms: many timeouts race with posts */
		if (t.tv_nsec >= 1000000000L)
			t.tv_sec++, t.tv_nsec -= 1000000000L;
		if (sem_timedwait(&s, &t) == 0) {
			mine++;
			__atomic_fetch_add(&taken, 1, __ATOMIC_RELAXED);
			continue;
		}
		CHECK_EQ(errno, ETIMEDOUT);
		timeouts++;
		if (__atomic_load_n(&done_posting, __ATOMIC_ACQUIRE) &&
		    __atomic_load_n(&taken, __ATOMIC_RELAXED) == POSTERS * PER_POSTER)
			break;
	}
	return (void *)mine;
}

/* 10 threads × post/wait pairs on one semaphore, value starting at 1. */
static sem_t pingpong;
static long shared_counter;
static void *mutual(void *p)
{
	(void)p;
	for (int i = 0; i < 20000; i++) {
		CHECK_EQ(sem_wait(&pingpong), 0);
		shared_counter++; /* the semaphore is a lock: release/acquire order it */
		CHECK_EQ(sem_post(&pingpong), 0);
	}
	return 0;
}

/* One wait that surely ends acquired on the slow path (asleep when the
 * post comes), whatever the stress below does on this machine: the traced
 * run's check wants its events (wait_begin, sleep, acquired), which the
 * stress alone may not give when every token is found at once. */
static sem_t first;
static int first_tid;
static void *first_wait(void *p)
{
	(void)p;
	__atomic_store_n(&first_tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	CHECK_EQ(sem_wait(&first), 0);
	return 0;
}

int main(void)
{
	pthread_t p[POSTERS], w[WAITERS], m[10], f;
	st_check_interposed("sem_timedwait");
	CHECK_EQ(sem_init(&first, 0, 0), 0);
	CHECK_EQ(pthread_create(&f, 0, first_wait, 0), 0);
	int tid;
	while (!(tid = __atomic_load_n(&first_tid, __ATOMIC_ACQUIRE)) || !st_thread_in_futex_wait(tid))
		usleep(100);
	CHECK_EQ(sem_post(&first), 0);
	CHECK_EQ(pthread_join(f, 0), 0);
	CHECK_EQ(sem_init(&s, 0, 0), 0);
	for (int i = 0; i < WAITERS; i++)
		CHECK_EQ(pthread_create(&w[i], 0, wait_loop, 0), 0);
	for (int i = 0; i < POSTERS; i++)
		CHECK_EQ(pthread_create(&p[i], 0, post_loop, 0), 0);
	for (int i = 0; i < POSTERS; i++)
		CHECK_EQ(pthread_join(p[i], 0), 0);
	__atomic_store_n(&done_posting, 1, __ATOMIC_RELEASE);
	long sum = 0;
	for (int i = 0; i < WAITERS; i++) {
		void *r;
		CHECK_EQ(pthread_join(w[i], &r), 0);
		sum += (long)r;
	}
	CHECK_EQ(sum, POSTERS * PER_POSTER);
	int v;
	CHECK_EQ(sem_getvalue(&s, &v), 0);
	CHECK_EQ(v, 0);

	CHECK_EQ(sem_init(&pingpong, 0, 1), 0);
	for (int i = 0; i < 10; i++)
		CHECK_EQ(pthread_create(&m[i], 0, mutual, 0), 0);
	for (int i = 0; i < 10; i++)
		CHECK_EQ(pthread_join(m[i], 0), 0);
	CHECK_EQ(shared_counter, 10 * 20000);
	return 0;
}
