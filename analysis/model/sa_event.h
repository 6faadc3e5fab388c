/* The model's input: one decoded event, with no babeltrace2 type in sight.
 *
 * Event ids come from tracepoints/events/<family>.def (through the generated
 * st_all_events.h), so a new family's events get ids by existing. Integer
 * payload fields of our events are in the slots their definition gives
 * them (sa_fields.h: e->f[SA_F_mutex_acquired_how].v; name NULL and v 0
 * when the event lacks the field); fields a definition does not name (an
 * older format's, a foreign event's) follow, by name (sa_ev_get). A signed
 * field is sign-extended into `v`. The decoder owns every string: the
 * model copies what it keeps. */
#ifndef SA_EVENT_H
#define SA_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "sa_fields.h"

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
	/* The event's clock: its raw value (cycles) and frequency (Hz; 0 when
	 * unknown), for fields that carry a time of that clock (format 2's
	 * mutex:released acq_ts). */
	uint64_t cycles, freq;
	/* synctrace-report --events only: the event's context and payload as
	 * text (analysis/bt2/dump.c); NULL otherwise. */
	const char *text;
};

/* The slot of field `name` of event id (sa_fields.h), -1 if its definition
 * has no such field; how many fields its definition has. */
int sa_event_field_slot(enum sa_event_id id, const char *name);
unsigned sa_event_nfields(enum sa_event_id id);
/* The object address of an event of a family (its `obj`, or the condvar's
 * `cond`) and its call site (`caller`): 1 / the value, or 0. */
int sa_ev_obj(const struct sa_event *e, uint64_t *addr);
uint64_t sa_ev_caller(const struct sa_event *e);

/* The event a batched record names (st_batch_hash of "mutex:acquired"),
 * SA_EV_UNKNOWN if none; the name of field `slot` of an event. */
enum sa_event_id sa_event_by_hash(uint32_t hash);
const char *sa_event_field_name(enum sa_event_id id, unsigned slot);

/* A process's announcement: meta start, config, module, mapping, clock
 * (who the events are, what their addresses name, what their durations
 * were read with; no transition). */
static inline int sa_event_announces(enum sa_event_id id)
{
	return id == SA_EV_meta_start || id == SA_EV_meta_config || id == SA_EV_meta_module ||
	       id == SA_EV_meta_mapping || id == SA_EV_meta_clock;
}

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

/* Our event's field in slot `slot` (sa_fields.h) in *out: 1 if the event
 * has it, else 0 and *out = 0. */
static inline int sa_ev_at(const struct sa_event *e, int slot, int64_t *out)
{
	/* slots past nfields are not the event's (a field an older format lacks) */
	int has = (unsigned)slot < e->nfields && e->f[slot].name != NULL;
	*out = has ? e->f[slot].v : 0;
	return has;
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

/* Test helper: set a field, in its slot for our events (e->id set first,
 * the rest of e zeroed), else appended (ignored beyond SA_MAX_FIELDS). */
static inline void sa_ev_set(struct sa_event *e, const char *name, int64_t v)
{
	int slot = sa_event_field_slot(e->id, name);
	unsigned n = sa_event_nfields(e->id);
	unsigned i = slot >= 0 ? (unsigned)slot : e->nfields > n ? e->nfields : n;
	if (i < SA_MAX_FIELDS) {
		e->f[i].name = name;
		e->f[i].v = v;
		if (e->nfields <= i)
			e->nfields = i + 1;
	}
}

#endif
