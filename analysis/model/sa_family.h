/* The family descriptor: what the model needs to know about a provider
 * family, declared once, in its model file (analysis/model/<family>.c):
 *
 *   const struct sa_family sa_family_mutex = { .name = "mutex", ... };
 *
 * The build lists every family that has both tracepoints/events/<f>.def
 * and model/<f>.c in the generated sa_families.h (SA_FAMILY(f, F)); from
 * that one list come enum sa_obj_type (SA_OBJ_<F>), the registry below,
 * the event dispatch and the type names. A family with no per-object
 * state (futex, spin, meta, thread, work) never types an object. */
#ifndef SA_FAMILY_H
#define SA_FAMILY_H

#include <stddef.h>

#include "sa_waits.h"

struct sa_model;
struct sa_event;

struct sa_family {
	const char *name;            /* "mutex": provider synctrace_mutex, type name */
	void (*event)(struct sa_model *m, const struct sa_event *e);
	/* Per-object state (sa_object.ext): its size (0: none), how to free
	 * it, and how to fold one object's state into its class's (0, or -1
	 * out of memory). */
	size_t state_size;
	void (*state_free)(void *state);
	int (*state_merge)(struct sa_model *m, void *dst, const void *src);
	/* Its wait kinds (sa_waits.h): first and how many (0: none). */
	enum sa_wait_kind first_kind;
	unsigned nkinds;
};

#define SA_FAMILY(f, F) extern const struct sa_family sa_family_##f;
#include "sa_families.h"
#undef SA_FAMILY

/* The family of an object type (NULL for SA_OBJ_UNKNOWN), of an event. */
const struct sa_family *sa_family_of_type(unsigned type);
const struct sa_family *sa_family_of_event(unsigned event_id);

/* Merge helpers for state_merge. */
#define SA_MERGE_SUM(d, s, f) ((d)->f += (s)->f)
#define SA_MERGE_MAX(d, s, f) ((d)->f = (s)->f > (d)->f ? (s)->f : (d)->f)

#endif
