/* pthread_once with callers that wait (numbers known): NTHREADS threads
 * race one pthread_once whose routine returns only once every other
 * thread is in the call and asleep in the kernel. So: one run, completed,
 * NTHREADS - 1 callers that waited, all woken by the runner's wake; then
 * each thread calls again and finds it done (not traced). usage: once
 * NTHREADS */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

#define MAX_THREADS 16

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int nthreads;
static volatile int tids[MAX_THREADS], calling[MAX_THREADS], started, runs;

static void slow_init(void)
{
	int me = (int)syscall(SYS_gettid);
	runs++;
	for (int k = 0; k < nthreads; k++) {
		int tid;
		while (!(tid = __atomic_load_n(&tids[k], __ATOMIC_ACQUIRE)))
			usleep(100);
		if (tid == me)
			continue;
		while (!__atomic_load_n(&calling[k], __ATOMIC_ACQUIRE) ||
		       !st_thread_in_futex_wait(tid))
			usleep(200);
	}
}

static void *caller(void *arg)
{
	int me = (int)(intptr_t)arg;
	__atomic_store_n(&tids[me], (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	__atomic_add_fetch(&started, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) != nthreads)
		usleep(100);
	__atomic_store_n(&calling[me], 1, __ATOMIC_RELEASE);
	CHECK_EQ(pthread_once(&once, slow_init), 0);
	CHECK_EQ(pthread_once(&once, slow_init), 0);
	return 0;
}

int main(int argc, char **argv)
{
	CHECK(argc == 2);
	nthreads = atoi(argv[1]);
	CHECK(nthreads >= 2 && nthreads <= MAX_THREADS);
	pthread_t t[MAX_THREADS];
	for (int i = 0; i < nthreads; i++)
		CHECK_EQ(pthread_create(&t[i], 0, caller, (void *)(intptr_t)i), 0);
	for (int i = 0; i < nthreads; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	CHECK_EQ(runs, 1);
	printf("once: %d callers, %d waited\n", nthreads, nthreads - 1);
	return 0;
}
