/* Force the timeout-vs-signal race: waiters whose timeouts all expire at
 * the same instant D, and a broadcast sent into the wave of their
 * timeouts. In traced mode the trace must show signalers meeting LEAVING
 * waiters (met_leaving) and waiting for them (ref_wait_begin/end).
 *
 * Where the wave is depends on the machine's load (timer slack, wakeup
 * latency, how long 25 threads take to pass a barrier), so the broadcast's
 * place is steered by what each round saw: all waiters signaled, the
 * broadcast was early (the next one goes later); all timed out, it was
 * late (earlier; and once it is well before D, the waiters were late to
 * enqueue: D moves further ahead). A round with both is in the wave,
 * where a broadcast can meet a waiter that is leaving. It runs until it
 * has seen MIXED such rounds (at least ROUNDS rounds), or for MAX_S
 * seconds: a loaded machine gets more rounds, not a missing race.
 * (Until session 31 it ran 150 rounds at fixed offsets after D, and failed
 * now and then on a loaded machine: no round met a leaving waiter.) */
#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "check.h"
#include "util.h"

#define WAITERS 24
#define ROUNDS 150
#define MIXED 100
#define MAX_S 20

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t start;
static struct timespec deadline;
static int quit;
static long timeouts, signaled;   /* under m */
static int round_to, round_sig;   /* this round's, under m */

static void *waiter(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_barrier_wait(&start);
		if (__atomic_load_n(&quit, __ATOMIC_ACQUIRE))
			return 0;
		pthread_mutex_lock(&m);
		int e = pthread_cond_timedwait(&c, &m, &deadline);
		CHECK(e == 0 || e == ETIMEDOUT);
		if (e)
			timeouts++, round_to++;
		else
			signaled++, round_sig++;
		pthread_mutex_unlock(&m);
		pthread_barrier_wait(&start);
	}
}

int main(void)
{
	pthread_t t[WAITERS];
	pthread_barrier_init(&start, 0, WAITERS + 1);
	for (int i = 0; i < WAITERS; i++)
		CHECK_EQ(pthread_create(&t[i], 0, waiter, 0), 0);
	long long lead = 300000, off = 0; /* D after the round's start; the broadcast after D */
	long long end = now_ns(CLOCK_MONOTONIC) + MAX_S * 1000000000LL;
	int rounds = 0, mixed = 0;
	while ((rounds < ROUNDS || mixed < MIXED) && now_ns(CLOCK_MONOTONIC) < end) {
		deadline = after_ns(CLOCK_REALTIME, lead);
		pthread_barrier_wait(&start);
		long long d = deadline.tv_sec * 1000000000LL + deadline.tv_nsec;
		/* a little to either side of the steered place: the wave's
		 * whole width is sampled */
		while (now_ns(CLOCK_REALTIME) < d + off + (rounds % 5 - 2) * 4000)
			;
		pthread_cond_broadcast(&c);
		pthread_barrier_wait(&start);
		/* Every waiter passed the barrier: this round's counts are whole. */
		pthread_mutex_lock(&m);
		int to = round_to, sig = round_sig;
		round_to = round_sig = 0;
		pthread_mutex_unlock(&m);
		CHECK_EQ(to + sig, WAITERS);
		rounds++;
		if (to && sig) {
			mixed++;
		} else if (sig) {
			off += 8000;
		} else if ((off -= 8000) < -lead / 2 && lead < 10000000) {
			lead *= 2; /* they enqueued after D */
			off = 0;
		}
	}
	__atomic_store_n(&quit, 1, __ATOMIC_RELEASE);
	pthread_barrier_wait(&start);
	for (int i = 0; i < WAITERS; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	printf("%s: %d rounds (%d with both outcomes), %ld timeouts, %ld signaled\n", st_test_mode(),
	       rounds, mixed, timeouts, signaled);
	return 0;
}
