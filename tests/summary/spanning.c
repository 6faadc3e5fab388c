/* Lives of a semaphore at one heap address, all from one init site, that
 * a second thread touches without seeing them begin or end: main
 * initialises each life, the toucher fails a trywait on it, a third
 * thread destroys it. The toucher's table keeps one entry across the
 * lives (its first call site from the first life), and at half way it
 * pauses 1.1 s before its trywait, so that entry goes out mid-run (its
 * table a second old: src/trace/summary.c, table_age) while a later life
 * is alive, named by its init. The analyzer must not rename that life
 * after the toucher's site, which it saw first in time but in an earlier
 * life (analysis/model/summary.c, name_object: after_ts). Every life is
 * an object of the init site's class, at both levels.
 * The threads take turns by an atomic step (no primitive of ours between
 * them: only the semaphore's own events are in the trace).
 * usage: spanning [LIVES=6] */
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"

static sem_t *sem;
static int lives = 6;
static int step; /* 0 main inits, 1 the toucher, 2 the destroyer; round r: step + 3 r */

static void wait_step(int s)
{
	while (__atomic_load_n(&step, __ATOMIC_ACQUIRE) != s)
		sched_yield();
}

static void next_step(void)
{
	__atomic_add_fetch(&step, 1, __ATOMIC_RELEASE);
}

static __attribute__((noinline)) void made_here(sem_t *s)
{
	CHECK_EQ(sem_init(s, 0, 0), 0);
}

static __attribute__((noinline)) void touched_here(sem_t *s)
{
	CHECK_EQ(sem_trywait(s), -1);
}

static void *toucher(void *arg)
{
	(void)arg;
	for (int r = 0; r < lives; r++) {
		wait_step(3 * r + 1);
		if (r == lives / 2) {
			struct timespec pause = { 1, 100000000 };
			nanosleep(&pause, NULL);
		}
		touched_here(sem);
		next_step();
	}
	return NULL;
}

static void *destroyer(void *arg)
{
	(void)arg;
	for (int r = 0; r < lives; r++) {
		wait_step(3 * r + 2);
		CHECK_EQ(sem_destroy(sem), 0);
		next_step();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		lives = atoi(argv[1]);
	CHECK(lives >= 2);
	CHECK((sem = malloc(sizeof(*sem))) != NULL);
	pthread_t t, d;
	CHECK_EQ(pthread_create(&t, NULL, toucher, NULL), 0);
	CHECK_EQ(pthread_create(&d, NULL, destroyer, NULL), 0);
	for (int r = 0; r < lives; r++) {
		wait_step(3 * r);
		made_here(sem);
		next_step();
	}
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK_EQ(pthread_join(d, NULL), 0);
	free(sem);
	return 0;
}
