/* Barrier rounds whose numbers are known (run with SYNCTRACE_SPIN=none):
 * NTHREADS threads pass ROUNDS rounds of one barrier; in each round one
 * chosen thread arrives last, once the others have arrived and are asleep
 * in the kernel. So per round: count - 1 arrivals and departures, one
 * release by the chosen thread (the serial thread), which wakes count - 1
 * sleepers. usage: barrier NTHREADS ROUNDS fixed|rotate (fixed: the last
 * thread is always last; rotate: thread r % NTHREADS in round r). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

#define MAX_THREADS 16

static pthread_barrier_t bar;
static int nthreads, rounds, rotate;
static volatile int tids[MAX_THREADS], started, ready;

static int last_of(int r)
{
	return rotate ? r % nthreads : nthreads - 1;
}

static void *participant(void *arg)
{
	int me = (int)(intptr_t)arg, serial = 0;
	__atomic_store_n(&tids[me], (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	__atomic_add_fetch(&started, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) != nthreads)
		usleep(100);
	for (int r = 1; r <= rounds; r++) {
		if (me != last_of(r)) {
			/* Counted once past round r - 1: asleep now means in round r. */
			__atomic_add_fetch(&ready, 1, __ATOMIC_ACQ_REL);
			CHECK_EQ(pthread_barrier_wait(&bar), 0);
			continue;
		}
		while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) != r * (nthreads - 1))
			usleep(100);
		for (int k = 0; k < nthreads; k++)
			while (k != me && !st_thread_in_futex_wait(tids[k]))
				usleep(200);
		CHECK_EQ(pthread_barrier_wait(&bar), PTHREAD_BARRIER_SERIAL_THREAD);
		serial++;
	}
	return (void *)(intptr_t)serial;
}

int main(int argc, char **argv)
{
	CHECK(argc == 4);
	nthreads = atoi(argv[1]);
	rounds = atoi(argv[2]);
	rotate = !strcmp(argv[3], "rotate");
	CHECK(nthreads >= 2 && nthreads <= MAX_THREADS && rounds >= 1);
	pthread_t t[MAX_THREADS];
	CHECK_EQ(pthread_barrier_init(&bar, 0, (unsigned)nthreads), 0);
	for (int i = 0; i < nthreads; i++)
		CHECK_EQ(pthread_create(&t[i], 0, participant, (void *)(intptr_t)i), 0);
	int serial = 0;
	for (int i = 0; i < nthreads; i++) {
		void *s;
		CHECK_EQ(pthread_join(t[i], &s), 0);
		serial += (int)(intptr_t)s;
	}
	CHECK_EQ(serial, rounds);
	CHECK_EQ(pthread_barrier_destroy(&bar), 0);
	printf("barrier: %d threads x %d rounds (%s)\n", nthreads, rounds, argv[3]);
	return 0;
}
