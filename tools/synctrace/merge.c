/* synctrace merge SUMMARY... and synctrace diff BASE NEW: the analyzer
 * (synctrace-report --merge / --diff, analysis/bt2/summaries.c) with the
 * same arguments. doc/summaries.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synctrace.h"

static void help_merge(void)
{
	fputs("usage: synctrace merge [-o FILE] SUMMARY|TRACE...\n"
	      "Merge summaries ('synctrace report --format summary', or earlier merges;\n"
	      "a trace folder is summarized first) into one summary, exactly: the same\n"
	      "document one summary over all the traces gives. 'synctrace report' over the\n"
	      "result prints where threads wait.\n"
	      "\n"
	      "Exit status: 0 merged; 1 merged, some input partial; 2 an input is not a\n"
	      "summary (bad, truncated, foreign or newer JSON: named on stderr) or bad usage.\n",
	      stdout);
}

static void help_diff(void)
{
	fputs("usage: synctrace diff [--fail-on EXPR[,EXPR...]] [--format text|json|csv]\n"
	      "                      [--top N] [-o FILE] BASE NEW\n"
	      "Compare two traces or summaries per lock class: waiting, contention, wasted\n"
	      "and futile wakes before and after, ranked by the change of waiting, with new\n"
	      "and vanished classes.\n"
	      "  --fail-on '[CLASS:]METRIC>VALUE'  METRIC wait, p99, waits, contended,\n"
	      "      timeouts, wasted, futile; VALUE +20% (change relative to BASE), +5ms\n"
	      "      (change, NEW - BASE), 5ms (NEW's value); '<' too. No CLASS: the totals;\n"
	      "      CLASS: a class's name or key ('queue_lock:wait>+20%'); '*': any class.\n"
	      "\n"
	      "Exit status: 0 no threshold crossed; 1 a --fail-on threshold crossed; 2 bad\n"
	      "usage or input (a class that no summary has, a bad summary).\n",
	      stdout);
}

static int run(const char *mode, void (*help)(void), int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			help();
			return 0;
		}
	char **args = calloc((size_t)argc + 2, sizeof(char *));
	if (!args)
		return ST_EXIT_FAILURE;
	args[0] = argv[0];
	args[1] = (char *)mode;
	memcpy(args + 2, argv + 1, (size_t)(argc - 1) * sizeof(char *));
	return report_exec(args, 0);
}

int cmd_merge(int argc, char **argv)
{
	return run("--merge", help_merge, argc, argv);
}

int cmd_diff(int argc, char **argv)
{
	return run("--diff", help_diff, argc, argv);
}
