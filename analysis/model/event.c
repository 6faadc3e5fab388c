#include <string.h>

#include "sa_event.h"

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
