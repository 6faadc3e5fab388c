/* SYNCTRACE_* settings.
 *
 *   SYNCTRACE_SPIN   none | bail | full | N | bail:N | full:N
 *                    spin strategy before a futex sleep, and its budget in
 *                    pauses (default bail:100; see README "Spin default").
 *                    Hand-off waits (semaphores, barriers) spin ten times
 *                    that, adaptively (src/wait/wait.h). Values: one
 *                    parser, src/setting/setting.c.
 *   SYNCTRACE_SPIN_MUTEXES  all (default) | adaptive
 *                    which mutexes spin before they sleep: every type, or
 *                    only PTHREAD_MUTEX_ADAPTIVE_NP ones, as in glibc
 *                    (config.h; doc/spin.md "Which mutexes spin").
 *   SYNCTRACE_SPIN_CROWD  on | off
 *                    on: no spin while more threads are runnable than
 *                    there are CPUs, or after a spin was descheduled
 *                    (src/wait/crowd.h, doc/spin.md); off: spin anyway.
 *                    Default: on, off with an explicit SYNCTRACE_SPIN (a
 *                    strategy asked for is the strategy run).
 *   SYNCTRACE_LEVEL  contention (default) | full | summary   (when tracing)
 *                    summary: per-thread aggregates, no event per
 *                    transition (src/trace/summary.h)
 *   SYNCTRACE_SEM_MAX  init | N | init:N | off   (debug check, default off)
 *                    sem_post reports (synctrace_sem:misuse) a value above
 *                    the semaphore's initial value (init), above N, or
 *                    above the initial value where sem_init gave one and
 *                    N elsewhere (init:N; sem_open'ed semaphores).
 *   SYNCTRACE_THRESHOLD  DURATION (100us, 2ms, 1s; 0 off, the default)
 *                    contention level: a wait (mutex, semaphore, rwlock,
 *                    barrier, condvar) shorter than it is aggregated
 *                    (src/trace/summary.h), not recorded; the longer
 *                    ones are recorded event by event
 *                    (tracepoints/batch.c holds a wait's records until it
 *                    ends). Needs batching (SYNCTRACE_BATCH, default on).
 *   SYNCTRACE_SUMMARY_BUCKETS  1..64 (default 64)
 *                    summary level: distinct buckets a histogram of a
 *                    thread's table keeps before the object's aggregates
 *                    go out and start again (the numbers stay the same;
 *                    fewer: more synctrace_summary events). A check of that
 *                    path (tests/summary), not a tuning knob.
 *   SYNCTRACE_CLOCK  auto (default) | monotonic | counter
 *                    the clock of durations (waits, spins, sleeps, holds):
 *                    auto reads the time-stamp counter where it is
 *                    invariant and the kernel's own clocksource (~11 ns a
 *                    read here against ~25), else CLOCK_MONOTONIC;
 *                    monotonic reads CLOCK_MONOTONIC always
 *                    (src/internal/clock.h).
 *   SYNCTRACE_TRACE  1: load libsynctrace-tp.so (and so liblttng-ust) at
 *                    start and trace into the active session.
 *   SYNCTRACE_TEST_CLOCKSOURCE  DIR (a test's, not a setting)
 *                    the clocksource files are read from DIR
 *                    (current_clocksource, available_clocksource) instead
 *                    of sysfs: a test on a machine whose kernel keeps time
 *                    with the counter tells the library it is distrusted,
 *                    so the per-CPU paths run wherever the tests do
 *                    (tests/trace record_clock, clock_said).
 *
 * A value that does not parse is reported once on stderr and ignored. */
#include "config.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/clock.h"
#include "internal/trace.h"
#include "setting/setting.h"
#include "trace/ready.h"
#include "tracer_keys.h"

int st_spin_mode = ST_SPIN_MODE_BAIL;
int st_spin_limit = 100;
int st_spin_all_mutexes = 1;
int st_spin_crowd = 1;
int st_level = ST_META_LEVEL_CONTENTION;
int st_sem_max_mode = ST_META_SEM_MAX_OFF;
int st_sem_max = -1;
long long st_threshold_ns = 0;
int st_summary_buckets = ST_SUMMARY_BUCKETS_MAX;
int st_summary_lives = 1;

