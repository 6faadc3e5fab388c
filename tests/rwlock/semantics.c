/* Read-write lock semantics and error codes, the same expectations against
 * glibc and synctrace. */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cases.h"
#include "check.h"

static pthread_rwlock_t zeros = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t wpref = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;

static void static_initializers_work(void)
{
	CHECK_EQ(pthread_rwlock_rdlock(&zeros), 0);
	CHECK_EQ(pthread_rwlock_rdlock(&zeros), 0);
	CHECK_EQ(pthread_rwlock_trywrlock(&zeros), EBUSY);
	CHECK_EQ(pthread_rwlock_unlock(&zeros), 0);
	CHECK_EQ(pthread_rwlock_unlock(&zeros), 0);
	CHECK_EQ(pthread_rwlock_wrlock(&zeros), 0);
	CHECK_EQ(pthread_rwlock_unlock(&zeros), 0);
	CHECK_EQ(pthread_rwlock_wrlock(&wpref), 0);
	CHECK_EQ(pthread_rwlock_unlock(&wpref), 0);
	CHECK_EQ(pthread_rwlock_rdlock(&wpref), 0);
	CHECK_EQ(pthread_rwlock_unlock(&wpref), 0);
}

static void *try_from_other(void *p)
{
	pthread_rwlock_t *rw = p;
	long r = pthread_rwlock_tryrdlock(rw) * 1000 + pthread_rwlock_trywrlock(rw);
	return (void *)r;
}

static void write_held_excludes_everyone(void)
{
	pthread_rwlock_t rw;
	pthread_t t;
	void *r;
	CHECK_EQ(pthread_rwlock_init(&rw, 0), 0);
	CHECK_EQ(pthread_rwlock_wrlock(&rw), 0);
	CHECK_EQ(pthread_rwlock_wrlock(&rw), EDEADLK);
	CHECK_EQ(pthread_rwlock_rdlock(&rw), EDEADLK);
	CHECK_EQ(pthread_rwlock_trywrlock(&rw), EBUSY);
	CHECK_EQ(pthread_rwlock_tryrdlock(&rw), EBUSY);
	struct timespec t1 = st_in_ms(CLOCK_REALTIME, 10);
	CHECK_EQ(pthread_rwlock_timedwrlock(&rw, &t1), EDEADLK);
	CHECK_EQ(pthread_create(&t, 0, try_from_other, &rw), 0);
	CHECK_EQ(pthread_join(t, &r), 0);
	CHECK_EQ((long)r, EBUSY * 1000 + EBUSY);
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	CHECK_EQ(pthread_create(&t, 0, try_from_other, &rw), 0);
	CHECK_EQ(pthread_join(t, &r), 0);
	CHECK_EQ((long)r, 0 * 1000 + EBUSY); /* it got the read lock, then no write */
	CHECK_EQ(pthread_rwlock_destroy(&rw), 0);
}

/* rdlock and wrlock are no cancellation points, even where they sleep
 * (synctrace: a writer's nap, then its futex wait): a cancel pending
 * since before the wrlock acts at the next cancellation point after it. */
static pthread_rwlock_t busy;
static volatile int got_it;

static void *cancelled_writer(void *p)
{
	(void)p;
	pthread_cancel(pthread_self());
	CHECK_EQ(pthread_rwlock_wrlock(&busy), 0);
	got_it = 1;
	CHECK_EQ(pthread_rwlock_unlock(&busy), 0);
	pthread_testcancel();
	return 0;
}

static void wrlock_is_no_cancellation_point(void)
{
	pthread_t t;
	void *r;
	CHECK_EQ(pthread_rwlock_init(&busy, 0), 0);
	CHECK_EQ(pthread_rwlock_rdlock(&busy), 0);
	CHECK_EQ(pthread_create(&t, 0, cancelled_writer, 0), 0);
	usleep(50000); /* the writer waits behind our read lock */
	CHECK_EQ(pthread_rwlock_unlock(&busy), 0);
	CHECK_EQ(pthread_join(t, &r), 0);
	CHECK(r == PTHREAD_CANCELED);
	CHECK_EQ(got_it, 1);
	CHECK_EQ(pthread_rwlock_trywrlock(&busy), 0);
	CHECK_EQ(pthread_rwlock_unlock(&busy), 0);
	CHECK_EQ(pthread_rwlock_destroy(&busy), 0);
}

static pthread_rwlock_t held;
static void *timed_from_other(void *p)
{
	long write = (long)p, r;
	struct timespec t = st_in_ms(CLOCK_REALTIME, 30);
	if (write)
		r = pthread_rwlock_timedwrlock(&held, &t);
	else
		r = pthread_rwlock_timedrdlock(&held, &t);
	if (r == ETIMEDOUT) {
		t = st_in_ms(CLOCK_MONOTONIC, 30);
		r = write ? pthread_rwlock_clockwrlock(&held, CLOCK_MONOTONIC, &t)
			  : pthread_rwlock_clockrdlock(&held, CLOCK_MONOTONIC, &t);
	}
	return (void *)r;
}

