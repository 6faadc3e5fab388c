/* synctrace report [OPTIONS] TRACE...: the analyzer (analysis/, its own
 * program synctrace-report) run with the same arguments. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "synctrace.h"

static void help(void)
{
	fputs("usage: synctrace report [--format text|json|csv|html|summary|folded|pprof|chrome]\n"
	      "                        [--sample KIND] [--sort KEY] [--top N] [--window S,E]\n"
	      "                        [--by class|object|site] [--all] [--wide] [--checks]\n"
	      "                        [--at TIME] [-o FILE] TRACE...\n"
	      "Analyse synctrace recordings (folders written by 'synctrace record', or any\n"
	      "folder holding them) and print the reports. The options are the analyzer's,\n"
	      "synctrace-report's (its own help follows when it is built). A TRACE that is a\n"
	      "file is read as a summary (--format summary, 'synctrace merge'). A hung\n"
	      "program: 'synctrace record -- CMD', Ctrl-C when it hangs, then 'synctrace\n"
	      "report': the waits nothing can end come first, explained (doc/hangs.md).\n"
	      "\n"
	      "Exit status: 0 report complete; 1 partial (some input unusable); 2 no usable\n"
	      "input or bad usage; 3 a trace of a newer format; 125 the analyzer is not\n"
	      "built or cannot be run.\n",
	      stdout);
}

static int analyzer_missing(void)
{
	say("the analyzer synctrace-report is not built (looked in %s, beside %s and in %s); "
	    "build the project (cmake --build BUILD)",
	    ST_BUILD_REPORT, self_dir(), ST_INSTALL_BINDIR);
	return ST_EXIT_FAILURE;
}

/* args[0] is replaced by the analyzer's path. Waits for it (its status
 * returned) or becomes it. */
int report_exec(char **args, int wait_for_it)
{
	char path[PATH_MAX];
	if (find_analyzer(path, sizeof(path)))
		return analyzer_missing();
	args[0] = path;
	fflush(NULL);
	if (!wait_for_it) {
		execv(path, args);
		say("cannot run %s: %s", path, strerror(errno));
		return ST_EXIT_FAILURE;
	}
	pid_t p = fork();
	if (p < 0) {
		say("fork: %s", strerror(errno));
		return ST_EXIT_FAILURE;
	}
	if (p == 0) {
		execv(path, args);
		say("cannot run %s: %s", path, strerror(errno));
		_exit(ST_EXIT_FAILURE);
	}
	int status;
	while (waitpid(p, &status, 0) < 0)
		if (errno != EINTR)
			return ST_EXIT_FAILURE;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int cmd_report(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			help();
			char path[PATH_MAX];
			if (find_analyzer(path, sizeof(path)))
				return 0;
			char *args[] = { path, "--help", NULL };
			puts("");
			report_exec(args, 1);
			return 0;
		}
	}
	char **args = calloc((size_t)argc + 1, sizeof(char *));
	if (!args)
		return ST_EXIT_FAILURE;
	memcpy(args, argv, (size_t)argc * sizeof(char *));
	return report_exec(args, 0);
}
