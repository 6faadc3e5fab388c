// A C++ program's threads as C++ programs are written: each job carries
// its own std::mutex and std::condition_variable (its completion), a
// worker completes it, the submitter waits for it and frees it. Neither
// object is made by a call (libstdc++ gives them the static initializer);
// the condvar's destructor calls pthread_cond_destroy. So every job is a
// condvar's whole life without an init, at one address when the allocator
// hands the same memory back (bench/README.md, "(h) apps").
// usage: cxx_jobs [JOBS=20000]
// prints: cxx_jobs jobs=N seconds=S jobs_per_s=R
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>

namespace {

struct Job {
	std::mutex m;
	std::condition_variable done_cv;
	bool done = false;
	long value = 0;
};

struct Queue {
	std::mutex m;
	std::condition_variable cv;
	std::deque<Job *> jobs;
	bool stop = false;
};

void work(Queue &q)
{
	for (;;) {
		Job *j;
		{
			std::unique_lock<std::mutex> l(q.m);
			q.cv.wait(l, [&] { return q.stop || !q.jobs.empty(); });
			if (q.jobs.empty())
				return;
			j = q.jobs.front();
			q.jobs.pop_front();
		}
		// Signalled with the job's mutex held: once it is released the
		// submitter may free the job, so nothing here touches it after.
		std::lock_guard<std::mutex> g(j->m);
		j->value = 42;
		j->done = true;
		j->done_cv.notify_one();
	}
}

} // namespace

int main(int argc, char **argv)
{
	long n = argc > 1 ? std::atol(argv[1]) : 20000;
	Queue q;
	std::thread worker(work, std::ref(q));
	long sum = 0;
	auto t0 = std::chrono::steady_clock::now();
	for (long i = 0; i < n; i++) {
		Job *j = new Job;
		{
			std::lock_guard<std::mutex> l(q.m);
			q.jobs.push_back(j);
		}
		q.cv.notify_one();
		{
			std::unique_lock<std::mutex> l(j->m);
			j->done_cv.wait(l, [&] { return j->done; });
			sum += j->value;
		}
		delete j;
	}
	{
		std::lock_guard<std::mutex> l(q.m);
		q.stop = true;
	}
	q.cv.notify_one();
	worker.join();
	double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	if (sum != 42 * n) {
		std::fprintf(stderr, "cxx_jobs: sum %ld, want %ld\n", sum, 42 * n);
		return 1;
	}
	std::printf("cxx_jobs jobs=%ld seconds=%.3f jobs_per_s=%.0f\n", n, s, n / s);
	return 0;
}
