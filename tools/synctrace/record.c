/* synctrace record [OPTIONS] -- CMD [ARGS...] */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "synctrace.h"

static void help(void)
{
	fputs("usage: synctrace record [OPTIONS] -- CMD [ARGS...]\n"
	      "Run CMD with libsynctrace.so and its probes preloaded (with lttng-ust's fork\n"
	      "and dl helpers, so forked children are traced too) and record an LTTng trace.\n"
	      "Uses the running LTTng session daemon, or starts (and afterwards stops) a\n"
	      "private one. Ctrl-C is passed to CMD, a second Ctrl-C kills it (SIGKILL);\n"
	      "the trace is kept.\n"
	      "\n"
	      "  -o, --output DIR      trace folder (created; must be new or empty);\n"
	      "                        default: ./synctrace-YYYYmmdd-HHMMSS\n"
	      "  -l, --level LEVEL     contention (default: events on slow paths only) or\n"
	      "                        full (also every uncontended lock/unlock pair) or\n"
	      "                        summary (per-thread aggregates: no event per wait)\n"
	      "  -s, --spin STRATEGY   none, bail, full, N, bail:N or full:N (SYNCTRACE_SPIN)\n"
	      "      --blocking[=USEC] when the buffers are full the program waits for space\n"
	      "                        (LTTNG_UST_ALLOW_BLOCKING=1), at most USEC per event\n"
	      "                        (default: 100000; --blocking alone: as long as it takes)\n"
	      "      --no-blocking     never wait: events that find the buffers full are\n"
	      "                        discarded (and counted in the report)\n"
	      "      --stacks          record call stacks at first use and on contended\n"
	      "                        paths (SYNCTRACE_STACKS=1; the report names call sites)\n"
	      "      --buffer-size SIZE  channel buffer per CPU (default 8M; each process\n"
	      "                        maps it: larger costs every process more to start)\n"
	      "      --max-size SIZE   stop recording when the trace reaches SIZE (64M, 1G);\n"
	      "                        the command runs on, untraced, and the report says so\n"
	      "      --duration TIME   stop recording after TIME (30s, 500ms, 2m)\n"
	      "      --keep-last SIZE  rotate: keep about the last SIZE of the trace (servers)\n"
	      "      --threshold TIME  record only the waits that last TIME (100us, 2ms);\n"
	      "                        count the shorter ones in summaries (SYNCTRACE_THRESHOLD)\n"
	      "      --clock CLOCK     what durations are timed with (SYNCTRACE_CLOCK): auto\n"
	      "                        (the CPU's counter where the kernel trusts it, or per\n"
	      "                        CPU at the summary level, else CLOCK_MONOTONIC),\n"
	      "                        counter (the counter wherever it is invariant:\n"
	      "                        cheaper on VMs; you vouch the CPUs agree)\n"
	      "                        or monotonic; the report's Processes table says which\n"
	      "      --warn-rate RATE  warn once when the trace grows faster than RATE bytes/s\n"
	      "                        (default 64M; 0: never)\n"
	      "      --relayd URL      stream the trace, live, to the relay daemon at URL\n"
	      "                        (net://HOST[:CONTROL_PORT[:DATA_PORT]]; it writes the\n"
	      "                        trace under its output folder, HOSTNAME/SESSION-DATE)\n"
	      "  -q, --quiet           no messages but errors, no progress indicator\n"
	      "  -h, --help            this help\n"
	      "\n"
	      "Exit status: CMD's own; 128+N if CMD was killed by signal N; 127 CMD not\n"
	      "found; 126 CMD not executable; 125 synctrace failed (bad option, output\n"
	      "folder, LTTng, libraries not found).\n",
	      stdout);
}

/* Everything but the report: 0 when CMD ran (its status in *status), else
 * the exit status to return. */
int record_traced(const struct record_opts *o, char *dir, size_t size, int *status)
{
	char lib[PATH_MAX], tp[PATH_MAX], name[128];
	int created = 0, r = child_check(o->argv[0]);
	if (r)
		return r;
	if (find_libraries(lib, tp, sizeof(lib)))
		return ST_EXIT_FAILURE;
	signals_install();
	struct relay_addr relay;
	if (o->relayd) {
		if (o->output) {
			say("--relayd and -o: the trace is written by the relay daemon, on its host");
			return ST_EXIT_FAILURE;
		}
		if (o->max_size || o->keep_last) {
			say("--max-size and --keep-last bound a local trace folder: not with --relayd");
			return ST_EXIT_FAILURE;
		}
		if (relay_parse(o->relayd, &relay))
			return ST_EXIT_FAILURE;
		snprintf(dir, size, "sent to the relay daemon at %s:%d", relay.host, relay.ctrl);
	} else if (outdir_make(o->output, dir, size, &created)) {
		if (created)
			rmdir(dir);
		return ST_EXIT_FAILURE;
	}
	if (sessiond_ensure(o->quiet)) {
		if (created)
			rmdir(dir);
		return ST_EXIT_FAILURE;
	}
	snprintf(name, sizeof(name), "synctrace-%d-%ld", (int)getpid(), (long)time(NULL));
	if ((o->relayd ? session_setup_live(name, &relay, o) : session_setup(name, dir, o)) ||
	    child_interrupted) {
		session_destroy(name);
		sessiond_stop();
		if (created)
			rmdir(dir);
		return child_interrupted ? 128 + child_interrupted : ST_EXIT_FAILURE;
	}
	/* Inherited by the command (synctrace_* already covers synctrace_stack). */
	if (o->stacks && setenv("SYNCTRACE_STACKS", "1", 1)) {
		say("cannot set SYNCTRACE_STACKS");
		session_destroy(name);
		sessiond_stop();
		return ST_EXIT_FAILURE;
	}
	limits_start(o, name, dir);
	*status = child_run(o->argv, o, lib, tp);
	session_stop(name);
	session_destroy(name);
	sessiond_stop();
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o;
	int r = record_parse(argc, argv, &o, help, 0);
	if (r)
		return r > 0 ? 0 : ST_EXIT_FAILURE;
	if (!o.argv) {
		say("record needs a command: synctrace record [OPTIONS] -- CMD [ARGS...]");
		return ST_EXIT_FAILURE;
	}
	char dir[PATH_MAX];
	int status;
	r = record_traced(&o, dir, sizeof(dir), &status);
	if (r)
		return r;
	if (!o.quiet)
		say("trace: %s (command exit status %d)", dir, status);
	return status;
}
