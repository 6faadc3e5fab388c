/* Running the command: found in PATH first (so a bad command costs no
 * session), started with the libraries preloaded and the settings in its
 * environment; its status returned as a shell would (128+N when killed by
 * signal N). SIGINT, SIGTERM, SIGHUP and SIGQUIT are forwarded to it,
 * unless the terminal sent them (then it got them already, being in our
 * process group); a second one kills it (SIGKILL); the trace is kept
 * either way. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "synctrace.h"

volatile int child_interrupted;
static volatile pid_t child_pid;

/* A second interrupt kills the command: a hung program that ignores or
 * handles SIGINT (or inherited it ignored) still ends, and its trace is
 * kept all the same. */
static volatile sig_atomic_t interrupts;

static void forward(int sig, siginfo_t *info, void *uc)
{
	(void)uc;
	child_interrupted = sig;
	pid_t p = child_pid;
	if (p > 0 && ++interrupts >= 2)
		kill(p, SIGKILL);
	else if (p > 0 && info->si_code != SI_KERNEL)
		kill(p, sig);
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NFORWARDED (sizeof(forwarded) / sizeof(forwarded[0]))
static struct sigaction original[NFORWARDED];   /* restored in the child */

void signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (unsigned i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &sa, &original[i]);
}

/* The child gets the dispositions synctrace was started with (an ignored
 * SIGHUP under nohup stays ignored). */
static void signals_restore(void)
{
	for (unsigned i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &original[i], NULL);
}

pid_t child_fork(void)
{
	fflush(NULL);
	pid_t p = fork();
	if (p < 0)
		say("fork: %s", strerror(errno));
	return p;
}

static int executable_file(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return errno;
	if (S_ISDIR(st.st_mode))
		return EISDIR;
	return access(path, X_OK) ? errno : 0;
}

int path_lookup(const char *cmd, char *out, size_t size)
{
	if (strchr(cmd, '/')) {
		snprintf(out, size, "%s", cmd);
		return executable_file(cmd);
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	int err = ENOENT;
	while (*path) {
		const char *colon = strchrnul(path, ':');
		int len = (int)(colon - path);
		snprintf(out, size, "%.*s%s%s", len, path, len ? "/" : "", cmd);
		int e = executable_file(out);
		if (!e)
			return 0;
		if (e != ENOENT && e != ENOTDIR)
			err = e;
		path = *colon ? colon + 1 : colon;
	}
	return err;
}

int child_check(const char *cmd)
{
	char path[PATH_MAX];
	int err = path_lookup(cmd, path, sizeof(path));
	if (!err)
		return 0;
	if (err == ENOENT || err == ENOTDIR) {
		say("%s: command not found", cmd);
		return ST_EXIT_NOTFOUND;
	}
	say("%s: cannot execute: %s", cmd, strerror(err));
	return ST_EXIT_NOEXEC;
}

/* A process starts at once and its first event waits for lttng-ust's
 * registration instead (src/trace/ready.h): lttng-ust's own wait, in its
 * constructor, cost every process 5-10 ms before main, recording or not
 * (bench/README.md, start cost); libsynctrace skips it. The limit is the
 * user's LTTNG_UST_REGISTER_TIMEOUT if set (0: no wait at all, as
 * lttng-ust does), else lttng-ust's default, 3 s. LTTNG_UST_REGISTER_TIMEOUT
 * itself is left as it is: lttng-ust takes it for its sockets' timeouts
 * too (0 made them 10 ms, and a loaded daemon's late reply left a process
 * untraced). A process that records nothing and ends before its
 * registration is not in the trace, but for the command itself
 * (SYNCTRACE_TOP_PID: this process, which execs it). */
static int register_wait_env(void)
{
	char pid[24];
	const char *t = getenv("LTTNG_UST_REGISTER_TIMEOUT");
	if (t && *t && !getenv("SYNCTRACE_REGISTER_WAIT") &&
	    setenv("SYNCTRACE_REGISTER_WAIT", t, 1))
		return -1;
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return setenv("SYNCTRACE_REGISTER_WAIT", "3000", 0) || setenv("SYNCTRACE_TOP_PID", pid, 1)
		       ? -1
		       : 0;
}

/* The child's environment: LD_PRELOAD appended to, settings set. The
 * probes announce the loaded objects themselves (meta:module: no file
 * opened), so neither lttng-ust's base-address statedump nor its dl
 * helper runs: each opens every loaded object again, ~10 ms a process
 * (bench/README.md, start cost). A setting of the user's is kept. */
static int child_env(const struct record_opts *o, const char *lib, const char *tp)
{
	const char *old = getenv("LD_PRELOAD");
	size_t n = (old ? strlen(old) : 0) + strlen(lib) + strlen(tp) + PATH_MAX + 8;
	char *pre = malloc(n);
	if (!pre)
		return -1;
	snprintf(pre, n, "%s%s%s %s %s", old && *old ? old : "", old && *old ? " " : "", lib, tp,
		 ust_fork_helper());
	int r = setenv("LD_PRELOAD", pre, 1);
	free(pre);
	if (!r)
		r = setenv("LTTNG_UST_WITHOUT_BADDR_STATEDUMP", "1", 0);
	if (!r)
		r = register_wait_env();
	if (!r && o->level)
		r = setenv("SYNCTRACE_LEVEL", o->level, 1);
	if (!r && o->spin)
		r = setenv("SYNCTRACE_SPIN", o->spin, 1);
	if (!r && o->threshold)
		r = setenv("SYNCTRACE_THRESHOLD", o->threshold, 1);
	if (!r && o->clock)
		r = setenv("SYNCTRACE_CLOCK", o->clock, 1);
	if (!r && o->blocking)
		r = setenv("LTTNG_UST_ALLOW_BLOCKING", "1", 1);
	/* a rotating trace keeps its tail: each process announces itself again
	 * every second, in the announcements' own ring (tracepoints/batch.h) */
	if (!r && o->keep_last)
		r = setenv("SYNCTRACE_REANNOUNCE", "1000", 0); /* or the user's */
	return r;
}

static int shell_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return ST_EXIT_FAILURE;
}

