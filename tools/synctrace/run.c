/* synctrace run [OPTIONS] [-- CMD [ARGS...]]: record, then report. With no
 * command, the built-in demo (tools/synctrace-demo.c). */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "synctrace.h"

static void help(void)
{
	fputs("usage: synctrace run [OPTIONS] [-- CMD [ARGS...]]\n"
	      "Record CMD (as 'synctrace record') and print the report of its trace, debug\n"
	      "checks included (as 'synctrace report --checks'; exit_holding and lock_order\n"
	      "need --level full). With no CMD, run the built-in demo: the two-queue\n"
	      "workload of the 2003 NPTL condvar thread (one mutex + one condvar, then one\n"
	      "mutex per queue + a \"twomutex\" condvar) and a timed-wait race.\n"
	      "\n"
	      "  -o, --output DIR      trace folder (default: ./synctrace-YYYYmmdd-HHMMSS)\n"
	      "  -l, --level LEVEL     contention (default), full or summary\n"
	      "  -s, --spin STRATEGY   none, bail, full, N, bail:N or full:N\n"
	      "      --blocking[=USEC], --no-blocking  wait for buffer space (default: up to\n"
	      "                        100 ms per event) or discard (see 'synctrace record --help')\n"
	      "      --stacks          record call stacks (the report names call sites)\n"
	      "      --buffer-size SIZE, --max-size SIZE, --duration TIME, --keep-last SIZE,\n"
	      "      --warn-rate RATE  bound the recording (see 'synctrace record --help')\n"
	      "  -q, --quiet           no messages but errors, no progress indicator\n"
	      "      --format FORMAT   the report's: text, json, csv or html\n"
	      "      --sort KEY        the report's sort key (see 'synctrace report --help')\n"
	      "      --top N           the report's: only the first N rows of each table\n"
	      "      --by KEY          the report's grouping: class (default), object or site\n"
	      "      --all, --wide     the report's: rows without waiting; every table and column\n"
	      "  -h, --help            this help\n"
	      "\n"
	      "With --format json, csv or html the report alone is on standard output: CMD's\n"
	      "own standard output goes to standard error (so 'synctrace run --format json\n"
	      "-- CMD | jq' parses).\n"
	      "\n"
	      "Exit status: CMD's own when it is not 0 (128+N if killed by signal N, 127 not\n"
	      "found, 126 not executable); otherwise the report's (0 complete, 1 partial,\n"
	      "2 no usable input, 3 newer trace format); 125 synctrace failed (bad option,\n"
	      "output folder, LTTng, libraries, demo or analyzer not found).\n",
	      stdout);
}

int cmd_run(int argc, char **argv)
{
	struct record_opts o;
	int r = record_parse(argc, argv, &o, help, 1);
	if (r)
		return r > 0 ? 0 : ST_EXIT_FAILURE;
	char demo[PATH_MAX];
	char *demo_argv[] = { demo, NULL };
	if (!o.argv) {
		if (find_demo(demo, sizeof(demo))) {
			say("the built-in demo synctrace-demo is not built (looked beside %s, in %s and "
			    "in %s/synctrace)", self_dir(), ST_BUILD_TOOLS_DIR, ST_INSTALL_LIBEXECDIR);
			return ST_EXIT_FAILURE;
		}
		o.argv = demo_argv;
	}
	char dir[PATH_MAX];
	int status;
	/* A machine-read report must be alone on stdout: the command (which
	 * inherits fd 1) writes to stderr while it runs. */
	int machine = o.report_format && strcmp(o.report_format, "text");
	int saved = machine ? dup(1) : -1;
	if (machine && (saved < 0 || dup2(2, 1) < 0)) {
		say("cannot redirect the command's standard output");
		return ST_EXIT_FAILURE;
	}
	r = record_traced(&o, dir, sizeof(dir), &status);
	if (machine) {
		fflush(stdout);
		dup2(saved, 1);
		close(saved);
	}
	if (r)
		return r;
	if (!o.quiet)
		say("trace: %s (command exit status %d); its report:", dir, status);
	char *args[16] = { "report", "--checks" }; /* run is for finding bugs: checks on */
	int n = 2;
	for (int i = 0; i < o.nreport; i++)
		args[n++] = o.report_args[i];
	args[n++] = dir;
	args[n] = NULL;
	int rep = report_exec(args, 1);
	if (rep == ST_EXIT_FAILURE)
		say("the trace is in %s", dir);
	return status ? status : rep;
}
