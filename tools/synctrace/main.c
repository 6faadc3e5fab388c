/* synctrace: record a program's synchronization with LTTng, report it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "synctrace.h"

void say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs(PROG ": ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void usage(FILE *f)
{
	fputs("usage: synctrace record [OPTIONS] -- CMD [ARGS...]\n"
	      "       synctrace report [--format text|json|csv|html] [--sort KEY] [--top N] TRACE...\n"
	      "       synctrace run [OPTIONS] [-- CMD [ARGS...]]\n"
	      "       synctrace merge SUMMARY|TRACE... > all.json\n"
	      "       synctrace diff [--fail-on EXPR] BASE NEW\n"
	      "       synctrace top [OPTIONS] [--session NAME | -- CMD [ARGS...]]\n"
	      "       synctrace help | --help | --version\n"
	      "\n"
	      "  record  run CMD with synctrace preloaded and record an LTTng trace of it\n"
	      "  report  analyse traces (runs synctrace-report)\n"
	      "  run     record, then report; with no CMD, the built-in demo\n"
	      "  merge   merge summaries (report --format summary) exactly\n"
	      "  diff    compare two traces or summaries per lock class; --fail-on for CI\n"
	      "  top     a live view of where threads wait, through a relay daemon\n"
	      "\n"
	      "'synctrace SUBCOMMAND --help' shows each one's options and exit statuses.\n"
	      "See synctrace(1).\n",
	      f);
}

int main(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL;
	if (!sub) {
		usage(stderr);
		return ST_EXIT_FAILURE;
	}
	if (!strcmp(sub, "record"))
		return cmd_record(argc - 1, argv + 1);
	if (!strcmp(sub, "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(sub, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(sub, "merge"))
		return cmd_merge(argc - 1, argv + 1);
	if (!strcmp(sub, "diff"))
		return cmd_diff(argc - 1, argv + 1);
	if (!strcmp(sub, "top"))
		return cmd_top(argc - 1, argv + 1);
	if (!strcmp(sub, "help") || !strcmp(sub, "--help") || !strcmp(sub, "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(sub, "--version")) {
		puts("synctrace " ST_VERSION);
		return 0;
	}
	say("unknown subcommand '%s'", sub);
	usage(stderr);
	return ST_EXIT_FAILURE;
}
