/* Two threads hand a turn back and forth through one condvar, 5000 times
 * each: the waiter usually still spins when the signal comes, so a single
 * signal releases it running and writes its cond:signaled afterwards, with
 * the time of the transition (src/cond/signal.c). The trace check
 * (count-events.sh) wants each woken waiter after its signaled. */
#include <pthread.h>
#include <stdio.h>

#include "check.h"

#define ROUNDS 5000

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int turn;

static void *player(void *arg)
{
	int me = (int)(long)arg;
	for (int i = 0; i < ROUNDS; i++) {
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		while (turn != me)
			CHECK_EQ(pthread_cond_wait(&c, &m), 0);
		turn = !me;
		CHECK_EQ(pthread_cond_signal(&c), 0);
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
	}
	return 0;
}

int main(void)
{
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		CHECK_EQ(pthread_create(&t[i], 0, player, (void *)i), 0);
	for (int i = 0; i < 2; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	printf("cond ping-pong: %d hand-offs\n", 2 * ROUNDS);
	return 0;
}
