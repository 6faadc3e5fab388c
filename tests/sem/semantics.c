/* Semaphore semantics and error codes, the same expectations against glibc
 * and synctrace. */
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cases.h"
#include "check.h"

static void init_rejects_value_above_max(void)
{
	sem_t s;
	errno = 0;
	CHECK_EQ(sem_init(&s, 0, (unsigned)SEM_VALUE_MAX + 1), -1);
	CHECK_EQ(errno, EINVAL);
}

static void value_counts_posts_and_waits(void)
{
	sem_t s;
	int v = -1;
	CHECK_EQ(sem_init(&s, 0, 2), 0);
	CHECK_EQ(sem_getvalue(&s, &v), 0);
	CHECK_EQ(v, 2);
	CHECK_EQ(sem_wait(&s), 0);
	CHECK_EQ(sem_trywait(&s), 0);
	errno = 0;
	CHECK_EQ(sem_trywait(&s), -1);
	CHECK_EQ(errno, EAGAIN);
	CHECK_EQ(sem_post(&s), 0);
	CHECK_EQ(sem_post(&s), 0);
	CHECK_EQ(sem_post(&s), 0);
	CHECK_EQ(sem_getvalue(&s, &v), 0);
	CHECK_EQ(v, 3);
	CHECK_EQ(sem_destroy(&s), 0);
}

static void post_at_max_overflows(void)
{
	sem_t s;
	int v;
	CHECK_EQ(sem_init(&s, 0, SEM_VALUE_MAX), 0);
	errno = 0;
	CHECK_EQ(sem_post(&s), -1);
	CHECK_EQ(errno, EOVERFLOW);
	CHECK_EQ(sem_getvalue(&s, &v), 0);
	CHECK_EQ(v, SEM_VALUE_MAX);
	CHECK_EQ(sem_wait(&s), 0);
	CHECK_EQ(sem_post(&s), 0);
	CHECK_EQ(sem_destroy(&s), 0);
}

static void timedwait_rejects_bad_nsec_even_with_a_token(void)
{
	sem_t s;
	CHECK_EQ(sem_init(&s, 0, 1), 0);
	struct timespec bad = { 0, 1000000000L };
	errno = 0;
	CHECK_EQ(sem_timedwait(&s, &bad), -1);
	CHECK_EQ(errno, EINVAL);
	bad.tv_nsec = -1;
	errno = 0;
	CHECK_EQ(sem_clockwait(&s, CLOCK_MONOTONIC, &bad), -1);
	CHECK_EQ(errno, EINVAL);
	struct timespec ok = st_in_ms(CLOCK_MONOTONIC, 10);
	errno = 0;
	CHECK_EQ(sem_clockwait(&s, CLOCK_PROCESS_CPUTIME_ID, &ok), -1);
	CHECK_EQ(errno, EINVAL);
	CHECK_EQ(sem_clockwait(&s, CLOCK_MONOTONIC, &ok), 0);
	CHECK_EQ(sem_destroy(&s), 0);
}

