/* Objects whose counters are emitted when tracing stops (see registry.c). */
#ifndef ST_OBJECTS_H
#define ST_OBJECTS_H

enum st_family {
	ST_FAMILY_MUTEX = 1,
};

/* Remember obj (slow paths only, when tracing). Lock-free, no allocation. */
void st_object_note(const void *obj, int family);

/* Emit the counters of remembered objects in static storage; returns how
 * many were emitted. */
int st_objects_flush(void);

/* Per-family flush: emit obj's counters event; 1 if emitted. */
int st_mutex_flush(const void *obj);

#endif
