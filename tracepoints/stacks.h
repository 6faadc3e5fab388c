/* Call stacks (SYNCTRACE_STACKS=1), captured inside libsynctrace-tp.so so
 * that libsynctrace.so never links or maps libunwind. */
#ifndef ST_STACKS_H
#define ST_STACKS_H

#include "st_probes.h"

/* Called by the probe library's constructor before it registers `t`: when
 * SYNCTRACE_STACKS=1 and libunwind loads, the slow-path entries of `t`
 * listed in stacks.c are replaced by wrappers that emit stack:frames (once
 * per distinct stack) and stack:use before calling the original probe.
 * Returns 1 if stacks are on, else 0 (t unchanged). */
int st_stacks_install(struct st_probes *t);

#endif
