/* Condvars that are never initialised by a call (PTHREAD_COND_INITIALIZER,
 * as C++'s std::condition_variable is), made and freed per job, as a
 * C++ program that gives each job its own completion condvar: main waits
 * on the job's condvar (site W), a worker signals it (site S) once main
 * sleeps, main destroys it. Such an object is named by its first call
 * site in time, W in every life; the worker's aggregate spans every life
 * at the address and carries S from the first one: it must not rename
 * the lives that came after (analysis/model/summary.c, name_object).
 * PAUSE_MS: main sleeps that long before the second half's first round,
 * so that its table is older than a second there (at the summary level:
 * its kept destroy written, and a new run of lives begun mid-run).
 * MUTEX "init": the job's mutex is made by pthread_mutex_init and
 * destroyed with the job, a mutex's life per job, which only the condvar
 * wait's relock aggregates at the summary level (tests/summary/
 * mutex_lives.sh); "contended": the same, but the worker holds it first
 * until main sleeps on it (each life one contended acquisition) and
 * completes the job before main looks (no condvar wait).
 * usage: noinit ROUNDS [PAUSE_MS [MUTEX]] */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

struct job {
	pthread_mutex_t m;
	pthread_cond_t c;
	int done;
};

static struct job *volatile cur;
static volatile int main_tid, round_go, round_done, held;
static int rounds = 8, contended;

static void wait_for(volatile int *v, int want)
{
	while (__atomic_load_n(v, __ATOMIC_ACQUIRE) != want)
		usleep(100);
}

static void *worker(void *arg)
{
	(void)arg;
	for (int r = 1; r <= rounds; r++) {
		wait_for(&round_go, r);
		struct job *j = cur;
		if (contended) {
			CHECK_EQ(pthread_mutex_lock(&j->m), 0);
			__atomic_store_n(&held, r, __ATOMIC_RELEASE);
		}
		while (!st_thread_in_futex_wait(main_tid))
			usleep(100);
		if (!contended)
			CHECK_EQ(pthread_mutex_lock(&j->m), 0);
		j->done = 1;
		CHECK_EQ(pthread_mutex_unlock(&j->m), 0);
		CHECK_EQ(pthread_cond_signal(&j->c), 0); /* S */
		__atomic_store_n(&round_done, r, __ATOMIC_RELEASE);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	int pause_ms = 0;
	if (argc > 1)
		rounds = atoi(argv[1]);
	if (argc > 2)
		pause_ms = atoi(argv[2]);
	contended = argc > 3 && !strcmp(argv[3], "contended");
	int init_mutex = contended || (argc > 3 && !strcmp(argv[3], "init"));
	main_tid = (int)syscall(SYS_gettid);
	CHECK_EQ(pthread_create(&t, NULL, worker, NULL), 0);
	for (int r = 1; r <= rounds; r++) {
		if (pause_ms && r == rounds / 2 + 1)
			usleep((useconds_t)pause_ms * 1000); /* the state wanted: time passed */
		struct job *j = malloc(sizeof(*j));
		CHECK(j != NULL);
		*j = (struct job){ PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
		if (init_mutex)
			CHECK_EQ(pthread_mutex_init(&j->m, NULL), 0);
		cur = j;
		__atomic_store_n(&round_go, r, __ATOMIC_RELEASE);
		if (contended)
			wait_for(&held, r);
		CHECK_EQ(pthread_mutex_lock(&j->m), 0);
		while (!j->done)
			CHECK_EQ(pthread_cond_wait(&j->c, &j->m), 0); /* W */
		CHECK_EQ(pthread_mutex_unlock(&j->m), 0);
		wait_for(&round_done, r); /* the worker is done with it */
		CHECK_EQ(pthread_cond_destroy(&j->c), 0);
		if (init_mutex)
			CHECK_EQ(pthread_mutex_destroy(&j->m), 0);
		free(j);
	}
	CHECK_EQ(pthread_join(t, NULL), 0);
	return 0;
}
