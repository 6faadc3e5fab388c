/* The parsers of the SYNCTRACE_* values: one per setting, shared by the
 * library (config.c reads the environment) and the synctrace command
 * (tools/synctrace/options.c checks its options before a trace is made
 * for nothing). Pure functions of libc: the command compiles setting.c in.
 * Each returns 0 with the value stored, or -1 (nothing stored) if s is not
 * a value of the setting. A COUNT is decimal digits only, 0..INT_MAX. */
#ifndef ST_SETTING_H
#define ST_SETTING_H

/* SYNCTRACE_SPIN: MODE, COUNT or MODE:COUNT, MODE one of the names of
 * enum st_spin_mode (none, bail, full). A bare COUNT is bail:COUNT, or
 * none for 0; a bare MODE leaves *limit as it is. */
int st_parse_spin(const char *s, int *mode, int *limit);

/* SYNCTRACE_SEM_MAX: off, init, COUNT or init:COUNT, into the bits of
 * enum st_meta_sem_max and the limit (-1 for off and init). */
int st_parse_sem_max(const char *s, int *mode, int *limit);

/* SYNCTRACE_LEVEL: a name of enum st_meta_level (contention, full). */
int st_parse_level(const char *s, int *level);

/* SYNCTRACE_SUMMARY_BUCKETS: a COUNT from 1 to max. */
int st_parse_summary_buckets(const char *s, int max, int *n);

/* SYNCTRACE_CLOCK: auto (the time-stamp counter where the kernel keeps
 * time with it), monotonic (CLOCK_MONOTONIC always) or counter (the
 * counter wherever the processor says it is invariant):
 * ST_CLOCK_TSC_AUTO, _NEVER, _FORCED (src/internal/clock.h). */
enum { ST_CLOCK_TSC_NEVER, ST_CLOCK_TSC_AUTO, ST_CLOCK_TSC_FORCED };
int st_parse_clock(const char *s, int *tsc_allowed);

/* SYNCTRACE_THRESHOLD: a duration, digits then a unit (ns, us, ms, s),
 * into ns; 0 (or "0") turns it off. */
int st_parse_duration_ns(const char *s, long long *ns);

#endif
