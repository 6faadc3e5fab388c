/* synctrace-report over summaries: --merge, --diff, and a report whose
 * inputs include a summary file (sa_summary.h). A trace directory given
 * among them is summarized first by this same program in a child
 * (--format summary into a temporary file), so it goes through the guard
 * like any report; summaries of traces merge exactly, so the result is
 * the one a single report over all the traces would give. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sa_diff.h"
#include "sa_summaries.h"

#define PROG "synctrace-report"

/* A trace path's summary, made by this program in a child. 0, or the
 * exit status to give (2; 3 for a newer format). */
static int summarize_trace(const char *path, struct sa_summary *s)
{
	const char *dir = getenv("TMPDIR");
	char tmp[4096], err[512];
	snprintf(tmp, sizeof(tmp), "%s/synctrace-summary.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, PROG ": a temporary file in %s: %s\n", dir && *dir ? dir : "/tmp",
			strerror(errno));
		return 2;
	}
	close(fd);
	fflush(NULL);
	pid_t p = fork();
	if (p == 0) {
		char *args[] = { PROG, "--format", "summary", "-o", tmp, (char *)path, NULL };
		execv("/proc/self/exe", args);
		fprintf(stderr, PROG ": cannot run itself: %s\n", strerror(errno));
		_exit(2);
	}
	int status = 0;
	while (p > 0 && waitpid(p, &status, 0) < 0 && errno == EINTR)
		;
	int rc = p < 0 || !WIFEXITED(status) ? 2 : WEXITSTATUS(status);
	if (rc <= 1 && sa_summary_read(tmp, s, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s: its summary: %s\n", path, err);
		rc = 2;
	}
	unlink(tmp);
	return rc <= 1 ? 0 : rc;
}

static int is_file(const char *path)
{
	struct stat sb;
	return !stat(path, &sb) && !S_ISDIR(sb.st_mode);
}

int sa_summaries_any(char **paths, int n)
{
	for (int i = 0; i < n; i++)
		if (is_file(paths[i]))
			return 1;
	return 0;
}

/* A summary file or a trace path. 0 or the exit status. */
static int load(const char *path, struct sa_summary *s)
{
	char err[512];
	if (access(path, F_OK)) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (!is_file(path))
		return summarize_trace(path, s);
	if (sa_summary_read(path, s, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s (a path is a trace directory, or a directory holding "
				"traces, or a summary file: --format summary)\n", err);
		return 2;
	}
	return 0;
}

/* All of paths merged into *s. */
static int load_all(char **paths, int n, struct sa_summary *s)
{
	int rc = load(paths[0], s);
	for (int i = 1; !rc && i < n; i++) {
		struct sa_summary x;
		if (!(rc = load(paths[i], &x)) && sa_summary_merge(s, &x)) {
			fprintf(stderr, PROG ": out of memory merging %s\n", paths[i]);
			rc = 2;
		}
	}
	if (rc)
		sa_summary_free(s);
	return rc;
}

static FILE *open_out(const char *outpath)
{
	FILE *out = outpath ? fopen(outpath, "w") : stdout;
	if (!out)
		fprintf(stderr, PROG ": %s: %s\n", outpath, strerror(errno));
	return out;
}

static int close_out(FILE *out, int rc)
{
	if (ferror(out) || (out != stdout && fclose(out))) {
		fprintf(stderr, PROG ": writing the output failed\n");
		return 2;
	}
	return rc;
}

int sa_summaries_run(enum sa_sum_mode mode, char **paths, int n, const struct sa_report_opts *o,
		     const char *outpath, const char *fail_on)
{
	char err[600];
	struct sa_summary s, b;
	int rc;
	if (mode == SA_SUM_DIFF) {
		if (n != 2) {
			fprintf(stderr, PROG ": --diff wants BASE and NEW (traces or summaries)\n");
			return 2;
		}
		if (o->format != SA_FMT_TEXT && o->format != SA_FMT_JSON && o->format != SA_FMT_CSV) {
			fprintf(stderr, PROG ": --diff writes text, json or csv\n");
			return 2;
		}
		if (fail_on && sa_diff_check(fail_on, err, sizeof(err))) {
			fprintf(stderr, PROG ": %s\n", err);
			return 2;
		}
		if ((rc = load(paths[0], &b)))
			return rc;
		if ((rc = load(paths[1], &s))) {
			sa_summary_free(&b);
			return rc;
		}
		FILE *out = open_out(outpath);
		struct sa_diff_opts d = { o->format, paths[0], paths[1], fail_on, o->top };
		rc = out ? sa_diff_run(&b, &s, &d, out, err, sizeof(err)) : 2;
		if (rc == 2 && out)
			fprintf(stderr, PROG ": %s\n", err);
		if (out)
			rc = close_out(out, rc);
		sa_summary_free(&b);
		sa_summary_free(&s);
		return rc;
	}
	if (mode == SA_SUM_REPORT && o->format != SA_FMT_TEXT && o->format != SA_FMT_JSON &&
	    o->format != SA_FMT_CSV && o->format != SA_FMT_SUMMARY) {
		fprintf(stderr, PROG ": a report over summaries is text, json, csv or summary (the "
				"other formats need the traces)\n");
		return 2;
	}
	if ((rc = load_all(paths, n, &s)))
		return rc;
	FILE *out = open_out(outpath);
	if (!out) {
		sa_summary_free(&s);
		return 2;
	}
	if (mode == SA_SUM_MERGE || o->format == SA_FMT_SUMMARY)
		sa_summary_write(&s, out);
	else
		sa_summary_report(&s, o, out);
	rc = close_out(out, s.partial ? 1 : 0);
	sa_summary_free(&s);
	return rc;
}