static pid_t watched_pid;
static int watched_status, watched_done;

void child_watch(pid_t pid)
{
	watched_pid = pid;
	if (pid > 0)
		watched_done = 0;
}

int child_watched(int *status)
{
	if (watched_done)
		*status = watched_status;
	return watched_done;
}

static int wait_child(pid_t p, int show_progress, int poll)
{
	int status, ticks_since_int = -1;
	poll = poll || watched_pid > 0;
	for (;;) {
		pid_t r = waitpid(p, &status, poll ? WNOHANG : 0);
		if (r == p)
			return status;
		if (r < 0 && errno != EINTR) {
			say("waitpid: %s", strerror(errno));
			return W_EXITCODE(ST_EXIT_FAILURE, 0);
		}
		if (r == 0) {
			struct timespec ts = { 0, 100000000L };
			nanosleep(&ts, NULL);
			limits_tick();
			if (watched_pid > 0 &&
			    waitpid(watched_pid, &watched_status, WNOHANG) == watched_pid) {
				watched_pid = 0;
				watched_done = 1;
				kill(p, SIGINT);
				ticks_since_int = 0;
			} else if (ticks_since_int >= 0 && ++ticks_since_int == 20) {
				kill(p, SIGTERM); /* SIGINT ignored (a background job's) */
			}
			if (show_progress)
				progress_tick();
		}
	}
}

int child_run(char **argv, const struct record_opts *o, const char *lib, const char *tp)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC)) {
		say("pipe: %s", strerror(errno));
		return ST_EXIT_FAILURE;
	}
	fflush(NULL);
	pid_t p = fork();
	if (p < 0) {
		say("fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return ST_EXIT_FAILURE;
	}
	if (p == 0) {
		close(pfd[0]);
		signals_restore();
		int err = child_env(o, lib, tp) ? ENOMEM : 0;
		if (!err) {
			execvp(argv[0], argv);
			err = errno;
		}
		ssize_t w = write(pfd[1], &err, sizeof(err));
		(void)w;
		_exit(err == ENOENT ? ST_EXIT_NOTFOUND : ST_EXIT_NOEXEC);
	}
	child_pid = p;
	close(pfd[1]);
	int err = 0;
	ssize_t got;
	while ((got = read(pfd[0], &err, sizeof(err))) < 0 && errno == EINTR)
		;
	close(pfd[0]);
	int show = !o->quiet && isatty(STDERR_FILENO);
	if (got == sizeof(err)) {
		show = 0;
		say("%s: %s", argv[0], err == ENOENT ? "command not found" : strerror(err));
	}
	if (show)
		progress_start("recording");
	int status = wait_child(p, show, show || limits_active(o));
	child_pid = 0;
	if (show)
		progress_end();
	return shell_status(status);
}
