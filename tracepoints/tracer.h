/* Inside libsynctrace-tp.so: what belongs to the tracer. */
#ifndef ST_TRACER_H
#define ST_TRACER_H

/* Is the loaded object `name` (a path) the tracer's code: liblttng-ust*,
 * this library, or the urcu / numa libraries lttng-ust brings? */
int st_is_tracer_object(const char *name);

#endif
