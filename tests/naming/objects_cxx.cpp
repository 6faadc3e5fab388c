// C++ names: a mutex member of a global object in a namespace
// (app::jobs.mtx, demangled, the member from DWARF) and one of a heap
// object, first used (std::mutex has no init) in Worker::run: with stacks
// the frames in std::mutex's header code are skipped. Each is contended
// once so it has events. Built -g -O0 -fno-omit-frame-pointer.
#include <mutex>
#include <thread>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

namespace app {
struct Jobs {
	long pending;
	std::mutex mtx;
};
Jobs jobs;
} // namespace app

static volatile int worker_tid;

class Worker {
public:
	__attribute__((noinline)) void run()
	{
		worker_tid = 0;
		state_mtx_.lock();
		std::thread t([this] {
			__atomic_store_n(&worker_tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
			state_mtx_.lock(); // NAMESITE worker-run
			state_mtx_.unlock();
		});
		wait_sleeping();
		state_mtx_.unlock();
		t.join();
	}
	static void wait_sleeping()
	{
		while (!__atomic_load_n(&worker_tid, __ATOMIC_ACQUIRE))
			usleep(100);
		for (int i = 0; i < 20000 && !st_thread_in_futex_wait(worker_tid); i++)
			usleep(100);
	}

private:
	long runs_ = 0;
	std::mutex state_mtx_;
};

__attribute__((noinline)) static void contend_jobs()
{
	worker_tid = 0;
	app::jobs.mtx.lock();
	std::thread t([] {
		__atomic_store_n(&worker_tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
		std::lock_guard<std::mutex> g(app::jobs.mtx); // NAMESITE jobs
		app::jobs.pending++;
	});
	Worker::wait_sleeping();
	app::jobs.mtx.unlock();
	t.join();
}

int main()
{
	st_check_interposed("pthread_mutex_lock");
	contend_jobs();
	Worker *w = new Worker;
	w->run();
	delete w;
	CHECK_EQ(app::jobs.pending, 1);
	return 0;
}