static void timed_locks_time_out(void)
{
	pthread_t t;
	void *r;
	CHECK_EQ(pthread_rwlock_init(&held, 0), 0);
	CHECK_EQ(pthread_rwlock_rdlock(&held), 0);
	CHECK_EQ(pthread_create(&t, 0, timed_from_other, (void *)1), 0);
	CHECK_EQ(pthread_join(t, &r), 0);
	CHECK_EQ((long)r, ETIMEDOUT);
	CHECK_EQ(pthread_rwlock_unlock(&held), 0);
	CHECK_EQ(pthread_rwlock_wrlock(&held), 0);
	CHECK_EQ(pthread_create(&t, 0, timed_from_other, (void *)0), 0);
	CHECK_EQ(pthread_join(t, &r), 0);
	CHECK_EQ((long)r, ETIMEDOUT);
	CHECK_EQ(pthread_rwlock_unlock(&held), 0);
	CHECK_EQ(pthread_rwlock_destroy(&held), 0);
}

static void timed_locks_check_the_time_first(void)
{
	pthread_rwlock_t rw;
	CHECK_EQ(pthread_rwlock_init(&rw, 0), 0);
	struct timespec bad = { 0, 1000000000L }, ok = st_in_ms(CLOCK_REALTIME, 10);
	CHECK_EQ(pthread_rwlock_timedrdlock(&rw, &bad), EINVAL);
	CHECK_EQ(pthread_rwlock_timedwrlock(&rw, &bad), EINVAL);
	bad.tv_nsec = -1;
	CHECK_EQ(pthread_rwlock_clockrdlock(&rw, CLOCK_MONOTONIC, &bad), EINVAL);
	CHECK_EQ(pthread_rwlock_clockwrlock(&rw, CLOCK_MONOTONIC, &bad), EINVAL);
	CHECK_EQ(pthread_rwlock_clockrdlock(&rw, CLOCK_THREAD_CPUTIME_ID, &ok), EINVAL);
	CHECK_EQ(pthread_rwlock_clockwrlock(&rw, CLOCK_PROCESS_CPUTIME_ID, &ok), EINVAL);
	CHECK_EQ(pthread_rwlock_timedrdlock(&rw, &ok), 0);
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	CHECK_EQ(pthread_rwlock_timedwrlock(&rw, &ok), 0);
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	CHECK_EQ(pthread_rwlock_destroy(&rw), 0);
}

static void attributes_are_read_through_glibc(void)
{
	pthread_rwlockattr_t a;
	pthread_rwlock_t rw;
	int kind = -1;
	CHECK_EQ(pthread_rwlockattr_init(&a), 0);
	CHECK_EQ(pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP), 0);
	CHECK_EQ(pthread_rwlockattr_getkind_np(&a, &kind), 0);
	CHECK_EQ(kind, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	CHECK_EQ(pthread_rwlock_init(&rw, &a), 0);
	CHECK_EQ(rw.__data.__flags, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	CHECK_EQ(pthread_rwlock_rdlock(&rw), 0);
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	CHECK_EQ(pthread_rwlock_destroy(&rw), 0);
	CHECK_EQ(pthread_rwlockattr_destroy(&a), 0);
}

static void process_shared_across_fork(void)
{
	struct shm {
		pthread_rwlock_t rw;
		volatile int in_write;
	} *s = mmap(0, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_rwlockattr_t a;
	CHECK(s != MAP_FAILED);
	CHECK_EQ(pthread_rwlockattr_init(&a), 0);
	CHECK_EQ(pthread_rwlockattr_setpshared(&a, PTHREAD_PROCESS_SHARED), 0);
	CHECK_EQ(pthread_rwlock_init(&s->rw, &a), 0);
	CHECK_EQ(pthread_rwlock_wrlock(&s->rw), 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		/* Sleeps on the shared word until the parent unlocks. */
		if (pthread_rwlock_rdlock(&s->rw) || s->in_write != 0)
			_exit(1);
		_exit(pthread_rwlock_unlock(&s->rw) ? 2 : 0);
	}
	s->in_write = 1;
	usleep(30000);
	s->in_write = 0;
	CHECK_EQ(pthread_rwlock_unlock(&s->rw), 0);
	int st;
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_EQ(pthread_rwlock_destroy(&s->rw), 0);
	munmap(s, sizeof(*s));
}

static void setup(void)
{
	static const char *const names[] = { "pthread_rwlock_init", "pthread_rwlock_destroy",
		"pthread_rwlock_rdlock", "pthread_rwlock_tryrdlock", "pthread_rwlock_timedrdlock",
		"pthread_rwlock_clockrdlock", "pthread_rwlock_wrlock", "pthread_rwlock_trywrlock",
		"pthread_rwlock_timedwrlock", "pthread_rwlock_clockwrlock", "pthread_rwlock_unlock" };
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		st_check_interposed(names[i]);
}

static const struct st_case st_cases[] = {
	ST_CASE(static_initializers_work),
	ST_CASE(write_held_excludes_everyone),
	ST_CASE(wrlock_is_no_cancellation_point),
	ST_CASE(timed_locks_time_out),
	ST_CASE(timed_locks_check_the_time_first),
	ST_CASE(attributes_are_read_through_glibc),
	ST_CASE(process_shared_across_fork),
};

ST_MAIN(setup())
