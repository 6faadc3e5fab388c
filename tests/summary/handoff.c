/* Condvar hand-offs whose numbers are known, run with the default spin:
 * in each of ROUNDS rounds the waiter waits on the condvar once, and the
 * signaller signals it once it is sure to be waiting (it took the mutex
 * the waiter's wait released). So ROUNDS waits, each ended by one signal,
 * however the waiter waited: mostly in its spin, where the summary level
 * aggregates what it queued an item at a time (src/wait/wait.h,
 * st_summary_step), and the signaller's relock races make the rest vary.
 * usage: handoff ROUNDS */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int rounds, waiting, go;

static void *waiter(void *arg)
{
	(void)arg;
	for (int r = 0; r < rounds; r++) {
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		waiting = 1;
		while (!go)
			CHECK_EQ(pthread_cond_wait(&c, &m), 0);
		go = 0;
		waiting = 0;
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
	}
	return 0;
}

int main(int argc, char **argv)
{
	CHECK(argc == 2);
	rounds = atoi(argv[1]);
	CHECK(rounds >= 1);
	pthread_t t;
	CHECK_EQ(pthread_create(&t, 0, waiter, 0), 0);
	for (int r = 0; r < rounds;) {
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		/* Waiting and we hold the mutex: it is in its wait. */
		if (waiting && !go) {
			go = 1;
			CHECK_EQ(pthread_cond_signal(&c), 0);
			r++;
		}
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
	}
	CHECK_EQ(pthread_join(t, 0), 0);
	printf("handoff: %d rounds\n", rounds);
	return 0;
}
