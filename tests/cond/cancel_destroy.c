/* Finding B (tests/model/FINDINGS.md): a waiter cancelled just as a
 * signal takes it must pass the signal on (POSIX), yet for the program
 * the signal has unblocked it, so the program may destroy the condvar and
 * free its memory at once. Here the condvar is alone on a page that is
 * unmapped as soon as pthread_cond_destroy returns: a pass-on (or any
 * other touch) after that faults. Before the fix, the waiter, requeued
 * onto the mutex the signaler held, passed its signal on through the
 * unmapped page once it got the mutex.
 *
 * The signaler holds the mutex through signal, cancel and destroy in half
 * of the rounds: destroy waits only for what needs no mutex (a hang here
 * is a deadlock). Signal-then-cancel and cancel-then-signal alternate. */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "util.h"

#define ROUNDS 400

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t *c;
static volatile int tid, cleanups, returned;

static void cleanup(void *arg)
{
	(void)arg;
	/* POSIX: the mutex is held again when cleanup handlers run. */
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	cleanups++;
}

static void *waiter(void *arg)
{
	(void)arg;
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	pthread_cleanup_push(cleanup, 0);
	__atomic_store_n(&tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	/* No predicate: this wait ends by the signal or by the cancel. */
	pthread_cond_wait(c, &m);
	/* What is tested is the wait: past it, the pending cancel must not
	 * act (traced, lttng-ust's code on the way out of a thread has
	 * cancellation points of its own). */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, 0);
	pthread_cleanup_pop(0);
	returned++;
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	return 0;
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	int cancelled = 0, normal = 0;

	st_check_interposed("pthread_cond_destroy");
	for (int i = 0; i < ROUNDS; i++) {
		int hold = i & 1, signal_first = (i >> 1) & 1;
		pthread_t t;
		void *res;

		c = mmap(0, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		CHECK(c != MAP_FAILED);
		CHECK_EQ(pthread_cond_init(c, 0), 0);
		tid = 0;
		CHECK_EQ(pthread_create(&t, 0, waiter, 0), 0);
		while (!__atomic_load_n(&tid, __ATOMIC_ACQUIRE))
			sched_yield();
		/* Asleep in the wait (so a signal has to wake it). */
		while (!st_thread_in_futex_wait(tid))
			sched_yield();

		if (hold)
			CHECK_EQ(pthread_mutex_lock(&m), 0);
		if (signal_first) {
			CHECK_EQ(pthread_cond_signal(c), 0);
			CHECK_EQ(pthread_cancel(t), 0);
		} else {
			CHECK_EQ(pthread_cancel(t), 0);
			CHECK_EQ(pthread_cond_signal(c), 0);
		}
		/* Legal: the one waiter is signaled, nobody is blocked on c. */
		CHECK_EQ(pthread_cond_destroy(c), 0);
		CHECK_EQ(munmap(c, page), 0);
		if (hold)
			CHECK_EQ(pthread_mutex_unlock(&m), 0);

		CHECK_EQ(pthread_join(t, &res), 0);
		if (res == PTHREAD_CANCELED)
			cancelled++;
		else
			normal++;
	}
	CHECK_EQ(cancelled + normal, ROUNDS);
	/* A waiter either acted on the cancel inside the wait (cleanup ran,
	 * mutex held) or returned from it (the wait ended before the cancel
	 * could act, and cancellation is disabled right after it): then it is
	 * joined with its return value, as with glibc, whose cancellable calls
	 * wait for a cancellation signal in flight before they return
	 * (src/internal/futex.c, await_cancel_signal; traced threads also end
	 * by pthread_exit: src/thread/create.c). */
	int late = returned - normal;
	printf("rounds %d: cancelled in the wait %d, returned %d, cancelled after returning %d\n",
	       ROUNDS, cancelled - late, normal, late);
	CHECK_EQ(late, 0);
	CHECK_EQ(cleanups + late, cancelled);
	/* The cancel must land inside the wait in most rounds, or this test
	 * does not test the race. */
	CHECK(cancelled > ROUNDS / 4);
	return 0;
}
