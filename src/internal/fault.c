/* SYNCTRACE_FAULTS (see fault.h): compiled only with ST_FAULTS. */
#ifdef ST_FAULTS
#include "fault.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "tls.h"

/* Percentages; -1 until SYNCTRACE_FAULTS has been read (racy first reads
 * parse it twice, to the same values). */
static int pct[ST_FAULT_N] = { -1, -1, -1 };
static __thread unsigned rng __attribute__((tls_model("initial-exec")));

static void load(void)
{
	static const char *names[ST_FAULT_N] = { "spurious", "eintr", "delay" };
	int v[ST_FAULT_N] = { 0, 0, 0 };
	const char *s = getenv("SYNCTRACE_FAULTS");

	while (s && *s) {
		const char *colon = strchr(s, ':'), *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		int ok = 0;
		if (colon && colon < s + len) {
			for (int i = 0; i < ST_FAULT_N; i++) {
				if (strlen(names[i]) == (size_t)(colon - s) &&
				    !strncmp(s, names[i], (size_t)(colon - s))) {
					int p = atoi(colon + 1);
					v[i] = p < 0 ? 0 : p > 100 ? 100 : p;
					ok = 1;
				}
			}
		}
		if (!ok)
			fprintf(stderr, "synctrace: SYNCTRACE_FAULTS: cannot parse '%.*s'\n",
				(int)len, s);
		s = comma ? comma + 1 : 0;
	}
	for (int i = 0; i < ST_FAULT_N; i++)
		st_store_relaxed(&pct[i], v[i]);
}

/* xorshift32, per thread, seeded from the tid. */
static unsigned next(void)
{
	unsigned x = rng;
	if (!x)
		x = 2463534242u ^ (unsigned)st_tid() * 2654435761u;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	rng = x;
	return x;
}

int st_fault(enum st_fault f)
{
	int p = st_load_relaxed(&pct[f]);
	if (p < 0) {
		load();
		p = st_load_relaxed(&pct[f]);
	}
	return p > 0 && (int)(next() % 100) < p;
}

void st_fault_delay(void)
{
	if (!st_fault(ST_FAULT_DELAY))
		return;
	unsigned r = next();
	if (r & 3) {
		sched_yield();
	} else {
		/* The raw system call: glibc's nanosleep is a cancellation
		 * point, and a hook must never be one (most sit outside the
		 * cancellable window of a wait). */
		struct timespec d = { 0, 1000 + (long)(r >> 8) % 50000 }; /* 1-51 us */
		syscall(SYS_nanosleep, &d, 0);
	}
}
#endif
