/* Barrier and once scenarios whose report numbers are known exactly
 * (traced mode: the program reads synctrace's layouts).
 * usage: barrier_once R
 *   barrier of 3 (main, "bar-1", "bar-2"), R rounds: in each, main arrives
 *     last, once both workers have arrived and had time to fall asleep →
 *     main is the serial thread of every round, 2R waits, each of at least
 *     30 ms for main, 2R threads woken by the kernel.
 *   once A: "once-run" runs the routine; it returns only after "once-w1"
 *     and "once-w2" found it running and had time to fall asleep → 1 run,
 *     completed by once-run, 2 waiters (both asleep at once), both woken.
 *   once B: "once-cancel" runs the routine and is cancelled in it; main
 *     then runs it to completion → 2 runs, 1 cancelled (in once-cancel),
 *     completed by main, no waiter. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_barrier_t bar;
static int R = 4;
static pthread_once_t once_a = PTHREAD_ONCE_INIT, once_b = PTHREAD_ONCE_INIT;
static atomic_int a_running, a_callers, b_entered, b_runs;

/* synctrace's barrier: threads arrived in the current round, offset 0. */
static unsigned arrived(void)
{
	return atomic_load((_Atomic unsigned *)&bar);
}

static void *bar_worker(void *arg)
{
	char name[16];
	snprintf(name, sizeof(name), "bar-%d", (int)(long)arg);
	pthread_setname_np(pthread_self(), name);
	for (int i = 0; i < R; i++) {
		int r = pthread_barrier_wait(&bar);
		if (r != 0) {
			fprintf(stderr, "barrier_once: worker got %d, not 0\n", r);
			exit(1);
		}
	}
	return NULL;
}

static void routine_a(void)
{
	atomic_store(&a_running, 1);
	/* Both waiters called pthread_once and the word says WAITED (2, the
	 * int of pthread_once_t): they are on their way to sleep. */
	while (atomic_load(&a_callers) != 2 || atomic_load((_Atomic int *)&once_a) != 2)
		usleep(100);
	usleep(30000);
}

static void *once_runner(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "once-run");
	pthread_once(&once_a, routine_a);
	return NULL;
}

static void *once_waiter(void *arg)
{
	char name[16];
	snprintf(name, sizeof(name), "once-w%d", (int)(long)arg);
	pthread_setname_np(pthread_self(), name);
	while (!atomic_load(&a_running))
		usleep(100);
	atomic_fetch_add(&a_callers, 1);
	pthread_once(&once_a, routine_a);
	return NULL;
}

/* First run: blocks in a cancellation point until cancelled. */
static void routine_b(void)
{
	if (atomic_fetch_add(&b_runs, 1) == 0) {
		atomic_store(&b_entered, 1);
		for (;;)
			pause();
	}
}

static void *once_canceller(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "once-cancel");
	pthread_once(&once_b, routine_b);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t w[2], o[3], c;
	if (argc > 1)
		R = atoi(argv[1]);

	/* The barrier. */
	if (pthread_barrier_init(&bar, NULL, 3))
		return 1;
	for (long i = 0; i < 2; i++)
		if (pthread_create(&w[i], NULL, bar_worker, (void *)(i + 1)))
			return 1;
	for (int i = 0; i < R; i++) {
		while (arrived() != 2)
			usleep(100);
		usleep(30000); /* let them reach FUTEX_WAIT */
		if (pthread_barrier_wait(&bar) != PTHREAD_BARRIER_SERIAL_THREAD) {
			fprintf(stderr, "barrier_once: main was not the serial thread\n");
			return 1;
		}
	}
	for (int i = 0; i < 2; i++)
		pthread_join(w[i], NULL);
	if (pthread_barrier_destroy(&bar))
		return 1;

	/* Once A: one runner, two waiters. */
	if (pthread_create(&o[0], NULL, once_runner, NULL))
		return 1;
	for (long i = 1; i <= 2; i++)
		if (pthread_create(&o[i], NULL, once_waiter, (void *)i))
			return 1;
	for (int i = 0; i < 3; i++)
		pthread_join(o[i], NULL);

	/* Once B: a cancelled run, then main's. */
	if (pthread_create(&c, NULL, once_canceller, NULL))
		return 1;
	while (!atomic_load(&b_entered))
		usleep(100);
	pthread_cancel(c);
	pthread_join(c, NULL);
	pthread_once(&once_b, routine_b);
	if (atomic_load(&b_runs) != 2) {
		fprintf(stderr, "barrier_once: routine_b ran %d times\n", atomic_load(&b_runs));
		return 1;
	}
	printf("barrier_once: R=%d done\n", R);
	return 0;
}
