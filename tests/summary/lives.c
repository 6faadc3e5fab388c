/* Objects made and freed by the hundred, as CPython makes a semaphore per
 * condition wait: the summary level keeps one aggregate for a thread's
 * lives of an object (src/trace/summary.c, st_summary_saw), and the
 * report must still give every life's numbers to its class (its init
 * site). Run with SYNCTRACE_SPIN=none: every number is known.
 * usage: lives ROUNDS
 * Part 1, the worker alone, one address per family for every round, the
 * init site alternating in pairs (A A B B A A ...): a semaphore (two
 * failed trywaits and a timed wait that times out), an rwlock (a failed
 * trywrlock under a read hold), a condvar (a timed wait that times out).
 * The lives of one site fold; at a change of site the fold goes out and
 * must reach the class it came from, not the object now at the address.
 * Part 2, the worker and a poster, one address per site (rounds
 * alternate between them): the worker makes a semaphore and a condvar,
 * sleeps on each until the poster, seeing it asleep in the kernel, posts
 * and signals (outside the mutex), then destroys both once the poster is
 * done with them.
 * Part 3, a life begun by another thread at an address whose lives the
 * worker holds: the worker makes, uses and frees a semaphore at site A;
 * main makes one at the same address at site B; the worker's next use
 * (a failed trywait, of the B life) sends its A lives out, which must
 * reach A's class although the address names the B object by then. */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static int rounds = 8;
static volatile int worker_tid, go, done_round;
static volatile int site_a, site_b; /* keep the two sites' code apart */

/* The two init sites of every family. */
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
static __attribute__((noinline)) void rw_a(pthread_rwlock_t *rw)
{
	CHECK_EQ(pthread_rwlock_init(rw, NULL), 0);
	site_a++;
}
static __attribute__((noinline)) void rw_b(pthread_rwlock_t *rw)
{
	CHECK_EQ(pthread_rwlock_init(rw, NULL), 0);
	site_b--;
}
static __attribute__((noinline)) void cond_a(pthread_cond_t *c)
{
	CHECK_EQ(pthread_cond_init(c, NULL), 0);
	site_a++;
}
static __attribute__((noinline)) void cond_b(pthread_cond_t *c)
{
	CHECK_EQ(pthread_cond_init(c, NULL), 0);
	site_b--;
}

/* On the heap, one block each for every round (one address a family
 * in part 1, one a site in part 2): named by their init sites, not by a
 * symbol that both sites' lives would share. */
static sem_t *s1, *s2;
static pthread_rwlock_t *rw1;
static pthread_cond_t *c1, *c2;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int flag;

static void wait_for(volatile int *v, int want)
{
	while (__atomic_load_n(v, __ATOMIC_ACQUIRE) != want)
		usleep(100);
}

static void part1(int r)
{
	int a = r % 4 < 2;
	struct timespec past = { 1, 0 };
	if (a)
		sem_a(s1);
	else
		sem_b(s1);
	CHECK_EQ(sem_trywait(s1), -1);
	CHECK_EQ(sem_trywait(s1), -1);
	CHECK_EQ(sem_timedwait(s1, &past), -1);
	CHECK_EQ(errno, ETIMEDOUT);
	CHECK_EQ(sem_destroy(s1), 0);

	if (a)
		rw_a(rw1);
	else
		rw_b(rw1);
	CHECK_EQ(pthread_rwlock_rdlock(rw1), 0);
	CHECK_EQ(pthread_rwlock_trywrlock(rw1), EBUSY);
	CHECK_EQ(pthread_rwlock_unlock(rw1), 0);
	CHECK_EQ(pthread_rwlock_destroy(rw1), 0);

	if (a)
		cond_a(c1);
	else
		cond_b(c1);
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	CHECK_EQ(pthread_cond_timedwait(c1, &m, &past), ETIMEDOUT);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	CHECK_EQ(pthread_cond_destroy(c1), 0);
}

/* Round r of part 2, the worker's side: go is 2r - 1 while it sleeps on
 * the semaphore, 2r on the condvar; done_round 2r - 1, 2r: the poster is
 * done with each. */
static void part2(int r)
{
	int k = r % 2;
	if (k)
		sem_b(&s2[k]), cond_b(&c2[k]);
	else
		sem_a(&s2[k]), cond_a(&c2[k]);
	__atomic_store_n(&go, 2 * r - 1, __ATOMIC_RELEASE);
	CHECK_EQ(sem_wait(&s2[k]), 0);
	wait_for(&done_round, 2 * r - 1);
	CHECK_EQ(sem_destroy(&s2[k]), 0);

	CHECK_EQ(pthread_mutex_lock(&m), 0);
	flag = 0;
	__atomic_store_n(&go, 2 * r, __ATOMIC_RELEASE);
	while (!flag)
		CHECK_EQ(pthread_cond_wait(&c2[k], &m), 0);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	wait_for(&done_round, 2 * r);
	CHECK_EQ(pthread_cond_destroy(&c2[k]), 0);
}

static volatile int part3_step;

static void *worker(void *arg)
{
	(void)arg;
	__atomic_store_n(&worker_tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (int r = 0; r < rounds; r++)
		part1(r);
	for (int r = 1; r <= rounds; r++)
		part2(r);
	sem_a(s1);
	CHECK_EQ(sem_trywait(s1), -1);
	CHECK_EQ(sem_destroy(s1), 0);
	__atomic_store_n(&part3_step, 1, __ATOMIC_RELEASE);
	wait_for(&part3_step, 2); /* main made the B one */
	CHECK_EQ(sem_trywait(s1), -1);
	__atomic_store_n(&part3_step, 3, __ATOMIC_RELEASE);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	if (argc > 1)
		rounds = atoi(argv[1]);
	s1 = malloc(sizeof(*s1));
	s2 = calloc(2, sizeof(*s2));
	rw1 = malloc(sizeof(*rw1));
	c1 = malloc(sizeof(*c1));
	c2 = calloc(2, sizeof(*c2));
	CHECK(s1 && s2 && rw1 && c1 && c2);
	CHECK_EQ(pthread_create(&t, NULL, worker, NULL), 0);
	while (!__atomic_load_n(&worker_tid, __ATOMIC_ACQUIRE))
		usleep(100);
	for (int r = 1; r <= rounds; r++) {
		int k = r % 2;
		wait_for(&go, 2 * r - 1);
		while (!st_thread_in_futex_wait(worker_tid))
			usleep(100);
		CHECK_EQ(sem_post(&s2[k]), 0);
		__atomic_store_n(&done_round, 2 * r - 1, __ATOMIC_RELEASE);

		wait_for(&go, 2 * r);
		while (!st_thread_in_futex_wait(worker_tid))
			usleep(100);
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		flag = 1;
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
		CHECK_EQ(pthread_cond_signal(&c2[k]), 0);
		__atomic_store_n(&done_round, 2 * r, __ATOMIC_RELEASE);
	}
	wait_for(&part3_step, 1);
	sem_b(s1);
	__atomic_store_n(&part3_step, 2, __ATOMIC_RELEASE);
	wait_for(&part3_step, 3);
	CHECK_EQ(sem_destroy(s1), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	return 0;
}
