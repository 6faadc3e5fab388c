/* Environment settings, parsed once by the library's constructor. Until it
 * runs (other libraries' constructors lock mutexes before ours) the
 * defaults below are in force: nothing needs initialising. */
#ifndef ST_CONFIG_H
#define ST_CONFIG_H

#include "st_codes.h"

extern int st_spin_mode;  /* enum st_spin_mode */
extern int st_spin_limit; /* iterations of the spin loop */
/* 1 (default): mutexes of every type spin before they sleep, as musl's
 * do; 0 (SYNCTRACE_SPIN_MUTEXES=adaptive): only PTHREAD_MUTEX_ADAPTIVE_NP
 * ones, as in glibc. Measured in doc/spin.md "Which mutexes spin": with
 * the per-thread streak (wait.h) spinning every mutex wins where short
 * critical sections are contended and costs little elsewhere. */
extern int st_spin_all_mutexes;
/* 1 (default): no spin while the machine is crowded (wait/crowd.h);
 * 0 (SYNCTRACE_SPIN_CROWD=off, or an explicit SYNCTRACE_SPIN without
 * SYNCTRACE_SPIN_CROWD=on): spin whatever the load. */
extern int st_spin_crowd;
extern int st_level;      /* ST_META_LEVEL_CONTENTION, _FULL or _SUMMARY */

/* SYNCTRACE_SEM_MAX: sem_post checks the value it leaves against a limit
 * (a debug check; off by default). */
extern int st_sem_max_mode; /* enum st_meta_sem_max bits; read by sem_post */
extern int st_sem_max;      /* the N of "N" / "init:N", else -1 */
extern long long st_threshold_ns; /* SYNCTRACE_THRESHOLD, 0 when off */
/* SYNCTRACE_SUMMARY_BUCKETS: distinct buckets a summary histogram keeps
 * (src/trace/summary.c), at most its room. */
#define ST_SUMMARY_BUCKETS_MAX 64
extern int st_summary_buckets;
extern int st_summary_lives; /* a thread's summary entry may hold several lives (trace/summary.c) */

void st_config_load(void);

#endif
