/* The session daemon. When one is reachable (the user's, or the private
 * one `synctrace.sh` and the tests start), it is used as it is. Otherwise
 * a private `lttng-sessiond --daemonize --no-kernel` is started, its pid
 * read from its pid file, and exactly that process is stopped at the end.
 * (As root every daemon uses /run/lttng: a second one there would collide
 * with a user's, so one that is alive is always used.) */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <lttng/lttng.h>

#include "synctrace.h"

static pid_t private_pid;

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void pid_file(char *path, size_t size)
{
	const char *home = getenv("LTTNG_HOME");
	if (geteuid() == 0)
		snprintf(path, size, "/run/lttng/lttng-sessiond.pid");
	else
		snprintf(path, size, "%s/.lttng/lttng-sessiond.pid",
			 home && *home ? home : getenv("HOME") ? getenv("HOME") : "/tmp");
}

/* Is pid a live (not zombie) lttng-sessiond? */
static int is_sessiond(pid_t pid)
{
	char path[64], buf[256] = "";
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	char *close = strrchr(buf, ')');
	return strstr(buf, "(lttng-sessiond)") && close && close[1] == ' ' && close[2] != 'Z' &&
	       close[2] != 'X';
}

static pid_t read_pid(const char *path)
{
	FILE *f = fopen(path, "r");
	int pid = 0;
	if (f) {
		if (fscanf(f, "%d", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	return pid;
}

int sessiond_ensure(int quiet)
{
	char bin[PATH_MAX], pidf[PATH_MAX];
	if (lttng_session_daemon_alive() == 1)
		return 0;
	if (path_lookup("lttng-sessiond", bin, sizeof(bin))) {
		say("no LTTng session daemon is running and lttng-sessiond is not in PATH: "
		    "install lttng-tools (Debian: apt-get install lttng-tools) or start one");
		return -1;
	}
	if (!quiet)
		say("no session daemon running: starting a private one");
	pid_t p = fork();
	if (p < 0) {
		say("fork: %s", strerror(errno));
		return -1;
	}
	if (p == 0) {
		/* --daemonize: the first process exits once the daemon is ready. */
		execl(bin, "lttng-sessiond", "--daemonize", "--no-kernel", (char *)NULL);
		_exit(127);
	}
	int status;
	while (waitpid(p, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		say("%s --daemonize --no-kernel failed (status %d)", bin,
		    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		return -1;
	}
	pid_file(pidf, sizeof(pidf));
	for (int i = 0; i < 100; i++) {
		pid_t pid = read_pid(pidf);
		if (pid > 0 && is_sessiond(pid) && lttng_session_daemon_alive() == 1) {
			private_pid = pid;
			return 0;
		}
		nap_ms(50);
	}
	say("started lttng-sessiond but it is not reachable (pid file %s)", pidf);
	pid_t pid = read_pid(pidf);
	if (pid > 0 && is_sessiond(pid)) {
		private_pid = pid;
		sessiond_stop();
	}
	return -1;
}

void sessiond_stop(void)
{
	pid_t pid = private_pid;
	if (!pid)
		return;
	private_pid = 0;
	if (!is_sessiond(pid))
		return;
	kill(pid, SIGTERM);
	for (int i = 0; i < 100 && is_sessiond(pid); i++)
		nap_ms(50);
	if (is_sessiond(pid)) {
		say("the private lttng-sessiond (pid %d) did not stop: killing it", (int)pid);
		kill(pid, SIGKILL);
	}
}
