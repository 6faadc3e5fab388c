/* Known call sites: one mutex locked from two named functions, each time
 * under contention (main holds it until the worker sleeps on it), ROUNDS
 * times each. With SYNCTRACE_STACKS=1 the trace must hold one stack:frames
 * per distinct stack (not one per contended lock) and the report must name
 * push_item and pop_item at the lines marked CALLSITE. Also checks that
 * libunwind is mapped exactly when stacks are on (never untraced). Built
 * -g -O0 -fno-omit-frame-pointer. */
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 4

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int worker_tid, go, done, items;

__attribute__((noinline)) static void push_item(void)
{
	pthread_mutex_lock(&queue_lock); /* CALLSITE push */
	items++;
	pthread_mutex_unlock(&queue_lock);
}

__attribute__((noinline)) static void pop_item(void)
{
	pthread_mutex_lock(&queue_lock); /* CALLSITE pop */
	items--;
	pthread_mutex_unlock(&queue_lock);
}

static void *worker(void *arg)
{
	(void)arg;
	worker_tid = (int)syscall(SYS_gettid);
	for (int r = 1; r <= 2 * ROUNDS; r++) {
		while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) != r)
			usleep(100);
		if (r % 2)
			push_item();
		else
			pop_item();
		__atomic_store_n(&done, r, __ATOMIC_RELEASE);
	}
	return NULL;
}

static int has_libunwind(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	return info->dlpi_name && strstr(info->dlpi_name, "libunwind") != NULL;
}

int main(void)
{
	pthread_t t;
	st_check_interposed("pthread_mutex_lock");
	CHECK_EQ(pthread_create(&t, NULL, worker, NULL), 0);
	while (!__atomic_load_n(&worker_tid, __ATOMIC_ACQUIRE))
		usleep(100);
	for (int r = 1; r <= 2 * ROUNDS; r++) {
		CHECK_EQ(pthread_mutex_lock(&queue_lock), 0);
		__atomic_store_n(&go, r, __ATOMIC_RELEASE);
		for (int i = 0; i < 20000 && !st_thread_in_futex_wait(worker_tid); i++)
			usleep(100);
		CHECK_EQ(pthread_mutex_unlock(&queue_lock), 0);
		while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) != r)
			usleep(100);
	}
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK_EQ(items, 0);

	const char *stacks = getenv("SYNCTRACE_STACKS");
	int want = !strcmp(st_test_mode(), "traced") && stacks && !strcmp(stacks, "1");
	CHECK_EQ(dl_iterate_phdr(has_libunwind, NULL), want);
	return 0;
}
