/* Threads that wait mostly on a condvar with timeouts: N_THREADS
 * "sleeper" threads each make N timed waits of TIMEOUT_MS on `idle_cv`
 * that nobody signals (all N time out), then one wait that main signals.
 * usage: condtimeouts [N [turns]]
 * The report must show per thread N + 1 condvar waits, N timeouts, and
 * the condvar on top of the ranking with N_THREADS * N timeouts.
 * With `turns`, each sleeper starts once the one before it is asleep in
 * its last wait: their timeouts never meet on the condvar's own lock, so
 * every count of the run is the same from run to run (tests/summary).
 * Either way main signals only once both sleep in a futex wait, never
 * while one still spins. */

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define N_THREADS 2
#define TIMEOUT_MS 2

pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t idle_cv = PTHREAD_COND_INITIALIZER;
static int N = 10, go, turns, timeouts[N_THREADS];
static atomic_int waiting, tids[N_THREADS];

__attribute__((noinline)) static int wait_for_work(int timed)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += TIMEOUT_MS * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return timed ? pthread_cond_timedwait(&idle_cv, &idle_lock, &ts)
		     : pthread_cond_wait(&idle_cv, &idle_lock);
}

static void *sleeper(void *arg)
{
	int id = (int)(long)arg;
	pthread_setname_np(pthread_self(), "sleeper");
	atomic_store(&tids[id], (int)syscall(SYS_gettid));
	while (turns && id > 0 &&
	       (atomic_load(&waiting) < id || !st_thread_in_futex_wait(atomic_load(&tids[id - 1]))))
		usleep(100);
	pthread_mutex_lock(&idle_lock);
	for (int i = 0; i < N; i++)
		if (wait_for_work(1) == ETIMEDOUT)
			timeouts[id]++;
	atomic_fetch_add(&waiting, 1);
	while (!go)
		wait_for_work(0);
	pthread_mutex_unlock(&idle_lock);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[N_THREADS];
	if (argc > 1)
		N = atoi(argv[1]);
	turns = argc > 2 && !strcmp(argv[2], "turns");
	for (long i = 0; i < N_THREADS; i++)
		if (pthread_create(&t[i], NULL, sleeper, (void *)i))
			return 1;
	/* Both are in (or about to enter) their last, untimed wait... */
	while (atomic_load(&waiting) < N_THREADS)
		usleep(100);
	/* ...and asleep in it, past their spin. */
	for (int i = 0; i < N_THREADS; i++)
		while (!st_thread_in_futex_wait(atomic_load(&tids[i])))
			usleep(100);
	pthread_mutex_lock(&idle_lock);
	go = 1;
	pthread_cond_broadcast(&idle_cv);
	pthread_mutex_unlock(&idle_lock);
	for (int i = 0; i < N_THREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < N_THREADS; i++)
		if (timeouts[i] != N) {
			fprintf(stderr, "condtimeouts: thread %d timed out %d times, want %d\n", i,
				timeouts[i], N);
			return 1;
		}
	printf("condtimeouts: %d x %d timeouts\n", N_THREADS, N);
	return 0;
}
