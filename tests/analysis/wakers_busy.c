/* Condvar waits whose advice in the report's findings differs by what
 * their wakers do between wakes (analysis/report/findings.c, wakers_life):
 * usage: wakers_busy busy|busy-joined|idle|spare|turns
 *   busy: input_cv: main waits for ITEMS inputs, each posted by "napper"
 *     after a nanosleep of NAP_NS: the waker is blocked outside any
 *     object, the wait is for its input; then
 *     results_cv: main waits for ITEMS results, each computed by
 *     "cruncher" in CRUNCH_NS of its own CPU time, during which it waits on
 *     nothing: the waker is on a CPU, the wait is for its work (the
 *     cruncher then sleeps until the process ends, at once, unjoined: its
 *     times come at the exit, thread:times, not with a thread:exit, and at
 *     the summary level its aggregates come from the exiting thread, naming
 *     it; busy-joined joins it);
 *   idle: work_cv: "idler" waits for ITEMS items, each posted by "feeder"
 *     after a timed wait of FEED_NS on tick_cv that nothing signals: the
 *     waker itself waits nearly all its life, the idler waits for work.
 *   spare: SPARES "spare" threads wait on spare_cv all their lives (a
 *     pool's spare threads, told at the exit by a broadcast), while two
 *     "worker" threads take turns on mutex m5, each computing HOLD_NS of
 *     CPU time under it WORKER_ROUNDS times: the spare threads' waiting is
 *     most of all, yet the workers' wait on m5 is the finding that comes
 *     first. (An idle thread waited 95 % of its life: the workers' ~0.4 s
 *     of CPU make a spare's time from its start to its wait, a few ms on a
 *     loaded sanitized run, a small part of it; with 48 ms, one spare of
 *     three fell short once in CI's ASan build.)
 *   turns: TURNERS "turner" threads pass a turn round on turn_cv, each
 *     waiting for its own with a 5 ms timed wait in a loop (as CPython's
 *     GIL does) and computing TURN_NS of CPU time in it; then they take
 *     turns at semaphore lock_sem used as a lock: the waiters are the
 *     wakers, on both.
 * Each mode's waits run one after the other. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define ITEMS 6
#define CRUNCH_NS 15000000LL
#define FEED_NS 15000000LL
#define NAP_NS 15000000LL
#define SPARES 3
#define ROUNDS 8
#define WORKER_ROUNDS 64
#define HOLD_NS 3000000LL
#define TURNERS 3
#define TURN_NS 2000000LL

static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER,
		       m3 = PTHREAD_MUTEX_INITIALIZER, m4 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t results_cv = PTHREAD_COND_INITIALIZER, work_cv = PTHREAD_COND_INITIALIZER,
		      tick_cv = PTHREAD_COND_INITIALIZER, input_cv = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t m5 = PTHREAD_MUTEX_INITIALIZER, m6 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t spare_cv = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t m7 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn_cv = PTHREAD_COND_INITIALIZER;
static sem_t lock_sem;
static int turn;
static atomic_int workers_ready, turners_done, sem_turns, sem_done;
static int ready, posted, napped, quit_after, spare_quit, spares_waiting;

static int64_t now_ns(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Burn ns of the calling thread's CPU time. */
static void compute(int64_t ns)
{
	int64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ns;
	volatile uint64_t x = 0;
	while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int k = 0; k < 1000; k++)
			x += (uint64_t)k;
}

static void *cruncher(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "cruncher");
	for (int i = 0; i < ITEMS; i++) {
		/* CPU time, not wall time: a loaded machine stretches it, the
		 * thread still waits on nothing meanwhile. */
		compute(CRUNCH_NS);
		CHECK_EQ(pthread_mutex_lock(&m1), 0);
		ready++;
		CHECK_EQ(pthread_cond_signal(&results_cv), 0);
		CHECK_EQ(pthread_mutex_unlock(&m1), 0);
	}
	while (!quit_after) /* alive at the process's exit */
		pause();
	return 0;
}

