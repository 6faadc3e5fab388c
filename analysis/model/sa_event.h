/* The model's input: one decoded event, with no babeltrace2 type in sight.
 *
 * Event ids come from tracepoints/events/<family>.def (through the generated
 * st_all_events.h), so a new family's events get ids by existing. Integer
 * payload fields are passed by name, in any order; a signed field is
 * sign-extended into `v`. The decoder owns every string: the model copies
 * what it keeps. */
#ifndef SA_EVENT_H
#define SA_EVENT_H

#include <stddef.h>
#include <stdint.h>

enum sa_event_id {
	SA_EV_UNKNOWN = 0, /* not a synctrace event this build knows */
#define ST_EVENT(fam, name, args, fields) SA_EV_##fam##_##name,
#include "st_all_events.h"
#undef ST_EVENT
	SA_EV_COUNT
};

#define SA_MAX_FIELDS 16
#define SA_MAX_STRINGS 4

struct sa_field {
	const char *name;
	int64_t v;
};

struct sa_event {
	enum sa_event_id id;
	const char *name;     /* full name ("synctrace_mutex:acquired"); may be NULL for known ids */
	int64_t ts;           /* ns from the clock's origin */
	unsigned trace;       /* which trace (host/session) it came from, 0-based */
	int32_t vpid, vtid;   /* LTTng contexts; -1 when absent */
	const char *procname; /* may be NULL */
	unsigned nfields;
	struct sa_field f[SA_MAX_FIELDS];
	unsigned nstrings;    /* string payload fields (thread:name's name) */
	struct {
		const char *name, *v;
	} s[SA_MAX_STRINGS];
	/* One integer array payload field (synctrace_stack:frames' frames, the
	 * statedump's build_id), for analysis/symbols: narr = 0 when none. */
	const char *arr_name;
	const uint64_t *arr;
	unsigned narr;
};

/* "synctrace_mutex:acquired" → id; SA_EV_UNKNOWN if not ours. */
enum sa_event_id sa_event_lookup(const char *name);
/* id → "synctrace_mutex:acquired", and → "synctrace_mutex". */
const char *sa_event_name(enum sa_event_id id);
const char *sa_event_provider(enum sa_event_id id);

/* The field's value in *out: 1 if present, else 0 and *out = 0. */
static inline int sa_ev_get(const struct sa_event *e, const char *name, int64_t *out)
{
	for (unsigned i = 0; i < e->nfields && i < SA_MAX_FIELDS; i++) {
		const char *a = e->f[i].name, *b = name;
		if (!a)
			continue;
		while (*a && *a == *b)
			a++, b++;
		if (*a == *b) {
			*out = e->f[i].v;
			return 1;
		}
	}
	*out = 0;
	return 0;
}

static inline int64_t sa_ev_i(const struct sa_event *e, const char *name)
{
	int64_t v;
	sa_ev_get(e, name, &v);
	return v;
}

/* A string field's value, or NULL. */
static inline const char *sa_ev_str(const struct sa_event *e, const char *name)
{
	for (unsigned i = 0; i < e->nstrings && i < SA_MAX_STRINGS; i++)
		if (e->s[i].name && e->s[i].v && __builtin_strcmp(e->s[i].name, name) == 0)
			return e->s[i].v;
	return NULL;
}

/* Test helper: append a field (ignored beyond SA_MAX_FIELDS). */
static inline void sa_ev_set(struct sa_event *e, const char *name, int64_t v)
{
	if (e->nfields < SA_MAX_FIELDS) {
		e->f[e->nfields].name = name;
		e->f[e->nfields].v = v;
		e->nfields++;
	}
}

#endif
