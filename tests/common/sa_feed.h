/* Tests of the analyzer: feed the model one synthetic event (id, time,
 * pid, tid, then name/value pairs ended by NULL), as the decoder would. */
#ifndef SA_TEST_FEED_H
#define SA_TEST_FEED_H

#include <stdarg.h>
#include <string.h>

#include "sa_model.h"

#define I(v) ((int64_t)(v))

static inline int sa_test_feed(struct sa_model *model, enum sa_event_id id, int64_t ts, int pid,
			       int tid, ...)
{
	struct sa_event e;
	va_list ap;
	memset(&e, 0, sizeof(e));
	e.id = id;
	e.ts = ts;
	e.vpid = pid;
	e.vtid = tid;
	e.procname = "prog";
	va_start(ap, tid);
	for (const char *n; (n = va_arg(ap, const char *));)
		sa_ev_set(&e, n, va_arg(ap, int64_t));
	va_end(ap);
	return sa_model_feed(model, &e);
}

#endif
