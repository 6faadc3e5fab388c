/* K rounds of one contended lock each: main holds the mutex, the worker
 * asks for it, and main releases it only once the worker is asleep in the
 * kernel (its /proc state is S), so every round is exactly one lock wait
 * that sleeps once (with SYNCTRACE_SPIN=none: no spin before it). The two
 * threads hand rounds over through atomics, never another synchronization
 * object, so the trace holds those K waits and nothing else.
 * usage: test_spinplan_rounds K */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

static pthread_mutex_t m;
static int go, done, worker_tid;

static void *worker(void *arg)
{
	int k = *(int *)arg;
	__atomic_store_n(&worker_tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (int r = 1; r <= k; r++) {
		while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) != r)
			sched_yield();
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
		__atomic_store_n(&done, r, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* Is thread tid asleep (state S)? */
static int asleep(int tid)
{
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	FILE *f = fopen(path, "r");
	CHECK(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *p = strrchr(buf, ')'); /* the name may hold spaces */
	return p && p[1] == ' ' && p[2] == 'S';
}

int main(int argc, char **argv)
{
	int k = argc > 1 ? atoi(argv[1]) : 20;
	pthread_mutexattr_t a;
	pthread_t t;
	CHECK_EQ(pthread_mutexattr_init(&a), 0);
	CHECK_EQ(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP), 0);
	CHECK_EQ(pthread_mutex_init(&m, &a), 0);
	CHECK_EQ(pthread_create(&t, NULL, worker, &k), 0);
	int tid;
	while (!(tid = __atomic_load_n(&worker_tid, __ATOMIC_ACQUIRE)))
		sched_yield();
	for (int r = 1; r <= k; r++) {
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		__atomic_store_n(&go, r, __ATOMIC_RELEASE);
		/* Asleep in its lock: it yields while it waits for go, so S
		 * after go can only be the lock's futex wait. */
		while (!asleep(tid))
			sched_yield();
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
		while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) != r)
			sched_yield();
	}
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK_EQ(pthread_mutex_destroy(&m), 0);
	printf("rounds=%d\n", k);
	return 0;
}
