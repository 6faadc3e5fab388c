/* synctrace diff BASE NEW (diff.c, doc/summaries.md): per lock class,
 * waiting, contention, wasted and futile wakes before and after, ranked
 * by the change of waiting, with new and vanished classes; --fail-on
 * expressions for CI. */
#ifndef SA_DIFF_H
#define SA_DIFF_H

#include <stdio.h>

#include "sa_summary.h"
#include "sa_table.h"

struct sa_diff_opts {
	enum sa_format format;     /* text, json or csv */
	const char *base_name, *new_name;
	const char *fail_on;       /* NULL: none */
	unsigned top;              /* text: at most this many class rows (0: all) */
};

/* Check a --fail-on list without summaries (its syntax): 0, or -1 with
 * the reason in err. */
int sa_diff_check(const char *fail_on, char *err, size_t errlen);
/* Write the diff. 0: nothing tripped; 1: some --fail-on expression
 * tripped; 2: an expression names a class neither summary has (err). */
int sa_diff_run(const struct sa_summary *base, const struct sa_summary *new_,
		const struct sa_diff_opts *o, FILE *out, char *err, size_t errlen);

#endif
