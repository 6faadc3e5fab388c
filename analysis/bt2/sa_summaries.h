/* synctrace-report's modes over summaries (summaries.c). */
#ifndef SA_SUMMARIES_H
#define SA_SUMMARIES_H

#include <sys/stat.h>

#include "sa_report_util.h"

enum sa_sum_mode {
	SA_SUM_REPORT, /* a report whose inputs include a summary file */
	SA_SUM_MERGE,  /* --merge: one summary of them all */
	SA_SUM_DIFF,   /* --diff BASE NEW */
};

/* Is some path a file (a summary), not a trace directory? */
int sa_summaries_any(char **paths, int n);
/* Run mode over paths (summary files or trace paths); returns the exit
 * status: 0; 1 (diff: a --fail-on tripped; else some input partial); 2
 * bad usage or input; 3 a trace of a newer format. */
int sa_summaries_run(enum sa_sum_mode mode, char **paths, int n, const struct sa_report_opts *o,
		     const char *outpath, const char *fail_on);

#endif
