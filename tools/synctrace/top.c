/* synctrace top [OPTIONS] [--session NAME | -- CMD [ARGS...]]: the live
 * view. With CMD: a live session streams to a relay daemon (a private one
 * on 127.0.0.1, or --relayd URL), the viewer (synctrace-report --live,
 * analysis/bt2/top.c) attaches, and only then CMD starts, so the view
 * misses none of its events. The viewer ends when the session does; 'q'
 * or --count ending it first interrupts CMD (SIGINT, as Ctrl-C would;
 * SIGTERM 2 s later if it still runs).
 * With --session NAME: a live session that exists is viewed, not touched.
 * Order at the end: CMD exits → the session stops (every buffer sent) and
 * is destroyed → the viewer reads the rest and ends → the private relay
 * daemon is stopped → its folder removed unless -o kept it. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <lttng/lttng.h>

#include "synctrace.h"

static void help(void)
{
	fputs("usage: synctrace top [OPTIONS] [--session NAME | -- CMD [ARGS...]]\n"
	      "A live view of where threads wait: every second the waits of the last second\n"
	      "and since the start, per lock class, with the report's findings. On a terminal\n"
	      "the view is redrawn in place ('q' or Ctrl-C ends it); --batch prints the\n"
	      "snapshots one after the other (logs, tests). With CMD: record it (as 'synctrace\n"
	      "record') through a relay daemon (a private lttng-relayd on 127.0.0.1, or\n"
	      "--relayd) and show it at once; ending the view interrupts CMD. With no CMD and\n"
	      "no --session: the built-in demo.\n"
	      "\n"
	      "      --session NAME    view the live session NAME of the session daemon\n"
	      "                        (created with 'lttng create NAME --live'); left as it is\n"
	      "      --relayd URL      the relay daemon (net://HOST[:CONTROL_PORT[:DATA_PORT]],\n"
	      "                        live port = control port + 2); default: a private one\n"
	      "  -o, --output DIR      keep the trace in DIR (the private relay daemon's\n"
	      "                        output: DIR/HOSTNAME/SESSION-DATE); default: removed\n"
	      "      --batch           snapshots one after the other, no terminal sequences;\n"
	      "                        CMD's standard output goes to standard error\n"
	      "      --interval SECONDS  between snapshots (default 1)\n"
	      "      --count N         end after N snapshots\n"
	      "      --max-behind SECONDS  when the view falls this far behind the program\n"
	      "                        (default 10; 0: never), it skips ahead to the newest\n"
	      "                        data and says so (counts become lower bounds)\n"
	      "      --top N           rows per table (default 10); --wide: every column\n"
	      "  -l, --level, -s, --spin, --stacks, --blocking, --no-blocking, --buffer-size,\n"
	      "  -q, --quiet           as for 'synctrace record'\n"
	      "  -h, --help            this help\n"
	      "\n"
	      "On a terminal CMD's output goes to DIR/command.log with -o, else nowhere (the\n"
	      "view has the screen).\n"
	      "\n"
	      "Exit status: CMD's (as 'synctrace record'); with --session the viewer's (0;\n"
	      "1 it stopped on an error); 125 synctrace failed (bad option, LTTng, relay\n"
	      "daemon, the live view could not attach).\n",
	      stdout);
}

/* The viewer: synctrace-report --live URL and top's own options. Its pid,
 * or -1. ready_fd >= 0: where it says it is attached. */
static pid_t viewer_start(const char *url, const struct record_opts *o, int ready_fd)
{
	char path[PATH_MAX], fd[16];
	if (find_analyzer(path, sizeof(path))) {
		say("the analyzer synctrace-report is not built (the live view is its --live mode)");
		return -1;
	}
	char *args[24] = { path, "--live", (char *)url };
	int n = 3;
	if (o->batch)
		args[n++] = "--batch";
	if (o->interval) {
		args[n++] = "--interval";
		args[n++] = (char *)o->interval;
	}
	if (o->count) {
		args[n++] = "--count";
		args[n++] = (char *)o->count;
	}
	if (o->max_behind) {
		args[n++] = "--max-behind";
		args[n++] = (char *)o->max_behind;
	}
	for (int i = 0; i < o->nreport && n < 19; i++)
		args[n++] = o->report_args[i];
	if (ready_fd >= 0) {
		snprintf(fd, sizeof(fd), "%d", ready_fd);
		args[n++] = "--ready-fd";
		args[n++] = fd;
	}
	args[n] = NULL;
	pid_t p = child_fork();
	if (p < 0)
		return -1;
	if (p == 0) {
		if (ready_fd >= 0)
			fcntl(ready_fd, F_SETFD, 0); /* kept across exec */
		execv(path, args);
		say("cannot run %s: %s", path, strerror(errno));
		_exit(ST_EXIT_FAILURE);
	}
	return p;
}

