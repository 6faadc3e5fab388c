/* Call sites and names: the code addresses a trace carries (`caller`
 * fields, the frames of synctrace_stack:frames) turned into "function at
 * file:line", and objects named as the programmer knows them (names.c).
 *
 * Fed the decoded events (sa_symbols_feed, from the sink), it keeps per
 * process (trace, vpid):
 *   - the loaded modules, from lttng-ust's statedump (lttng_ust_statedump:
 *     bin_info / build_id / debug_link, and lttng_ust_dl:* when the dl
 *     helper's events were recorded): base address, size, path, build id;
 *   - the stacks (synctrace_stack:frames, each id once);
 *   - per object, the stacks its events were called through
 *     (synctrace_stack:use, in order of first use);
 *   - per object address, what began its instances: init events and the
 *     event each stack:use announced (runs of them, by time);
 *   - the shared mappings holding process-shared objects
 *     (synctrace_meta:mapping).
 * Addresses are symbolized offline, when a report asks, with elfutils'
 * libdwfl on the module files (checked against their build ids) and their
 * separate debug info. What cannot be symbolized is shown as module+offset;
 * without a statedump, nothing is (the callers ask and get NULL).
 * Memory grows with processes, modules, distinct stacks, object
 * addresses that had an init or a stack (about 100 bytes each) and
 * distinct code addresses symbolized, never with the number of events. */
#ifndef SA_SYMBOLS_H
#define SA_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "sa_event.h"

struct sa_model;
struct sa_object;
struct sa_symbols;

/* Take in one event (others than statedump, dl and stack events are
 * ignored), creating m->symbols on the first that matters. */
void sa_symbols_feed(struct sa_model *m, const struct sa_event *e);
void sa_symbols_free(struct sa_symbols *s);

/* "push_item at callsites.c:25" for a return address (a `caller` field or
 * a frame) in process (trace, vpid); "libfoo.so+0x1a2b" when only the
 * module is known; NULL when nothing is (no statedump). In buf. */
const char *sa_symbols_addr(const struct sa_model *m, unsigned trace, int32_t vpid,
			    uint64_t addr, char *buf, size_t size);
/* The same for a function's own address (a once routine: no instruction
 * before it to look at, the address is the function's first). */
const char *sa_symbols_function(const struct sa_model *m, unsigned trace, int32_t vpid,
				uint64_t addr, char *buf, size_t size);

/* A lock's identity for reports: its call site — where its most used
 * stack entered synctrace (the first used on a tie), or without stacks the
 * object's `caller` (its first event's) — followed by " (+N other sites)"
 * when its stacks entered synctrace from N other places (its creation
 * among them). NULL when it cannot be symbolized: print what was printed
 * before. */
const char *sa_symbols_object_site(const struct sa_model *m, const struct sa_object *ob,
				   char *buf, size_t size);

/* The stacks recorded for an object, in order of first use: stack k's
 * frames (innermost first) in *frames, its count of uses in *uses; returns
 * the number of frames, or -1 when there is no stack k. */
int sa_symbols_object_stack(const struct sa_model *m, const struct sa_object *ob,
			    unsigned k, const uint64_t **frames, uint64_t *uses);

/* Names the programmer knows (names.c). An object in a module's data or
 * bss is named by its symbol ("queue_lock", "stats+0x40" or "stats.lock"
 * into a struct); a heap or stack object by its init (or first use) site,
 * the first frame outside the functions that create many objects
 * ("pool_t (init in pool_new, pool.c:41)"); otherwise module+offset, or
 * the bare address when no module covers it. */
enum sa_name_how { SA_NAME_SYMBOL, SA_NAME_SITE, SA_NAME_MODULE_OFFSET, SA_NAME_ADDRESS };
struct sa_objname {
	char name[128];   /* "queue_lock", "stats.lock", "pool_t (init in pool_new, pool.c:41)",
	                     "pigz+0x11000", or "0x561f04398080" (how says which) */
	char site[160];   /* init / first-use site "pool_new (pool.c:41)", "" when unknown */
	char klass[256];  /* class key, stable across runs of the same binary and across
	                     processes: module-relative, no absolute address */
	enum sa_name_how how;
};
/* Fills *out for model object obj; 0, or -1 when obj is out of range. */
int sa_object_name(const struct sa_model *m, uint32_t obj, struct sa_objname *out);
/* "flush_queue (queue.c:88)" for a code address of process p; module+offset or
 * "0x..." as a fallback; never NULL. */
const char *sa_site_name(const struct sa_model *m, uint32_t proc, uint64_t ip,
			 char *buf, size_t n);

/* The id of the stack object oi's creation (or first recorded use) was
 * called through (synctrace_stack:use right before its init), 0 when the
 * trace has none: for a class key finer than the init's caller (a
 * wrapper's objects have one caller but a stack per caller of the
 * wrapper). Usable while feeding, once the object's first event is in. */
uint64_t sa_symbols_creation_stack(const struct sa_model *m, uint32_t oi);

/* Process-shared objects (meta:mapping): 1 and key = {dev, ino, offset of
 * addr in the file} when addr lies in a shared mapping process (trace,
 * vpid) announced, else 0. The same key in two processes is one object.
 * Usable while feeding: sa_symbols_feed sees each event before the model. */
int sa_symbols_shared_key(const struct sa_model *m, unsigned trace, int32_t vpid,
			  uint64_t addr, uint64_t key[3]);

/* The id of the object's stack k (0 when unknown; k as for
 * sa_symbols_object_stack). The table stacks.objects is a report module
 * (analysis/report/stacks.c). */
uint64_t sa_symbols_object_stack_id(const struct sa_model *m, const struct sa_object *ob,
				    unsigned k);

#endif