void st_config_load(void)
{
	static int loaded;
	const char *s;

	if (loaded)
		return;
	loaded = 1;
	if ((s = getenv("SYNCTRACE_SPIN")) && *s) {
		int mode = st_spin_mode, limit = st_spin_limit;
		if (st_parse_spin(s, &mode, &limit))
			fprintf(stderr, "synctrace: SYNCTRACE_SPIN=%s is not none, bail, full, "
					"a count or MODE:COUNT; keeping the default\n", s);
		else
			st_spin_mode = mode, st_spin_limit = limit, st_spin_crowd = 0;
	}
	if ((s = getenv("SYNCTRACE_SPIN_CROWD")) && *s) {
		if (!strcmp(s, "off") || !strcmp(s, "on"))
			st_spin_crowd = s[1] == 'n';
		else
			fprintf(stderr, "synctrace: SYNCTRACE_SPIN_CROWD=%s is not on or off; "
					"keeping on\n", s);
	}
	if ((s = getenv("SYNCTRACE_SPIN_MUTEXES")) && *s) {
		if (!strcmp(s, "all") || !strcmp(s, "adaptive"))
			st_spin_all_mutexes = !strcmp(s, "all");
		else
			fprintf(stderr, "synctrace: SYNCTRACE_SPIN_MUTEXES=%s is not all or "
					"adaptive; keeping all\n", s);
	}
	if ((s = getenv("SYNCTRACE_SEM_MAX")) && *s) {
		int mode = st_sem_max_mode, limit = st_sem_max;
		if (st_parse_sem_max(s, &mode, &limit))
			fprintf(stderr, "synctrace: SYNCTRACE_SEM_MAX=%s is not init, a count, "
					"init:COUNT or off; not checking\n", s);
		else
			st_sem_max_mode = mode, st_sem_max = limit;
	}
	if ((s = getenv("SYNCTRACE_THRESHOLD")) && *s) {
		if (st_parse_duration_ns(s, &st_threshold_ns))
			fprintf(stderr, "synctrace: SYNCTRACE_THRESHOLD=%s is not a duration "
					"(100us, 2ms, 1s); recording every wait\n", s);
	}
	if ((s = getenv("SYNCTRACE_SUMMARY_BUCKETS")) && *s) {
		if (st_parse_summary_buckets(s, ST_SUMMARY_BUCKETS_MAX, &st_summary_buckets))
			fprintf(stderr, "synctrace: SYNCTRACE_SUMMARY_BUCKETS=%s is not 1 to %d; "
					"keeping %d\n", s, ST_SUMMARY_BUCKETS_MAX, ST_SUMMARY_BUCKETS_MAX);
	}
	/* With creation stacks (tracepoints/stacks.c) the analyzer's class of
	 * an object is its init site and its stack, which the summary level
	 * does not see: its lives are not folded by site (trace/summary.c). */
	if ((s = getenv("SYNCTRACE_STACKS")) && !strcmp(s, "1"))
		st_summary_lives = 0;
	if ((s = getenv("SYNCTRACE_CLOCK")) && *s) {
		if (st_parse_clock(s, &st_clock_tsc_allowed))
			fprintf(stderr, "synctrace: SYNCTRACE_CLOCK=%s is not auto, "
					"monotonic or counter; keeping auto\n", s);
	}
	if ((s = getenv("SYNCTRACE_LEVEL")) && *s) {
		if (st_parse_level(s, &st_level))
			fprintf(stderr, "synctrace: SYNCTRACE_LEVEL=%s is not contention, "
					"full or summary; keeping contention\n", s);
	}
	if ((s = getenv("SYNCTRACE_TEST_CLOCKSOURCE")) && *s) {
		static char cur[PATH_MAX], avail[PATH_MAX];
		snprintf(cur, sizeof cur, "%s/current_clocksource", s);
		snprintf(avail, sizeof avail, "%s/available_clocksource", s);
		st_clock_source_path = cur;
		st_clock_available_path = avail;
	}
	/* Every level's durations may read the counter per CPU where the
	 * kernel distrusts it (internal/clock.h); the records anchor each
	 * CPU's on their own (tracepoints/batch.h). */
	st_clock_percpu_allowed = 1;
}

/* SYNCTRACE_TRACE=1: load the probes from beside this library. */
static void load_probes(void)
{
	Dl_info info;
	char path[4096];
	const char *slash;

	if (!dladdr((void *)load_probes, &info) || !info.dli_fname ||
	    !(slash = strrchr(info.dli_fname, '/'))) {
		fprintf(stderr, "synctrace: cannot locate libsynctrace.so to load its probes\n");
		return;
	}
	snprintf(path, sizeof(path), "%.*s/libsynctrace-tp.so",
		 (int)(slash - info.dli_fname), info.dli_fname);
	/* liblttng-ust's constructor waits (3 s by default) for its thread to
	 * register with the session daemon; that thread needs the loader lock
	 * this dlopen holds, so the wait can only time out. It is skipped
	 * (trace/ready.h; not by LTTNG_UST_REGISTER_TIMEOUT=0, which would cut
	 * lttng-ust's notify socket timeout to 10 ms for the process's life);
	 * the registration completes once dlopen returns (synctrace_meta:start
	 * is emitted before the first event recorded after that). */
	__atomic_store_n(&st_ready_loading, 1, __ATOMIC_RELAXED);
	/* lttng-ust's keys go just below ST_KEY_TOP (tracer_keys.h). */
	pthread_key_t low[ST_KEY_TOP + 1];
	int err, nlow = st_keys_hold(pthread_key_create, low, ST_KEY_TOP - 3, 0, &err);
	if (!dlopen(path, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE))
		fprintf(stderr, "synctrace: SYNCTRACE_TRACE=1 but %s\n", dlerror());
	while (nlow > 0)
		pthread_key_delete(low[--nlow]);
	__atomic_store_n(&st_ready_loading, 0, __ATOMIC_RELAXED);
}

__attribute__((constructor)) static void st_config_init(void)
{
	const char *t;

	st_config_load();
	if ((t = getenv("SYNCTRACE_TRACE")) && !strcmp(t, "1") && !st_probes_in)
		load_probes();
}
