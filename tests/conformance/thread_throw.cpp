// The other place synctrace runs program code under a cleanup handler:
// the start routine of every thread (src/thread/create.c). An exception
// that leaves it has no handler to reach, so std::terminate runs during
// the search, before any cleanup handler: the process ends as it does
// under glibc, whatever our frames are built with.
#include <exception>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "conformance.h"

namespace {
void *throws(void *) { throw 7; }
[[noreturn]] void terminated() { _exit(42); }
} // namespace

extern "C" void thread_throw_terminates(void)
{
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		std::set_terminate(terminated);
		pthread_t t;
		if (pthread_create(&t, nullptr, throws, nullptr) == 0)
			pthread_join(t, nullptr);
		_exit(1); // not reached: terminate ends the process
	}
	int status;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 42);
}
