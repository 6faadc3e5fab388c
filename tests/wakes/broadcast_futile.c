/* The exactness case of the wake-outcome ledger: R broadcasts, each taking
 * all 4 waiters of `cv`, of which exactly 1 can proceed (one token per
 * round); the other 3 re-check their predicate and wait again without
 * unlocking. Then one more broadcast, from another call site, lets all 4
 * leave. usage: broadcast_futile R
 * Ledger (check-wakes.sh): round site R calls, 4R woken, R won, 3R futile;
 * stop site 1 call, 4 woken, 4 won.
 * Hand-shake: main broadcasts only while it holds the mutex and sees all 4
 * waiters inside their wait (`inside`, counted under the mutex before the
 * wait, uncounted after it) and each returned from the previous round's
 * broadcast (`seen`): a waiter that counts as inside and has released the
 * mutex is queued on cv, so each broadcast finds exactly the 4. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

#define WAITERS 4

static pthread_mutex_t mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int tokens, stop, inside, round_no, seen[WAITERS], won[WAITERS];

static void *waiter(void *arg)
{
	int id = (int)(long)arg;
	pthread_mutex_lock(&mx);
	for (;;) {
		inside++;
		while (!tokens && !stop) {
			pthread_cond_wait(&cv, &mx);
			seen[id] = round_no;
		}
		inside--;
		if (stop)
			break;
		tokens--;
		won[id]++;
		pthread_mutex_unlock(&mx); /* released: its next wait is not futile */
		pthread_mutex_lock(&mx);
	}
	pthread_mutex_unlock(&mx);
	return NULL;
}

/* Holding mx: all waiters queued, each back from round r's broadcast. */
static void lock_when_all_wait(int r)
{
	for (;;) {
		pthread_mutex_lock(&mx);
		int ok = inside == WAITERS;
		for (int i = 0; i < WAITERS; i++)
			ok = ok && seen[i] == r;
		if (ok)
			return;
		pthread_mutex_unlock(&mx);
		usleep(200);
	}
}

__attribute__((noinline)) static void broadcast_round(int r)
{
	round_no = r;
	tokens = 1;
	pthread_cond_broadcast(&cv);
}

__attribute__((noinline)) static void broadcast_stop(void)
{
	stop = 1;
	pthread_cond_broadcast(&cv);
}

int main(int argc, char **argv)
{
	int R = argc > 1 ? atoi(argv[1]) : 5;
	pthread_t t[WAITERS];
	for (long i = 0; i < WAITERS; i++)
		CHECK(pthread_create(&t[i], NULL, waiter, (void *)i) == 0);
	for (int r = 1; r <= R; r++) {
		lock_when_all_wait(r - 1);
		broadcast_round(r);
		pthread_mutex_unlock(&mx);
	}
	lock_when_all_wait(R);
	broadcast_stop();
	pthread_mutex_unlock(&mx);
	int total = 0;
	for (int i = 0; i < WAITERS; i++) {
		CHECK(pthread_join(t[i], NULL) == 0);
		total += won[i];
	}
	CHECK_EQ(total, R);
	CHECK_EQ(tokens, 0);
	printf("broadcast_futile: R=%d done\n", R);
	return 0;
}
