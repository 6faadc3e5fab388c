/* Process-shared objects: the shared mapping holding one is announced
 * (meta:mapping) before its first event in a process (shared.c). */
#ifndef ST_SHARED_H
#define ST_SHARED_H

#include "st_probes.h"

/* Called by the probe library's constructor after st_stacks_install:
 * wraps the entries of `t` that shared.c lists. */
void st_shared_install(struct st_probes *t);

#endif
