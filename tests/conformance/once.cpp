// Once routines that throw (glibc bug 18435, tst-once5): the exception
// reaches the caller, and the once is as if never run, so the next call
// runs the routine again. std::call_once (libstdc++) and C11 call_once go
// through the same once, so all three must hold.
#include <mutex>
#include <pthread.h>
#include <threads.h>

#include "check.h"
#include "conformance.h"

namespace {

// Each routine throws on its first two runs (the run's number), then
// returns; calls counts the runs.
struct thrower {
	int calls = 0;
	void run()
	{
		int n = ++calls;
		if (n <= 2)
			throw n;
	}
};

thrower p_init;
pthread_once_t p_once = PTHREAD_ONCE_INIT;
void p_routine() { p_init.run(); }

thrower c11_init;
once_flag c11_once = ONCE_FLAG_INIT;
void c11_routine() { c11_init.run(); }

// Call f twice expecting the throws of runs 1 and 2, then twice more: the
// third run returns, the fourth call runs nothing.
template <class F> void throws_twice_then_runs(thrower &t, F f)
{
	for (int i = 1; i <= 2; i++) {
		int caught = 0;
		try {
			f();
		} catch (int n) {
			caught = n;
		}
		CHECK_EQ(caught, i);
		CHECK_EQ(t.calls, i);
	}
	f();
	CHECK_EQ(t.calls, 3);
	f();
	CHECK_EQ(t.calls, 3);
}

} // namespace

extern "C" void once_throw_resets(void)
{
	throws_twice_then_runs(p_init, [] { CHECK_EQ(pthread_once(&p_once, p_routine), 0); });
}

extern "C" void call_once_throw_resets(void)
{
	static std::once_flag flag;
	static thrower t;
	throws_twice_then_runs(t, [] { std::call_once(flag, [] { t.run(); }); });
}

extern "C" void c11_call_once_throw_resets(void)
{
	throws_twice_then_runs(c11_init, [] { call_once(&c11_once, c11_routine); });
}

// A thread asleep on the once while the routine throws is woken and runs
// the routine itself.
namespace {
pthread_once_t w_once = PTHREAD_ONCE_INIT;
int w_calls;
volatile int w_tid, w_running, w_calling, w_done;

void w_routine()
{
	if (__atomic_add_fetch(&w_calls, 1, __ATOMIC_ACQ_REL) > 1)
		return;
	__atomic_store_n(&w_running, 1, __ATOMIC_RELEASE);
	// First run (the main thread): throw once the waiter sleeps on the
	// once, or has already returned (it cannot: the once is RUNNING).
	conf_wait_flag(&w_calling);
	CHECK(conf_wait_asleep(w_tid, &w_done));
	throw 1;
}

void *w_waiter(void *)
{
	w_tid = conf_gettid();
	__atomic_store_n(&w_calling, 1, __ATOMIC_RELEASE);
	CHECK_EQ(pthread_once(&w_once, w_routine), 0);
	__atomic_store_n(&w_done, 1, __ATOMIC_RELEASE);
	return nullptr;
}

void *w_runner(void *started)
{
	int caught = 0;
	try {
		__atomic_store_n((volatile int *)started, 1, __ATOMIC_RELEASE);
		pthread_once(&w_once, w_routine);
	} catch (int n) {
		caught = n;
	}
	CHECK_EQ(caught, 1);
	return nullptr;
}
} // namespace

extern "C" void once_throw_wakes_waiter(void)
{
	pthread_t runner, waiter;
	volatile int started = 0;
	// The runner must own the once before the waiter calls.
	CHECK_EQ(pthread_create(&runner, nullptr, w_runner, (void *)&started), 0);
	conf_wait_flag(&started);
	conf_wait_flag(&w_running);
	CHECK_EQ(pthread_create(&waiter, nullptr, w_waiter, nullptr), 0);
	CHECK_EQ(pthread_join(runner, nullptr), 0);
	CHECK_EQ(pthread_join(waiter, nullptr), 0);
	CHECK_EQ(w_calls, 2);
	CHECK_EQ(pthread_once(&w_once, w_routine), 0);
	CHECK_EQ(w_calls, 2);
}
