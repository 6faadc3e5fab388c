/* Force the timeout-vs-signal race: waiters whose timeouts all expire at
 * the same instant D, and a broadcast sent into the wave of their
 * timeouts. In traced mode the trace must show signalers meeting LEAVING
 * waiters (met_leaving) and waiting for them (ref_wait_begin/end).
 *
 * A round counts only if every waiter was asleep in the wait before D:
 * the main thread sees that under m (a waiter counts itself under m and
 * the wait releases m), and when it is late, D moves further ahead. A
 * waiter that enqueues after D times out at once, so a round where some
 * waiters came before D and some after has both outcomes without any
 * race (session 32: a fresh-clone CI run had 127 such rounds and not one
 * met_leaving; a quiet machine enqueues 24 traced waiters in about the
 * 300 us the first D gave them).
 *
 * Where the wave of timeouts is depends on the machine (timer slack,
 * wakeup latency), so the broadcast's place is steered by what each round
 * saw: all waiters signaled, the broadcast was early (the next one goes
 * later); all timed out, it was late (earlier). A round with both is in
 * the wave, where a broadcast can meet a waiter that is leaving; there it
 * moves in small steps toward where half the waiters time out, the middle
 * of the wave, where the most are leaving at once (steered only from
 * outside the wave, a quiet machine once gave 14 met_leaving in 139 mixed
 * rounds: broadcasts at the wave's early edge). It runs until it has seen
 * MIXED such rounds (at least ROUNDS rounds; each gives a few met_leaving),
 * for at most MAX_ROUNDS rounds or MAX_S seconds: a loaded machine gets
 * more rounds, not a missing race, but not many more: the longer 25
 * threads load it, the likelier a record reaches the trace too late for
 * count-events.sh's order check (beside churn:3+spin:1, a run of 1,154
 * rounds until 100 mixed ones had records over 100 ms late). */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "check.h"
#include "util.h"

#define WAITERS 24
#define ROUNDS 150
#define MIXED 30
#define MAX_ROUNDS 500
#define MAX_S 20
#define MIN_LEAD 300000LL    /* 300 us */
#define MAX_LEAD 20000000LL /* 20 ms */

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t start;
static struct timespec deadline;
static int quit;
static long timeouts, signaled;          /* under m */
static int entered, round_to, round_sig; /* this round's, under m */

static void *waiter(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_barrier_wait(&start);
		if (__atomic_load_n(&quit, __ATOMIC_ACQUIRE))
			return 0;
		pthread_mutex_lock(&m);
		entered++;
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

/* Wait until every waiter is in the wait (its count is taken under m,
 * which the wait gives up only once the waiter is queued). */
static void all_waiting(void)
{
	for (;;) {
		pthread_mutex_lock(&m);
		int n = entered;
		pthread_mutex_unlock(&m);
		if (n == WAITERS)
			return;
		sched_yield();
	}
}

int main(void)
{
	pthread_t t[WAITERS];
	pthread_barrier_init(&start, 0, WAITERS + 1);
	for (int i = 0; i < WAITERS; i++)
		CHECK_EQ(pthread_create(&t[i], 0, waiter, 0), 0);
	long long lead = MIN_LEAD, off = 0; /* D after the round's start; the broadcast after D */
	long long begun = now_ns(CLOCK_MONOTONIC), end = begun + MAX_S * 1000000000LL;
	int rounds = 0, mixed = 0, late = 0;
	while ((rounds < ROUNDS || mixed < MIXED) && rounds < MAX_ROUNDS &&
	       now_ns(CLOCK_MONOTONIC) < end) {
		deadline = after_ns(CLOCK_REALTIME, lead);
		pthread_barrier_wait(&start);
		long long d = deadline.tv_sec * 1000000000LL + deadline.tv_nsec;
		all_waiting();
		long long spare = d - now_ns(CLOCK_REALTIME);
		/* a little to either side of the steered place: the wave's
		 * whole width is sampled */
		while (now_ns(CLOCK_REALTIME) < d + off + (rounds % 5 - 2) * 4000)
			;
		pthread_cond_broadcast(&c);
		pthread_barrier_wait(&start);
		/* Every waiter passed the barrier: this round's counts are whole. */
		pthread_mutex_lock(&m);
		int to = round_to, sig = round_sig;
		round_to = round_sig = entered = 0;
		pthread_mutex_unlock(&m);
		CHECK_EQ(to + sig, WAITERS);
		rounds++;
		if (spare <= 0) {
			late++;
			if (lead < MAX_LEAD)
				lead *= 2;
			continue;
		}
		/* more than it needed: the next round starts sooner */
		if (spare > lead / 2)
			lead = lead - lead / 8 > MIN_LEAD ? lead - lead / 8 : MIN_LEAD;
		mixed += to && sig;
		/* toward the middle of the wave, where the most waiters are
		 * leaving at once: in big steps from outside it, small inside */
		if (sig > to)
			off += to ? 2000 : 8000;
		else if (to > sig)
			off -= sig ? 2000 : 8000;
	}
	__atomic_store_n(&quit, 1, __ATOMIC_RELEASE);
	pthread_barrier_wait(&start);
	for (int i = 0; i < WAITERS; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	printf("%s: %d rounds (%d with both outcomes, %d with a waiter late for D, lead %lld us, %.1f s), "
	       "%ld timeouts, %ld signaled\n",
	       st_test_mode(), rounds, mixed, late, lead / 1000,
	       (now_ns(CLOCK_MONOTONIC) - begun) / 1e9, timeouts, signaled);
	return 0;
}
