/* synctrace-report --events: events as text (dump.c). */
#ifndef SA_DUMP_H
#define SA_DUMP_H

#include <babeltrace2/babeltrace.h>
#include <stdio.h>

#include "sa_event.h"

/* An event's common context and payload as babeltrace2 prints them
 * ("{ vpid = 1, ... }, { obj = 0x1, ... }"); malloc'ed, NULL out of memory. */
char *sa_dump_text(const bt_event *ev);
/* One line as babeltrace2's: "[HH:MM:SS.ns] (+delta) HOST name: " and its
 * text (e->text, or a batched record's fields from its definition);
 * *last: the previous line's time (INT64_MIN before the first). */
void sa_dump_print(FILE *out, const struct sa_event *e, const char *host, int64_t *last);

#endif
