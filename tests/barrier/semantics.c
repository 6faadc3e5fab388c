/* Barrier semantics, error codes, generations, and destroy right after
 * waiting (glibc 13065), against glibc and synctrace. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cases.h"
#include "check.h"

static void init_rejects_zero(void)
{
	pthread_barrier_t b;
	CHECK_EQ(pthread_barrier_init(&b, 0, 0), EINVAL);
	CHECK_EQ(pthread_barrier_init(&b, 0, 1), 0);
	CHECK_EQ(pthread_barrier_wait(&b), PTHREAD_BARRIER_SERIAL_THREAD);
	CHECK_EQ(pthread_barrier_wait(&b), PTHREAD_BARRIER_SERIAL_THREAD);
	CHECK_EQ(pthread_barrier_destroy(&b), 0);
}

#define THREADS 4
#define ROUNDS 1000
static pthread_barrier_t gen_b;
static volatile int phase[THREADS];
static int serials;

/* Every round exactly one serial thread, and nobody runs ahead: after
 * round r every thread has finished round r-1. */
static void *generations(void *p)
{
	long id = (long)p;
	for (int r = 1; r <= ROUNDS; r++) {
		phase[id] = r;
		int x = pthread_barrier_wait(&gen_b);
		CHECK(x == 0 || x == PTHREAD_BARRIER_SERIAL_THREAD);
		if (x)
			__atomic_fetch_add(&serials, 1, __ATOMIC_RELAXED);
		for (int i = 0; i < THREADS; i++)
			CHECK(phase[i] >= r);
		x = pthread_barrier_wait(&gen_b);
		CHECK(x == 0 || x == PTHREAD_BARRIER_SERIAL_THREAD);
	}
	return 0;
}

static void rounds_release_everyone_once(void)
{
	pthread_t t[THREADS];
	CHECK_EQ(pthread_barrier_init(&gen_b, 0, THREADS), 0);
	for (long i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_create(&t[i], 0, generations, (void *)i), 0);
	for (int i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	CHECK_EQ(serials, ROUNDS);
	CHECK_EQ(pthread_barrier_destroy(&gen_b), 0);
}

/* glibc 13065: whoever returns first destroys and frees (unmaps) the
 * barrier; the others must not touch it any more. */
static pthread_barrier_t *volatile cur;
static pthread_barrier_t start;
static void *destroyer(void *p)
{
	(void)p;
	for (int i = 0; i < 300; i++) {
		pthread_barrier_wait(&start);
		pthread_barrier_t *b = cur;
		if (pthread_barrier_wait(b) == PTHREAD_BARRIER_SERIAL_THREAD) {
			CHECK_EQ(pthread_barrier_destroy(b), 0);
			CHECK_EQ(munmap(b, 4096), 0);
		}
	}
	return 0;
}

static void destroy_right_after_waiting(void)
{
	pthread_t t[3];
	CHECK_EQ(pthread_barrier_init(&start, 0, 4), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(pthread_create(&t[i], 0, destroyer, 0), 0);
	for (int i = 0; i < 300; i++) {
		pthread_barrier_t *b = mmap(0, 4096, PROT_READ | PROT_WRITE,
					    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		CHECK(b != MAP_FAILED);
		CHECK_EQ(pthread_barrier_init(b, 0, 4), 0);
		cur = b;
		pthread_barrier_wait(&start);
		if (pthread_barrier_wait(b) == PTHREAD_BARRIER_SERIAL_THREAD) {
			CHECK_EQ(pthread_barrier_destroy(b), 0);
			CHECK_EQ(munmap(b, 4096), 0);
		}
		/* the next round's `start` wait keeps cur from changing early */
	}
	for (int i = 0; i < 3; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	CHECK_EQ(pthread_barrier_destroy(&start), 0);
}

/* More threads than count: every round takes exactly count of them and
 * has one serial thread; the others wait for a later round. Threads take
 * a ticket per wait, so the arrivals fill whole rounds whoever makes them. */
#define EXTRA_COUNT 2
#define EXTRA_THREADS 6
#define EXTRA_ARRIVALS 2400
static pthread_barrier_t extra_b;
static int extra_tickets = EXTRA_ARRIVALS, extra_serials;
static void *extra_waiter(void *p)
{
	(void)p;
	while (__atomic_fetch_sub(&extra_tickets, 1, __ATOMIC_RELAXED) > 0) {
		int x = pthread_barrier_wait(&extra_b);
		CHECK(x == 0 || x == PTHREAD_BARRIER_SERIAL_THREAD);
		if (x)
			__atomic_fetch_add(&extra_serials, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static void more_threads_than_count_fill_rounds_of_count(void)
{
	pthread_t t[EXTRA_THREADS];
	CHECK_EQ(pthread_barrier_init(&extra_b, 0, EXTRA_COUNT), 0);
	for (int i = 0; i < EXTRA_THREADS; i++)
		CHECK_EQ(pthread_create(&t[i], 0, extra_waiter, 0), 0);
	for (int i = 0; i < EXTRA_THREADS; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	CHECK_EQ(extra_serials, EXTRA_ARRIVALS / EXTRA_COUNT);
	CHECK_EQ(pthread_barrier_destroy(&extra_b), 0);
}

static void process_shared_across_fork(void)
{
	pthread_barrier_t *b = mmap(0, sizeof(*b), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_barrierattr_t a;
	CHECK(b != MAP_FAILED);
	CHECK_EQ(pthread_barrierattr_init(&a), 0);
	CHECK_EQ(pthread_barrierattr_setpshared(&a, PTHREAD_PROCESS_SHARED), 0);
	CHECK_EQ(pthread_barrier_init(b, &a, 2), 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		for (int i = 0; i < 200; i++) {
			int x = pthread_barrier_wait(b);
			if (x != 0 && x != PTHREAD_BARRIER_SERIAL_THREAD)
				_exit(1);
		}
		_exit(0);
	}
	for (int i = 0; i < 200; i++) {
		int x = pthread_barrier_wait(b);
		CHECK(x == 0 || x == PTHREAD_BARRIER_SERIAL_THREAD);
	}
	int st;
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	munmap(b, sizeof(*b));
}

static void setup(void)
{
	st_check_interposed("pthread_barrier_init");
	st_check_interposed("pthread_barrier_wait");
	st_check_interposed("pthread_barrier_destroy");
}

static const struct st_case st_cases[] = {
	ST_CASE(init_rejects_zero),
	ST_CASE(rounds_release_everyone_once),
	ST_CASE(destroy_right_after_waiting),
	ST_CASE(more_threads_than_count_fill_rounds_of_count),
	ST_CASE(process_shared_across_fork),
};

ST_MAIN(setup())
