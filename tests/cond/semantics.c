/* Condvar semantics and error codes: the same expectations for glibc and
 * synctrace. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cases.h"
#include "check.h"
#include "util.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static volatile int ready, woken, go;

static void *waiter(void *arg)
{
	(void)arg;
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	__atomic_fetch_add(&ready, 1, __ATOMIC_ACQ_REL);
	while (!go)
		CHECK_EQ(pthread_cond_wait(&c, &m), 0);
	woken++;
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	return 0;
}

static void static_initializer_signal_wakes_one_broadcast_wakes_all(void)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		CHECK_EQ(pthread_create(&t[i], 0, waiter, 0), 0);
	wait_for(&ready, 4);
	settle();
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	go = 1;
	CHECK_EQ(pthread_cond_broadcast(&c), 0);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	CHECK_EQ(woken, 4);
}

static void signal_and_broadcast_without_waiters_return_0(void)
{
	pthread_cond_t c2 = PTHREAD_COND_INITIALIZER;
	CHECK_EQ(pthread_cond_signal(&c2), 0);
	CHECK_EQ(pthread_cond_broadcast(&c2), 0);
	CHECK_EQ(pthread_cond_destroy(&c2), 0);
}

static void timedwait_times_out_on_each_clock(void)
{
	clockid_t clocks[] = { CLOCK_REALTIME, CLOCK_MONOTONIC };
	for (int i = 0; i < 2; i++) {
		pthread_condattr_t a;
		pthread_cond_t c2;
		CHECK_EQ(pthread_condattr_init(&a), 0);
		CHECK_EQ(pthread_condattr_setclock(&a, clocks[i]), 0);
		CHECK_EQ(pthread_cond_init(&c2, &a), 0);
		CHECK_EQ(pthread_condattr_destroy(&a), 0);
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		long long t0 = now_ns(CLOCK_MONOTONIC);
		struct timespec ts = after_ns(clocks[i], 20000000);
		CHECK_EQ(pthread_cond_timedwait(&c2, &m, &ts), ETIMEDOUT);
		CHECK(now_ns(CLOCK_MONOTONIC) - t0 >= 19000000);
		/* the mutex is held again: an errorcheck-free way to see it */
		CHECK_EQ(pthread_mutex_trylock(&m), EBUSY);
		ts = after_ns(CLOCK_MONOTONIC, 10000000);
		CHECK_EQ(pthread_cond_clockwait(&c2, &m, CLOCK_MONOTONIC, &ts), ETIMEDOUT);
		ts = after_ns(CLOCK_REALTIME, 10000000);
		CHECK_EQ(pthread_cond_clockwait(&c2, &m, CLOCK_REALTIME, &ts), ETIMEDOUT);
		/* A time already passed, and a negative one: ETIMEDOUT at once. */
		ts.tv_sec = 1;
		ts.tv_nsec = 0;
		CHECK_EQ(pthread_cond_timedwait(&c2, &m, &ts), ETIMEDOUT);
		ts.tv_sec = -1;
		CHECK_EQ(pthread_cond_timedwait(&c2, &m, &ts), ETIMEDOUT);
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
		CHECK_EQ(pthread_cond_destroy(&c2), 0);
	}
}

static void timedwait_rejects_bad_nsec_and_clockwait_bad_clock(void)
{
	struct timespec ts = after_ns(CLOCK_REALTIME, 1000000);
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	ts.tv_nsec = -1;
	CHECK_EQ(pthread_cond_timedwait(&c, &m, &ts), EINVAL);
	ts.tv_nsec = 1000000000;
	CHECK_EQ(pthread_cond_timedwait(&c, &m, &ts), EINVAL);
	CHECK_EQ(pthread_cond_clockwait(&c, &m, CLOCK_MONOTONIC, &ts), EINVAL);
	ts = after_ns(CLOCK_REALTIME, 1000000);
	CHECK_EQ(pthread_cond_clockwait(&c, &m, CLOCK_PROCESS_CPUTIME_ID, &ts), EINVAL);
	CHECK_EQ(pthread_cond_clockwait(&c, &m, 12345, &ts), EINVAL);
	/* still held after the EINVALs */
	CHECK_EQ(pthread_mutex_trylock(&m), EBUSY);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
}

