/* A known contention for the exports' tests: thread "waiter" takes
 * queue_lock in take_queue() ROUNDS times, each time while main holds it
 * (main lets go only once the waiter sleeps on the futex), so every take
 * is one contended wait of kind mutex on queue_lock, from take_queue at
 * the line marked CALLSITE take, called from waiter_main at the line
 * marked CALLSITE loop. Built -g -O0 -fno-omit-frame-pointer. */
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 4

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int waiter_tid, go, done, items;

__attribute__((noinline)) static void take_queue(void)
{
	pthread_mutex_lock(&queue_lock); /* CALLSITE take */
	items++;
	pthread_mutex_unlock(&queue_lock);
}

static void *waiter_main(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "waiter");
	__atomic_store_n(&waiter_tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (int r = 1; r <= ROUNDS; r++) {
		while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) != r)
			usleep(100);
		take_queue(); /* CALLSITE loop */
		__atomic_store_n(&done, r, __ATOMIC_RELEASE);
	}
	return NULL;
}

int main(void)
{
	pthread_t t;
	st_check_interposed("pthread_mutex_lock");
	CHECK_EQ(pthread_create(&t, NULL, waiter_main, NULL), 0);
	while (!__atomic_load_n(&waiter_tid, __ATOMIC_ACQUIRE))
		usleep(100);
	for (int r = 1; r <= ROUNDS; r++) {
		CHECK_EQ(pthread_mutex_lock(&queue_lock), 0);
		__atomic_store_n(&go, r, __ATOMIC_RELEASE);
		/* Untraced, the waiter may never sleep (the check gives up). */
		for (int i = 0; i < 20000 && !st_thread_in_futex_wait(waiter_tid); i++)
			usleep(100);
		CHECK_EQ(pthread_mutex_unlock(&queue_lock), 0);
		while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) != r)
			usleep(100);
	}
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK_EQ(items, ROUNDS);
	return 0;
}
