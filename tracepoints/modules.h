/* The loaded objects, for meta:module (modules.c). */
#ifndef ST_MODULES_H
#define ST_MODULES_H

#include <stdint.h>

#define ST_BUILD_ID_MAX 64
#define ST_MODULE_PATH_MAX 512 /* a longer path is cut */

struct st_module {
	uint64_t baddr, memsz;
	const char *path;
	uint8_t build_id[ST_BUILD_ID_MAX];
	unsigned nbuild_id;
};

/* Calls emit for each loaded object: all of them (all = 1: the first with
 * first = 1, and the emitted set starts over), or those not emitted yet.
 * Not on a primitive's path: it takes the dynamic linker's lock. Returns
 * how many were emitted. */
int st_modules_each(int all, void (*emit)(const struct st_module *m, int first));

/* In a child of fork(), before its first event. */
void st_modules_forked(void);

#endif
