/* A known wakeup for the Chrome export's flows: thread "waiter" waits on
 * condvar `ready` (with `state_lock`) ROUNDS times; main signals it each
 * time once it sleeps in the condvar wait, so each of its cond waits is
 * ended by one futex wake from main. */
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 4

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static volatile int waiter_tid, turn, done;

static void *waiter_main(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "waiter");
	__atomic_store_n(&waiter_tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (int r = 1; r <= ROUNDS; r++) {
		CHECK_EQ(pthread_mutex_lock(&state_lock), 0);
		while (turn != r)
			CHECK_EQ(pthread_cond_wait(&ready, &state_lock), 0);
		CHECK_EQ(pthread_mutex_unlock(&state_lock), 0);
		__atomic_store_n(&done, r, __ATOMIC_RELEASE);
	}
	return NULL;
}

int main(void)
{
	pthread_t t;
	st_check_interposed("pthread_cond_wait");
	CHECK_EQ(pthread_create(&t, NULL, waiter_main, NULL), 0);
	while (!__atomic_load_n(&waiter_tid, __ATOMIC_ACQUIRE))
		usleep(100);
	for (int r = 1; r <= ROUNDS; r++) {
		/* Untraced, the waiter may never sleep (the check gives up). */
		for (int i = 0; i < 20000 && !st_thread_in_futex_wait(waiter_tid); i++)
			usleep(100);
		CHECK_EQ(pthread_mutex_lock(&state_lock), 0);
		turn = r;
		CHECK_EQ(pthread_cond_signal(&ready), 0);
		CHECK_EQ(pthread_mutex_unlock(&state_lock), 0);
		while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) != r)
			usleep(100);
	}
	CHECK_EQ(pthread_join(t, NULL), 0);
	return 0;
}
