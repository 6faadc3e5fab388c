// The C++ standard library's synchronization on synctrace: std::mutex,
// std::shared_mutex (a pthread_rwlock_t), std::condition_variable
// (pthread_cond_clockwait for wait_for/until) and std::counting_semaphore.
// Built with _GLIBCXX_USE_POSIX_SEMAPHORE: libstdc++ 12's default
// counting_semaphore waits with futexes of its own (atomic wait), which no
// preloaded library can see; with the macro it is a sem_t.
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <semaphore>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "check.h"

using namespace std::chrono_literals;

int main()
{
	st_check_interposed("pthread_rwlock_rdlock");
	st_check_interposed("sem_post");

	// std::mutex: counted increments; the threads start against a held
	// lock, so some of them certainly wait (contention-level events).
	std::mutex m;
	long counter = 0;
	{
		std::unique_lock<std::mutex> held(m);
		std::vector<std::thread> ts;
		for (int i = 0; i < 4; i++)
			ts.emplace_back([&] {
				for (int k = 0; k < 20000; k++) {
					std::lock_guard<std::mutex> g(m);
					counter++;
				}
			});
		std::this_thread::sleep_for(20ms);
		held.unlock();
		for (auto &t : ts)
			t.join();
	}
	CHECK_EQ(counter, 80000);

	// std::shared_mutex: a writer holds while readers queue; no overlap.
	std::shared_mutex rw;
	int readers_in = 0, writer_in = 0;
	{
		std::unique_lock<std::shared_mutex> w(rw);
		std::vector<std::thread> ts;
		for (int i = 0; i < 3; i++)
			ts.emplace_back([&] {
				for (int k = 0; k < 2000; k++) {
					std::shared_lock<std::shared_mutex> r(rw);
					__atomic_add_fetch(&readers_in, 1, __ATOMIC_RELAXED);
					CHECK_EQ(__atomic_load_n(&writer_in, __ATOMIC_RELAXED), 0);
					__atomic_sub_fetch(&readers_in, 1, __ATOMIC_RELAXED);
				}
			});
		std::thread wt([&] {
			for (int k = 0; k < 500; k++) {
				std::unique_lock<std::shared_mutex> x(rw);
				writer_in = 1;
				CHECK_EQ(__atomic_load_n(&readers_in, __ATOMIC_RELAXED), 0);
				writer_in = 0;
			}
		});
		std::this_thread::sleep_for(20ms);
		w.unlock();
		for (auto &t : ts)
			t.join();
		wt.join();
	}

	// std::condition_variable with wait_for (a clock wait) and notify.
	std::condition_variable cv;
	bool ready = false;
	{
		std::unique_lock<std::mutex> l(m);
		CHECK(!cv.wait_for(l, 10ms, [&] { return ready; }));
		std::thread t([&] {
			std::this_thread::sleep_for(10ms);
			std::lock_guard<std::mutex> g(m);
			ready = true;
			cv.notify_all();
		});
		CHECK(cv.wait_for(l, 5s, [&] { return ready; }));
		l.unlock();
		t.join();
	}

	// std::counting_semaphore: a bounded channel of 4 slots.
	std::counting_semaphore<8> slots(4), items(0);
	long sum = 0;
	{
		std::thread producer([&] {
			for (int k = 1; k <= 10000; k++) {
				slots.acquire();
				items.release();
			}
		});
		for (int k = 1; k <= 10000; k++) {
			items.acquire();
			sum += 1;
			slots.release();
		}
		producer.join();
		CHECK(!items.try_acquire_for(5ms));
	}
	CHECK_EQ(sum, 10000);
	return 0;
}