static void timedwait_times_out(void)
{
	sem_t s;
	CHECK_EQ(sem_init(&s, 0, 0), 0);
	struct timespec t = st_in_ms(CLOCK_REALTIME, 20);
	errno = 0;
	CHECK_EQ(sem_timedwait(&s, &t), -1);
	CHECK_EQ(errno, ETIMEDOUT);
	t = st_in_ms(CLOCK_MONOTONIC, 20);
	errno = 0;
	CHECK_EQ(sem_clockwait(&s, CLOCK_MONOTONIC, &t), -1);
	CHECK_EQ(errno, ETIMEDOUT);
	struct timespec past = { -1, 0 };
	errno = 0;
	CHECK_EQ(sem_timedwait(&s, &past), -1);
	CHECK_EQ(errno, ETIMEDOUT);
	int v;
	CHECK_EQ(sem_getvalue(&s, &v), 0);
	CHECK_EQ(v, 0);
	CHECK_EQ(sem_destroy(&s), 0);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void signal_interrupts_wait(void)
{
	sem_t s;
	struct sigaction sa = { .sa_handler = on_alarm }; /* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	CHECK_EQ(sigaction(SIGALRM, &sa, 0), 0);
	CHECK_EQ(sem_init(&s, 0, 0), 0);
	struct itimerval it = { .it_value = { 0, 50000 } };
	CHECK_EQ(setitimer(ITIMER_REAL, &it, 0), 0);
	errno = 0;
	CHECK_EQ(sem_wait(&s), -1);
	CHECK_EQ(errno, EINTR);
	CHECK_EQ(sem_destroy(&s), 0);
}

static sem_t handoff;
static void *poster(void *p)
{
	(void)p;
	usleep(20000);
	CHECK_EQ(sem_post(&handoff), 0);
	return 0;
}

static void post_wakes_sleeper(void)
{
	pthread_t t;
	CHECK_EQ(sem_init(&handoff, 0, 0), 0);
	CHECK_EQ(pthread_create(&t, 0, poster, 0), 0);
	CHECK_EQ(sem_wait(&handoff), 0);
	CHECK_EQ(pthread_join(t, 0), 0);
	CHECK_EQ(sem_destroy(&handoff), 0);
}

static void process_shared_across_fork(void)
{
	sem_t *s = mmap(0, sizeof(sem_t) * 2, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(s != MAP_FAILED);
	CHECK_EQ(sem_init(&s[0], 1, 0), 0);
	CHECK_EQ(sem_init(&s[1], 1, 0), 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		for (int i = 0; i < 100; i++) {
			if (sem_wait(&s[0]))
				_exit(1);
			if (sem_post(&s[1]))
				_exit(1);
		}
		_exit(0);
	}
	for (int i = 0; i < 100; i++) {
		CHECK_EQ(sem_post(&s[0]), 0);
		CHECK_EQ(sem_wait(&s[1]), 0);
	}
	int st;
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	munmap(s, sizeof(sem_t) * 2);
}

static void cancel_pending_acts_at_wait(void *(*fn)(void *))
{
	pthread_t t;
	void *res;
	CHECK_EQ(pthread_create(&t, 0, fn, 0), 0);
	CHECK_EQ(pthread_join(t, &res), 0);
	CHECK(res == PTHREAD_CANCELED);
}

static void *cancel_self_then_wait(void *p)
{
	(void)p;
	sem_t s;
	sem_init(&s, 0, 0);
	pthread_cancel(pthread_self());
	sem_wait(&s);
	return 0;
}

static void pending_cancel_acts_at_wait(void)
{
	cancel_pending_acts_at_wait(cancel_self_then_wait);
}

static sem_t blocked;
static void *wait_forever(void *p)
{
	(void)p;
	sem_wait(&blocked);
	return 0;
}

/* A thread cancelled while asleep in sem_wait leaves; the semaphore still
 * works for others (its registration is gone, no token was eaten). */
static void cancel_while_sleeping(void)
{
	pthread_t t, u;
	void *res;
	CHECK_EQ(sem_init(&blocked, 0, 0), 0);
	CHECK_EQ(pthread_create(&t, 0, wait_forever, 0), 0);
	usleep(20000);
	CHECK_EQ(pthread_cancel(t), 0);
	CHECK_EQ(pthread_join(t, &res), 0);
	CHECK(res == PTHREAD_CANCELED);
	CHECK_EQ(pthread_create(&u, 0, wait_forever, 0), 0);
	usleep(10000);
	CHECK_EQ(sem_post(&blocked), 0);
	CHECK_EQ(pthread_join(u, &res), 0);
	CHECK(res == 0);
	int v;
	CHECK_EQ(sem_getvalue(&blocked, &v), 0);
	CHECK_EQ(v, 0);
	CHECK_EQ(sem_post(&blocked), 0);
	CHECK_EQ(sem_trywait(&blocked), 0);
	CHECK_EQ(sem_destroy(&blocked), 0);
}

static void setup(void)
{
	static const char *const names[] = { "sem_init", "sem_destroy", "sem_wait",
		"sem_trywait", "sem_timedwait", "sem_clockwait", "sem_post", "sem_getvalue" };
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		st_check_interposed(names[i]);
}

static const struct st_case st_cases[] = {
	ST_CASE(init_rejects_value_above_max),
	ST_CASE(value_counts_posts_and_waits),
	ST_CASE(post_at_max_overflows),
	ST_CASE(timedwait_rejects_bad_nsec_even_with_a_token),
	ST_CASE(timedwait_times_out),
	ST_CASE(signal_interrupts_wait),
	ST_CASE(post_wakes_sleeper),
	ST_CASE(process_shared_across_fork),
	ST_CASE(pending_cancel_acts_at_wait),
	ST_CASE(cancel_while_sleeping),
};

ST_MAIN(setup())