static void *napper(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "napper");
	for (int i = 0; i < ITEMS; i++) {
		struct timespec nap = { 0, NAP_NS };
		while (nanosleep(&nap, &nap) && errno == EINTR)
			;
		CHECK_EQ(pthread_mutex_lock(&m4), 0);
		napped++;
		CHECK_EQ(pthread_cond_signal(&input_cv), 0);
		CHECK_EQ(pthread_mutex_unlock(&m4), 0);
	}
	return 0;
}

static void *idler(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "idler");
	CHECK_EQ(pthread_mutex_lock(&m2), 0);
	for (int i = 0; i < ITEMS; i++)
		while (posted <= i)
			CHECK_EQ(pthread_cond_wait(&work_cv, &m2), 0);
	CHECK_EQ(pthread_mutex_unlock(&m2), 0);
	return 0;
}

static void *feeder(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "feeder");
	for (int i = 0; i < ITEMS; i++) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += FEED_NS;
		if (until.tv_nsec >= 1000000000L)
			until.tv_sec++, until.tv_nsec -= 1000000000L;
		CHECK_EQ(pthread_mutex_lock(&m3), 0);
		int r;
		do /* (nothing signals tick_cv: only a spurious return comes early) */
			r = pthread_cond_timedwait(&tick_cv, &m3, &until);
		while (r == 0);
		CHECK_EQ(r, ETIMEDOUT);
		CHECK_EQ(pthread_mutex_unlock(&m3), 0);
		CHECK_EQ(pthread_mutex_lock(&m2), 0);
		posted++;
		CHECK_EQ(pthread_cond_signal(&work_cv), 0);
		CHECK_EQ(pthread_mutex_unlock(&m2), 0);
	}
	return 0;
}

static void *spare(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "spare");
	CHECK_EQ(pthread_mutex_lock(&m6), 0);
	spares_waiting++;
	while (!spare_quit)
		CHECK_EQ(pthread_cond_wait(&spare_cv, &m6), 0);
	CHECK_EQ(pthread_mutex_unlock(&m6), 0);
	return 0;
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "worker");
	/* Both running before the first round (else, on a loaded machine,
	 * one may do all its rounds before the other starts: no wait). */
	atomic_fetch_add(&workers_ready, 1);
	while (atomic_load(&workers_ready) < 2)
		sched_yield();
	for (int i = 0; i < WORKER_ROUNDS; i++) {
		CHECK_EQ(pthread_mutex_lock(&m5), 0);
		compute(HOLD_NS);
		CHECK_EQ(pthread_mutex_unlock(&m5), 0);
		sched_yield(); /* (the other worker's turn, most often) */
	}
	return 0;
}

static void *turner(void *arg)
{
	int me = (int)(long)arg;
	pthread_setname_np(pthread_self(), "turner");
	for (int i = 0; i < ROUNDS; i++) {
		CHECK_EQ(pthread_mutex_lock(&m7), 0);
		while (turn % TURNERS != me) {
			struct timespec until;
			clock_gettime(CLOCK_REALTIME, &until);
			until.tv_nsec += 5000000L;
			if (until.tv_nsec >= 1000000000L)
				until.tv_sec++, until.tv_nsec -= 1000000000L;
			int r = pthread_cond_timedwait(&turn_cv, &m7, &until);
			CHECK(r == 0 || r == ETIMEDOUT);
		}
		compute(TURN_NS); /* (holding the turn, as a GIL's holder runs) */
		turn++;
		CHECK_EQ(pthread_cond_broadcast(&turn_cv), 0);
		CHECK_EQ(pthread_mutex_unlock(&m7), 0);
	}
	atomic_fetch_add(&turners_done, 1); /* (all at the semaphore together) */
	while (atomic_load(&turners_done) < TURNERS)
		sched_yield();
	for (int i = 0; i < ROUNDS; i++) {
		while (sem_wait(&lock_sem))
			CHECK_EQ(errno, EINTR);
		int mine = atomic_fetch_add(&sem_turns, 1) + 1;
		compute(TURN_NS);
		CHECK_EQ(sem_post(&lock_sem), 0);
		/* Not again before another took it (while one is left): so
		 * every turner waits for its turns, none barges through all of
		 * its own (a loaded or sanitized run made one never wait). */
		while (atomic_load(&sem_turns) == mine && atomic_load(&sem_done) < TURNERS - 1)
			sched_yield();
	}
	atomic_fetch_add(&sem_done, 1);
	return 0;
}

