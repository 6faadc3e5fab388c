/* Processes start before lttng-ust registered them; their first event
 * waits for the registration (src/trace/ready.h). start_lazy.sh runs this
 * program under `synctrace record` and freezes the session daemon while
 * it runs, so no new process can complete its registration:
 *
 *   start_lazy driver DIR   the command record runs: it waited in its
 *                           constructor (prints its state, 2); once DIR/frozen
 *                           exists, spawns `nothing` and then `contend`
 *                           (posix_spawn: no fork handler runs) and waits
 *   start_lazy nothing      records nothing: reaches main and ends though
 *                           the daemon is frozen
 *   start_lazy contend N    reaches main unregistered (state 1), then
 *                           initialises N mutexes: the first init waits
 *                           until the daemon runs again, and all N are in
 *                           the trace
 *
 * and, between the two, the driver forks twice (fork() returns in the
 * child before its registration):
 *   forked                  records nothing and exits: ends though the
 *                           daemon is frozen
 *   settle                  tells the driver it runs (state 1), then closes
 *                           every descriptor from 3, as a daemon does,
 *                           during its registration, three ways:
 *                           close_range() up to 7, close() up to 63,
 *                           closefrom(); lttng-ust's descriptor tracker
 *                           keeps its own (the registration's sockets, the
 *                           same before and after: "kept N"), so
 *                           the closes return at once ("settled", state 1,
 *                           while the daemon is frozen); then initialises
 *                           10 mutexes: the first waits for the
 *                           registration, which the closes did not break,
 *                           and all 10 are in the trace
 *
 * Each prints "ROLE pid=PID state=S" (synctrace_ready_state: 0 no such
 * wait, 1 awaited, 2 registered) on a line of its own. */
#include <dlfcn.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

extern char **environ;

static void say_state(const char *role)
{
	int (*state)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "synctrace_ready_state");
	printf("%s pid=%d state=%d\n", role, (int)getpid(), state ? state() : -1);
	fflush(stdout);
}

/* The sockets among descriptors 3 to 255: into kind[fd] 1, and their
 * inode into ino[fd]; returns how many. */
static int sockets(unsigned long ino[256], char kind[256])
{
	int n = 0;
	for (int fd = 3; fd < 256; fd++) {
		char path[64], target[128];
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		ssize_t len = readlink(path, target, sizeof(target) - 1);
		kind[fd] = 0;
		if (len <= 0)
			continue;
		target[len] = 0;
		if (sscanf(target, "socket:[%lu]", &ino[fd]) == 1)
			kind[fd] = 1, n++;
	}
	return n;
}

static void run(char *self, char *const argv[])
{
	pid_t pid;
	int st;
	CHECK_EQ(posix_spawn(&pid, self, 0, 0, argv, environ), 0);
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(int argc, char **argv)
{
	CHECK(argc >= 2);
	say_state(argv[1]);
	if (!strcmp(argv[1], "driver")) {
		CHECK(argc == 3);
		char frozen[4096];
		snprintf(frozen, sizeof(frozen), "%s/frozen", argv[2]);
		/* start_lazy.sh says when the daemon is frozen: wait for it */
		while (access(frozen, F_OK))
			usleep(10000);
		run(argv[0], (char *const[]){ argv[0], "nothing", 0 });
		pid_t forked = fork();
		CHECK(forked >= 0);
		if (forked == 0) {
			say_state("forked");
			exit(0);
		}
		int st, ready[2];
		CHECK_EQ(waitpid(forked, &st, 0), forked);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		CHECK_EQ(pipe(ready), 0);
		pid_t settle = fork();
		CHECK(settle >= 0);
		if (settle == 0) {
			say_state("settle");
			CHECK_EQ(write(ready[1], "r", 1), 1);
			CHECK_EQ(close(ready[1]), 0);
			/* The registration's sockets, made by lttng-ust's thread
			 * after the fork (the first descriptors it made, from 3):
			 * once there, they must outlive the closes (lttng-ust's
			 * descriptor tracker keeps them open). */
			unsigned long before[256], after[256];
			char was[256], is[256];
			for (int i = 0; i < 10000 && !sockets(before, was); i++)
				usleep(1000);
			CHECK_EQ(close_range(3, 7, 0), 0);
			for (int fd = 8; fd < 64; fd++)
				close(fd);
			closefrom(64);
			sockets(after, is);
			int kept = 0;
			for (int fd = 3; fd < 256; fd++)
				kept += was[fd] && is[fd] && before[fd] == after[fd];
			printf("kept %d of lttng-ust's sockets\n", kept);
			say_state("settled");
			for (int i = 0; i < 10; i++) {
				pthread_mutex_t m;
				CHECK_EQ(pthread_mutex_init(&m, 0), 0);
				CHECK_EQ(pthread_mutex_destroy(&m), 0);
			}
			exit(0);
		}
		char c;
		CHECK_EQ(read(ready[0], &c, 1), 1); /* it runs, before its close */
		run(argv[0], (char *const[]){ argv[0], "contend", "100", 0 });
		CHECK_EQ(waitpid(settle, &st, 0), settle);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		return 0;
	}
	if (!strcmp(argv[1], "nothing"))
		return 0;
	CHECK(!strcmp(argv[1], "contend") && argc == 3);
	int n = atoi(argv[2]);
	for (int i = 0; i < n; i++) {
		pthread_mutex_t m;
		CHECK_EQ(pthread_mutex_init(&m, 0), 0);
		CHECK_EQ(pthread_mutex_destroy(&m), 0);
	}
	return 0;
}
