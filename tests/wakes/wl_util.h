/* What the wake-ledger programs wait for: a thread asleep in the kernel
 * on a given futex word (its /proc syscall line), its id. */
#ifndef WL_UTIL_H
#define WL_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int wl_gettid(void)
{
	return (int)syscall(SYS_gettid);
}

/* Is thread tid of this process inside futex(word, ...) now? */
static inline int wl_in_futex_on(int tid, const void *word)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int ok = 0;
	if (fgets(line, sizeof(line), f)) {
		char *p;
		long nr = strtol(line, &p, 10);
		ok = p != line && nr == SYS_futex &&
		     strtoull(p, NULL, 16) == (unsigned long long)(uintptr_t)word;
	}
	fclose(f);
	return ok;
}

/* Until tid sleeps on word (a yield between looks, never a fixed sleep). */
static inline void wl_wait_asleep_on(int tid, const void *word)
{
	while (!wl_in_futex_on(tid, word))
		usleep(100);
}

#endif