static void *boss_run(void *arg)
{
	pthread_t *wk = arg;
	pthread_setname_np(pthread_self(), "boss");
	for (int i = 0; i < 2; i++)
		CHECK_EQ(pthread_join(wk[i], 0), 0);
	CHECK_EQ(pthread_mutex_lock(&m6), 0);
	spare_quit = 1;
	CHECK_EQ(pthread_cond_broadcast(&spare_cv), 0);
	CHECK_EQ(pthread_mutex_unlock(&m6), 0);
	return 0;
}

/* main waits for ITEMS counts of *n under m on cv, made by fn's thread
 * (joined if join). */
static void main_waits_for(void *(*fn)(void *), pthread_mutex_t *m, pthread_cond_t *cv, int *n,
			   int join)
{
	pthread_t t;
	CHECK_EQ(pthread_create(&t, 0, fn, 0), 0);
	CHECK_EQ(pthread_mutex_lock(m), 0);
	for (int got = 0; got < ITEMS; got++)
		while (*n <= got)
			CHECK_EQ(pthread_cond_wait(cv, m), 0);
	CHECK_EQ(pthread_mutex_unlock(m), 0);
	if (join)
		CHECK_EQ(pthread_join(t, 0), 0);
}

int main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "busy") || !strcmp(argv[1], "busy-joined"))) {
		quit_after = !strcmp(argv[1], "busy-joined");
		main_waits_for(napper, &m4, &input_cv, &napped, 1);
		main_waits_for(cruncher, &m1, &results_cv, &ready, quit_after);
		printf("wakers_busy busy: %d results, %d inputs\n", ready, napped);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "idle")) {
		pthread_t t1, t2;
		CHECK_EQ(pthread_create(&t1, 0, idler, 0), 0);
		CHECK_EQ(pthread_create(&t2, 0, feeder, 0), 0);
		CHECK_EQ(pthread_join(t1, 0), 0);
		CHECK_EQ(pthread_join(t2, 0), 0);
		printf("wakers_busy idle: %d items\n", posted);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "spare")) {
		pthread_t sp[SPARES], wk[2];
		for (int i = 0; i < SPARES; i++)
			CHECK_EQ(pthread_create(&sp[i], 0, spare, 0), 0);
		for (int waiting = 0; waiting < SPARES;) { /* every spare waits */
			CHECK_EQ(pthread_mutex_lock(&m6), 0);
			waiting = spares_waiting;
			CHECK_EQ(pthread_mutex_unlock(&m6), 0);
			if (waiting < SPARES)
				sched_yield();
		}
		for (int i = 0; i < 2; i++)
			CHECK_EQ(pthread_create(&wk[i], 0, worker, 0), 0);
		/* The spares' waker is "boss", which only joins the workers and
		 * tells the spares: not main, whose CPU and run-queue times
		 * count from the process's start (a loaded, sanitized start
		 * made main look like a thread that ran, and the spares' wait
		 * one for its work). */
		pthread_t boss;
		CHECK_EQ(pthread_create(&boss, 0, boss_run, wk), 0);
		CHECK_EQ(pthread_join(boss, 0), 0);
		for (int i = 0; i < SPARES; i++)
			CHECK_EQ(pthread_join(sp[i], 0), 0);
		printf("wakers_busy spare: %d spare threads, 2 workers\n", SPARES);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "turns")) {
		pthread_t t[TURNERS];
		CHECK_EQ(sem_init(&lock_sem, 0, 1), 0);
		for (int i = 0; i < TURNERS; i++)
			CHECK_EQ(pthread_create(&t[i], 0, turner, (void *)(long)i), 0);
		for (int i = 0; i < TURNERS; i++)
			CHECK_EQ(pthread_join(t[i], 0), 0);
		printf("wakers_busy turns: %d turns\n", turn);
		return 0;
	}
	fprintf(stderr, "usage: wakers_busy busy|busy-joined|idle|spare|turns\n");
	return 2;
}
