/* The findings table and the API other report files use to add findings
 * of their own kind (each in its own file, called from sa_findings_build in
 * rank order). A finding is one row: its kind, the object's identity
 * columns (sa_id_fill), the numbers in the columns below, and one sentence
 * said with sa_finding_say into the text column. */
#ifndef SA_FINDINGS_H
#define SA_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "sa_report.h"
#include "sa_table.h"

enum {
	SA_FND_RANK, SA_FND_KIND, SA_FND_WAIT_KIND, SA_FND_ID, SA_FND_SHARE = SA_FND_ID + SA_ID_N, SA_FND_WAITS, SA_FND_CONT, SA_FND_TIMEOUTS,
	SA_FND_WAIT, SA_FND_MEAN, SA_FND_COUNT, SA_FND_OF, SA_FND_BY_TID, SA_FND_BY_THREAD, SA_FND_BY_SITE, SA_FND_PER_HOLD, SA_FND_CAUSED,
	SA_FND_VERDICT, SA_FND_TRY, SA_FND_TEXT, SA_FND_IDLE, SA_FND_N
};

struct sa_fb {
	const struct sa_model *m;
	struct sa_table *t;
	char text[1024];
	size_t len;
};

/* A new finding row of this kind (NULL when out of memory): set its cells,
 * say its sentence, then sa_finding_done. */
struct sa_cell *sa_finding_row(struct sa_fb *f, const char *kind);
void sa_finding_say(struct sa_fb *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Says "mutex `queue_lock` (queue.c:41)". */
void sa_finding_object(struct sa_fb *f, uint32_t obj);
void sa_finding_done(struct sa_fb *f, struct sa_cell *c);

/* The kinds that live in their own files, in the order they rank. */
void sa_findings_hang(struct sa_fb *f, const struct sa_report_opts *o); /* find_hang.c */
void sa_findings_wakes(struct sa_fb *f);      /* find_wakes.c: the wake-outcome ledger */
void sa_findings_spin_plan(struct sa_fb *f);  /* find_spin_plan.c: what-if spin replay */

#endif