static void wait_with_unheld_checking_mutex_is_eperm(void)
{
	int types[] = { PTHREAD_MUTEX_ERRORCHECK, PTHREAD_MUTEX_RECURSIVE };
	for (int i = 0; i < 2; i++) {
		pthread_mutexattr_t a;
		pthread_mutex_t em;
		CHECK_EQ(pthread_mutexattr_init(&a), 0);
		CHECK_EQ(pthread_mutexattr_settype(&a, types[i]), 0);
		CHECK_EQ(pthread_mutex_init(&em, &a), 0);
		struct timespec ts = after_ns(CLOCK_REALTIME, 1000000);
		CHECK_EQ(pthread_cond_timedwait(&c, &em, &ts), EPERM);
		CHECK_EQ(pthread_cond_wait(&c, &em), EPERM);
		/* held: a timed wait times out and leaves it held */
		CHECK_EQ(pthread_mutex_lock(&em), 0);
		ts = after_ns(CLOCK_REALTIME, 1000000);
		CHECK_EQ(pthread_cond_timedwait(&c, &em, &ts), ETIMEDOUT);
		CHECK_EQ(pthread_mutex_unlock(&em), 0);
		CHECK_EQ(pthread_mutex_unlock(&em), EPERM);
		CHECK_EQ(pthread_mutex_destroy(&em), 0);
	}
}

static void condattr_pshared_and_clock_read_back(void)
{
	pthread_condattr_t a;
	int ps;
	clockid_t clk;
	CHECK_EQ(pthread_condattr_init(&a), 0);
	CHECK_EQ(pthread_condattr_setpshared(&a, PTHREAD_PROCESS_SHARED), 0);
	CHECK_EQ(pthread_condattr_setclock(&a, CLOCK_MONOTONIC), 0);
	CHECK_EQ(pthread_condattr_getpshared(&a, &ps), 0);
	CHECK_EQ(pthread_condattr_getclock(&a, &clk), 0);
	CHECK_EQ(ps, PTHREAD_PROCESS_SHARED);
	CHECK_EQ(clk, CLOCK_MONOTONIC);
	CHECK_EQ(pthread_condattr_setclock(&a, CLOCK_PROCESS_CPUTIME_ID), EINVAL);
	CHECK_EQ(pthread_condattr_destroy(&a), 0);
}

struct shared_page {
	pthread_mutex_t m;
	pthread_cond_t c;
	volatile int flag, ready;
};

static void pshared_condvar_across_fork(void)
{
	struct shared_page *s = mmap(0, sizeof(*s), PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(s != MAP_FAILED);
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	CHECK_EQ(pthread_mutexattr_init(&ma), 0);
	CHECK_EQ(pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED), 0);
	CHECK_EQ(pthread_mutex_init(&s->m, &ma), 0);
	CHECK_EQ(pthread_condattr_init(&ca), 0);
	CHECK_EQ(pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED), 0);
	CHECK_EQ(pthread_condattr_setclock(&ca, CLOCK_MONOTONIC), 0);
	CHECK_EQ(pthread_cond_init(&s->c, &ca), 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		pthread_mutex_lock(&s->m);
		s->ready = 1;
		while (!s->flag) {
			struct timespec ts = after_ns(CLOCK_MONOTONIC, 3000000000LL);
			if (pthread_cond_timedwait(&s->c, &s->m, &ts) == ETIMEDOUT)
				_exit(3);
		}
		pthread_mutex_unlock(&s->m);
		_exit(0);
	}
	wait_for(&s->ready, 1);
	settle();
	CHECK_EQ(pthread_mutex_lock(&s->m), 0);
	s->flag = 1;
	CHECK_EQ(pthread_cond_signal(&s->c), 0);
	CHECK_EQ(pthread_mutex_unlock(&s->m), 0);
	int st;
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st));
	CHECK_EQ(WEXITSTATUS(st), 0);
	/* a pshared timed wait times out too */
	CHECK_EQ(pthread_mutex_lock(&s->m), 0);
	struct timespec ts = after_ns(CLOCK_MONOTONIC, 5000000);
	CHECK_EQ(pthread_cond_timedwait(&s->c, &s->m, &ts), ETIMEDOUT);
	CHECK_EQ(pthread_mutex_unlock(&s->m), 0);
	CHECK_EQ(pthread_cond_destroy(&s->c), 0);
	CHECK_EQ(pthread_mutex_destroy(&s->m), 0);
	munmap(s, sizeof(*s));
}

static void setup(void)
{
	const char *names[] = { "pthread_cond_init", "pthread_cond_destroy",
				"pthread_cond_wait", "pthread_cond_timedwait",
				"pthread_cond_clockwait", "pthread_cond_signal",
				"pthread_cond_broadcast" };
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		st_check_interposed(names[i]);
	CHECK_EQ(sizeof(pthread_cond_t), 48);
}

static const struct st_case st_cases[] = {
	ST_CASE(static_initializer_signal_wakes_one_broadcast_wakes_all),
	ST_CASE(signal_and_broadcast_without_waiters_return_0),
	ST_CASE(timedwait_times_out_on_each_clock),
	ST_CASE(timedwait_rejects_bad_nsec_and_clockwait_bad_clock),
	ST_CASE(wait_with_unheld_checking_mutex_is_eperm),
	ST_CASE(condattr_pshared_and_clock_read_back),
	ST_CASE(pshared_condvar_across_fork),
};

ST_MAIN(setup())
