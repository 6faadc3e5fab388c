/* The verdicts of the spin and races modules as data (the findings and
 * the modules' own notes say them from these). */
#ifndef SA_VERDICTS_H
#define SA_VERDICTS_H

#include "sa_model.h"

enum sa_spin_code {
	SA_SPIN_NO_LOOPS,   /* no spin loop in the trace */
	SA_SPIN_BAILS,      /* most loops bail out on seeing sleepers: try SYNCTRACE_SPIN=full */
	SA_SPIN_FAILS,      /* most spin to the limit and fail: try SYNCTRACE_SPIN=none */
	SA_SPIN_PAYS,       /* most acquire before the limit */
	SA_SPIN_MIXED,      /* no outcome has a majority */
};
struct sa_spin_verdict {
	enum sa_spin_code code;
	const char *name;   /* "no_loops", "bails", "fails", "pays", "mixed" */
	const char *try_;   /* the SYNCTRACE_SPIN value to try, or NULL */
	uint64_t loops, acquired, gave_up, saw_waiters, spin_ns, sleep_ns;
};
void sa_spin_verdict(const struct sa_model *m, struct sa_spin_verdict *v);

enum sa_race_code {
	SA_RACE_NONE_POSSIBLE, /* no condvar waiter timed out or was cancelled */
	SA_RACE_NEVER,         /* waiters left, none met a signaler */
	SA_RACE_COST,          /* races happened: share says what they cost */
};
struct sa_race_verdict {
	enum sa_race_code code;
	const char *name;      /* "none_possible", "never", "cost" */
	uint64_t condvars, leaving, races, signals, race_ns, wait_ns; /* wait_ns: all condvar waiting */
	double share;          /* race_ns / (race_ns + wait_ns) */
};
/* Over all condvars (cond = SIZE_MAX), or one condvar's (its ext). */
void sa_race_verdict(const struct sa_model *m, uint32_t obj, struct sa_race_verdict *v);

#endif