static int viewer_wait(pid_t p)
{
	int status;
	if (child_watched(&status))
		return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	while (waitpid(p, &status, 0) < 0)
		if (errno != EINTR)
			return ST_EXIT_FAILURE;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void host_name(char *buf, size_t n)
{
	if (gethostname(buf, n))
		snprintf(buf, n, "localhost");
	buf[n - 1] = 0;
}

/* --session NAME: find it, check it is live, view it. */
static int view_session(const struct record_opts *o)
{
	struct lttng_session *ss = NULL;
	struct relay_addr r;
	char url[1024], host[256];
	if (sessiond_ensure(1) || lttng_session_daemon_alive() != 1) {
		say("no session daemon: --session views a session that exists");
		return ST_EXIT_FAILURE;
	}
	int n = lttng_list_sessions(&ss), found = -1;
	for (int i = 0; i < n; i++)
		if (!strcmp(ss[i].name, o->session))
			found = i;
	if (found < 0) {
		say("no session '%s' in the session daemon", o->session);
		free(ss);
		return ST_EXIT_FAILURE;
	}
	if (!ss[found].live_timer_interval) {
		say("session '%s' is not live: create it with 'lttng create %s --live'", o->session,
		    o->session);
		free(ss);
		return ST_EXIT_FAILURE;
	}
	/* Its relay daemon: --relayd, else the host and ports of its output
	 * ("tcp4://HOST:CTRL/PATH [data: DATA]"). */
	int ok;
	if (o->relayd) {
		ok = !relay_parse(o->relayd, &r);
	} else {
		const char *p = strstr(ss[found].path, "://");
		const char *d = strstr(ss[found].path, "[data: ");
		char spec[300] = "";
		if (p && d) {
			p += 3;
			size_t hl = strcspn(p, ":/");
			snprintf(spec, sizeof(spec), "net://%.*s:%d:%d", (int)hl, p,
				 p[hl] == ':' ? atoi(p + hl + 1) : 5342, atoi(d + 7));
		}
		ok = spec[0] && !relay_parse(spec, &r);
		if (!ok)
			say("session '%s' streams to '%s': give its relay daemon with --relayd",
			    o->session, ss[found].path);
	}
	free(ss);
	if (!ok)
		return ST_EXIT_FAILURE;
	host_name(host, sizeof(host));
	snprintf(url, sizeof(url), "net://%s:%d/host/%s/%s", r.host, r.live, host, o->session);
	pid_t v = viewer_start(url, o, -1);
	return v < 0 ? ST_EXIT_FAILURE : viewer_wait(v);
}

static int rm_entry(const char *path, const struct stat *sb, int type, struct FTW *f)
{
	(void)sb;
	(void)type;
	(void)f;
	return remove(path);
}

/* Wait for the viewer's byte (it is attached) or its end. 0, or -1. */
static int viewer_ready(int fd, pid_t v)
{
	for (int i = 0; i < 600; i++) { /* 60 s */
		struct pollfd p = { fd, POLLIN, 0 };
		if (poll(&p, 1, 100) > 0) {
			char b;
			return read(fd, &b, 1) == 1 ? 0 : -1; /* 0: it ended first */
		}
		int status;
		if (waitpid(v, &status, WNOHANG) == v)
			return -1;
	}
	return -1;
}

/* Where CMD's output goes while the view has the screen; restored after. */
static int saved_fds[3] = { -1, -1, -1 };

static void cmd_output(const struct record_opts *o, const char *outdir)
{
	char log[PATH_MAX + 16];
	int fd;
	if (o->batch) { /* stdout holds the snapshots */
		saved_fds[1] = dup(1);
		dup2(2, 1);
		return;
	}
	if (!isatty(STDOUT_FILENO))
		return;
	if (o->output)
		snprintf(log, sizeof(log), "%s/command.log", outdir);
	fd = open(o->output ? log : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || in < 0)
		return;
	for (int i = 0; i < 3; i++)
		saved_fds[i] = dup(i);
	dup2(in, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	close(in);
}

static void cmd_output_restore(void)
{
	for (int i = 0; i < 3; i++)
		if (saved_fds[i] >= 0) {
			dup2(saved_fds[i], i);
			close(saved_fds[i]);
			saved_fds[i] = -1;
		}
}

int cmd_top(int argc, char **argv)
{
	struct record_opts o;
	int r = record_parse(argc, argv, &o, help, 2);
	if (r)
		return r > 0 ? 0 : ST_EXIT_FAILURE;
	if (o.session) {
		if (o.argv || o.output) {
			say("--session views a session that exists: no command, no -o");
			return ST_EXIT_FAILURE;
		}
		return view_session(&o);
	}
	if (o.relayd && o.output) {
		say("--relayd and -o: the trace is written by the relay daemon, on its host");
		return ST_EXIT_FAILURE;
	}
	if (o.max_size || o.keep_last) {
		say("--max-size and --keep-last are for 'synctrace record'");
		return ST_EXIT_FAILURE;
	}
	char demo[PATH_MAX];
	char *demo_argv[] = { demo, NULL };
	if (!o.argv) {
		if (find_demo(demo, sizeof(demo))) {
			say("the built-in demo synctrace-demo is not built");
			return ST_EXIT_FAILURE;
		}
		o.argv = demo_argv;
	}
	char lib[PATH_MAX], tp[PATH_MAX], name[128], dir[PATH_MAX] = "", url[1024], host[256];
	struct relay_addr relay;
	int created = 0, status = 0, rc = ST_EXIT_FAILURE, temp = 0;
	pid_t v = -1;
	if ((r = child_check(o.argv[0])))
		return r;
	if (find_libraries(lib, tp, sizeof(lib)))
		return ST_EXIT_FAILURE;
	signals_install();
	if (o.relayd) {
		if (relay_parse(o.relayd, &relay))
			return ST_EXIT_FAILURE;
	} else {
		if (o.output) {
			if (outdir_make(o.output, dir, sizeof(dir), &created))
				goto out;
		} else {
			const char *t = getenv("TMPDIR");
			snprintf(dir, sizeof(dir), "%s/synctrace-top-XXXXXX", t && *t ? t : "/tmp");
			if (!mkdtemp(dir)) {
				say("cannot make a folder for the relay daemon: %s", strerror(errno));
				return ST_EXIT_FAILURE;
			}
			temp = 1;
		}
		if (relayd_start(dir, &relay))
			goto out;
	}
	if (sessiond_ensure(o.quiet))
		goto out;
	snprintf(name, sizeof(name), "synctrace-top-%d-%ld", (int)getpid(), (long)time(NULL));
	if (session_setup_live(name, &relay, &o) || child_interrupted)
		goto destroy;
	host_name(host, sizeof(host));
	snprintf(url, sizeof(url), "net://%s:%d/host/%s/%s", relay.host, relay.live, host, name);
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC)) {
		say("pipe: %s", strerror(errno));
		goto destroy;
	}
	v = viewer_start(url, &o, pfd[1]);
	close(pfd[1]);
	if (v < 0 || viewer_ready(pfd[0], v)) {
		close(pfd[0]);
		if (v > 0 && !child_interrupted)
			say("the live view did not attach to %s", url);
		goto destroy;
	}
	close(pfd[0]);
	if (o.stacks && setenv("SYNCTRACE_STACKS", "1", 1))
		goto destroy;
	cmd_output(&o, dir);
	child_watch(v);
	status = child_run(o.argv, &o, lib, tp);
	child_watch(0);
	cmd_output_restore();
	rc = 0;
destroy:
	session_stop(name);
	session_destroy(name);
	if (v > 0) {
		int vr = viewer_wait(v);
		if (vr && !rc && !status) {
			say("the live view ended with status %d", vr);
			rc = ST_EXIT_FAILURE;
		}
	}
	sessiond_stop();
out:
	relayd_stop();
	if (temp && dir[0])
		nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	else if (created && rc)
		rmdir(dir);
	if (!rc && o.output && !o.quiet)
		say("trace: %s (command exit status %d)", dir, status);
	return rc ? rc : status;
}
