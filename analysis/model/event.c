#include <string.h>

#include "sa_event.h"
#include "st_batch.h"

static const char *const names[SA_EV_COUNT] = {
	[SA_EV_UNKNOWN] = "unknown",
#define ST_EVENT(fam, name, args, fields) [SA_EV_##fam##_##name] = "synctrace_" #fam ":" #name,
#include "st_all_events.h"
#undef ST_EVENT
};

static const char *const providers[SA_EV_COUNT] = {
	[SA_EV_UNKNOWN] = "other",
#define ST_EVENT(fam, name, args, fields) [SA_EV_##fam##_##name] = "synctrace_" #fam,
#include "st_all_events.h"
#undef ST_EVENT
};

/* Field names by event and slot (sa_fields.h). */
#define SA__FNAME(ev, i, n) #n,
static const char *const fields[SA_EV_COUNT][SA_MAX_FIELDS] = {
#define ST_EVENT(fam, name, args, flds) [SA_EV_##fam##_##name] = { SA_EACH_FIELD(SA__FNAME, fam##_##name, flds) },
#include "st_all_events.h"
#undef ST_EVENT
};
static const unsigned char nfields[SA_EV_COUNT] = {
#define ST_EVENT(fam, name, args, flds) [SA_EV_##fam##_##name] = SA_NF_##fam##_##name,
#include "st_all_events.h"
#undef ST_EVENT
};
/* Slot + 1 of each event's object address and call site; 0 none. */
static unsigned char obj_slot[SA_EV_COUNT], caller_slot[SA_EV_COUNT];
static int slots_ready;

int sa_event_field_slot(enum sa_event_id id, const char *name)
{
	if ((unsigned)id >= SA_EV_COUNT || !name)
		return -1;
	for (unsigned i = 0; i < nfields[id]; i++)
		if (!strcmp(fields[id][i], name))
			return (int)i;
	return -1;
}

unsigned sa_event_nfields(enum sa_event_id id)
{
	return (unsigned)id < SA_EV_COUNT ? nfields[id] : 0;
}

static void find_slots(void)
{
	for (int id = 1; id < SA_EV_COUNT; id++) {
		int o = sa_event_field_slot((enum sa_event_id)id, "obj");
		if (o < 0)
			o = sa_event_field_slot((enum sa_event_id)id, "cond");
		obj_slot[id] = (unsigned char)(o + 1);
		caller_slot[id] = (unsigned char)(sa_event_field_slot((enum sa_event_id)id, "caller") + 1);
	}
	slots_ready = 1;
}

int sa_ev_obj(const struct sa_event *e, uint64_t *addr)
{
	if (!slots_ready)
		find_slots();
	unsigned s = (unsigned)e->id < SA_EV_COUNT ? obj_slot[e->id] : 0;
	if (!s || !e->f[s - 1].name)
		return 0;
	*addr = (uint64_t)e->f[s - 1].v;
	return 1;
}

uint64_t sa_ev_caller(const struct sa_event *e)
{
	if (!slots_ready)
		find_slots();
	unsigned s = (unsigned)e->id < SA_EV_COUNT ? caller_slot[e->id] : 0;
	return s && e->f[s - 1].name ? (uint64_t)e->f[s - 1].v : 0;
}

enum sa_event_id sa_event_lookup(const char *name)
{
	if (!name)
		return SA_EV_UNKNOWN;
	for (int i = 1; i < SA_EV_COUNT; i++)
		if (strcmp(names[i], name) == 0)
			return (enum sa_event_id)i;
	return SA_EV_UNKNOWN;
}

const char *sa_event_name(enum sa_event_id id)
{
	return (unsigned)id < SA_EV_COUNT ? names[id] : names[0];
}

const char *sa_event_provider(enum sa_event_id id)
{
	return (unsigned)id < SA_EV_COUNT ? providers[id] : providers[0];
}

enum sa_event_id sa_event_by_hash(uint32_t hash)
{
	static uint32_t hashes[SA_EV_COUNT];
	if (!hashes[1])
		for (int i = 1; i < SA_EV_COUNT; i++)
			hashes[i] = st_batch_hash(names[i] + 10); /* past "synctrace_" */
	for (int i = 1; i < SA_EV_COUNT; i++)
		if (hashes[i] == hash)
			return (enum sa_event_id)i;
	return SA_EV_UNKNOWN;
}

const char *sa_event_field_name(enum sa_event_id id, unsigned slot)
{
	return (unsigned)id < SA_EV_COUNT && slot < nfields[id] ? fields[id][slot] : NULL;
}
