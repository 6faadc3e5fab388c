/* Environment settings, parsed once by the library's constructor. Until it
 * runs (other libraries' constructors lock mutexes before ours) the
 * defaults below are in force: nothing needs initialising. */
#ifndef ST_CONFIG_H
#define ST_CONFIG_H

/* SYNCTRACE_SPIN strategies. */
enum st_spin_mode {
	ST_SPIN_NONE = 0, /* sleep at once */
	ST_SPIN_BAIL = 1, /* spin, but stop as soon as there are sleepers (musl's) */
	ST_SPIN_FULL = 2, /* spin the whole budget whatever the sleepers */
};

extern int st_spin_mode;  /* enum st_spin_mode */
extern int st_spin_limit; /* iterations of the spin loop */
extern int st_level;      /* ST_LEVEL_CONTENTION or ST_LEVEL_FULL */

/* Parse a SYNCTRACE_SPIN value ("none", "bail", "full", a count, or
 * "bail:N"/"full:N") into mode/limit; returns 0, or -1 if it is not one. */
int st_parse_spin(const char *s, int *mode, int *limit);

void st_config_load(void);

#endif
