/* glibc 23844 / 23861: tryrdlock/trywrlock must not leave waiters asleep
 * nor a stale state that stalls a writer-preferring lock. Each blocking
 * call here has a deadline far beyond what it needs: ETIMEDOUT is a stall. */
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static pthread_rwlock_t rw;

static struct timespec in_s(int s)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += s;
	return t;
}

static void *mixed(void *p)
{
	long id = (long)p;
	for (int i = 0; i < 3000; i++) {
		struct timespec t = in_s(5);
		switch ((i + id) % 4) {
		case 0:
			if (pthread_rwlock_tryrdlock(&rw) == 0)
				CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
			break;
		case 1:
			if (pthread_rwlock_trywrlock(&rw) == 0)
				CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
			break;
		case 2:
			CHECK_EQ(pthread_rwlock_clockrdlock(&rw, CLOCK_MONOTONIC, &t), 0);
			CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
			break;
		default:
			CHECK_EQ(pthread_rwlock_clockwrlock(&rw, CLOCK_MONOTONIC, &t), 0);
			CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
			break;
		}
	}
	return 0;
}

static void *waiting_writer(void *p)
{
	(void)p;
	struct timespec t = in_s(5);
	CHECK_EQ(pthread_rwlock_clockwrlock(&rw, CLOCK_MONOTONIC, &t), 0);
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	return 0;
}

static void *timing_out_writer(void *p)
{
	(void)p;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_nsec += 20000000;
	if (t.tv_nsec >= 1000000000L)
		t.tv_sec++, t.tv_nsec -= 1000000000L;
	CHECK_EQ(pthread_rwlock_clockwrlock(&rw, CLOCK_MONOTONIC, &t), ETIMEDOUT);
	return 0;
}

static void *blocked_reader(void *p)
{
	(void)p;
	struct timespec t = in_s(5);
	CHECK_EQ(pthread_rwlock_clockrdlock(&rw, CLOCK_MONOTONIC, &t), 0);
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	return 0;
}

static void run(int kind)
{
	pthread_rwlockattr_t a;
	pthread_t t[4];
	CHECK_EQ(pthread_rwlockattr_init(&a), 0);
	CHECK_EQ(pthread_rwlockattr_setkind_np(&a, kind), 0);
	CHECK_EQ(pthread_rwlock_init(&rw, &a), 0);
	for (long i = 0; i < 4; i++)
		CHECK_EQ(pthread_create(&t[i], 0, mixed, (void *)i), 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);

	/* A reader holds; a writer waits; a tryrdlock fails only on the
	 * writer-preferring lock; the reader leaves and the writer gets it. */
	CHECK_EQ(pthread_rwlock_rdlock(&rw), 0);
	CHECK_EQ(pthread_create(&t[0], 0, waiting_writer, 0), 0);
	usleep(20000);
	int r = pthread_rwlock_tryrdlock(&rw);
	if (kind == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP) {
		/* the writer may take a while to start on a loaded machine */
		for (int i = 0; r == 0 && i < 200; i++) {
			CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
			usleep(10000);
			r = pthread_rwlock_tryrdlock(&rw);
		}
		CHECK_EQ(r, EBUSY);
	} else {
		CHECK_EQ(r, 0);
		CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	}
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	CHECK_EQ(pthread_join(t[0], 0), 0);

	/* A writer that times out must not leave readers stalled behind it. */
	CHECK_EQ(pthread_rwlock_rdlock(&rw), 0);
	CHECK_EQ(pthread_create(&t[0], 0, timing_out_writer, 0), 0);
	usleep(5000);
	CHECK_EQ(pthread_create(&t[1], 0, blocked_reader, 0), 0);
	CHECK_EQ(pthread_join(t[0], 0), 0);
	CHECK_EQ(pthread_join(t[1], 0), 0);
	CHECK_EQ(pthread_rwlock_tryrdlock(&rw), 0);
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	CHECK_EQ(pthread_rwlock_trywrlock(&rw), 0);
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	CHECK_EQ(pthread_rwlock_destroy(&rw), 0);
}

int main(void)
{
	st_check_interposed("pthread_rwlock_tryrdlock");
	run(PTHREAD_RWLOCK_PREFER_READER_NP);
	run(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	return 0;
}
