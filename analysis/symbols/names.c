/* Names the programmer knows, and class keys.
 *
 * An object whose address a module of its process covers (its data or
 * bss) is named by the variable there (data.c: "queue_lock",
 * "stats.lock"), else by module+offset. Any other object (heap, stack,
 * shared memory) is named by the site that created it: "init in pool_new
 * (pool.c:41)", or "first use in ..." when no init was seen (a statically
 * initialised object, or one made before tracing began). The site is:
 *   - with stacks (record --stacks), the first frame of its creation (or
 *     first recorded use) stack that is neither a wrapper nor library
 *     code. A wrapper is a frame that creates objects for more than one
 *     caller: among the creation stacks of the process, the frame above
 *     it differs (mutex_new called from queue_new and pool_new). Library
 *     code: a frame in the C or C++ runtime or in synctrace, or whose
 *     source is a system header (std::mutex::lock); walking stops before
 *     it would leave the program for the runtime (main's caller).
 *   - without stacks, the init event's caller (or the first caller).
 *
 * A process-shared object (its address in a shared mapping the process,
 * or another of its trace at that very address, announced with
 * meta:mapping) has one name and klass in every process: "init in SITE"
 * of the process that initialised it, klass "TYPE:shm-init@MODULE+0xOFF";
 * without an init in the trace (glibc's sem_open made it), by its file:
 * "/NAME" for a live /dev/shm/sem.NAME, "PATH+0xOFF" for another file,
 * "shm DEV:INO+0xOFF" for anonymous or deleted ones (stable across
 * processes, not across runs).
 *
 * The class key (klass) never holds an absolute address, so it is the same
 * in every run of the same binary and in every process running it:
 * "TYPE:MODULE+0xOFF" for an object in a module (OFF from the module's
 * base), "TYPE:init@MODULE+0xOFF" or "TYPE:use@MODULE+0xOFF" for one named
 * by its site (OFF: the site's return address). Only an object with
 * neither (no statedump) falls back to its process name and address. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa_model.h"
#include "sa_symbols_impl.h"

/* Object sizes on x86-64 glibc (where member descent stops). */
static uint64_t object_size(enum sa_obj_type t)
{
	switch (t) {
	case SA_OBJ_MUTEX: return 40;
	case SA_OBJ_COND: return 48;
	case SA_OBJ_SEM: return 32;
	case SA_OBJ_RWLOCK: return 56;
	case SA_OBJ_BARRIER: return 32;
	case SA_OBJ_SPIN:
	case SA_OBJ_ONCE: return 4;
	default: return 1;
	}
}

static struct sa_sym_proc *proc_of(const struct sa_model *m, uint32_t proc)
{
	if (!m->symbols || proc >= m->nprocs)
		return NULL;
	return sa_sym_proc(m->symbols, m->procs[proc].trace, m->procs[proc].vpid, 0);
}

/* "fn (file:line)", "fn (mod+0xoff)", "file:line (mod+0xoff)", "mod+0xoff". */
static int site_text(const struct sa_sym_code *c, char *buf, size_t n)
{
	if (!c->mod)
		return -1;
	if (c->fn && c->file)
		snprintf(buf, n, "%s (%s:%d)", c->fn, c->file, c->line);
	else if (c->fn)
		snprintf(buf, n, "%s (%s+0x%" PRIx64 ")", c->fn, c->mod, c->off);
	else if (c->file)
		snprintf(buf, n, "%s:%d (%s+0x%" PRIx64 ")", c->file, c->line, c->mod, c->off);
	else
		snprintf(buf, n, "%s+0x%" PRIx64, c->mod, c->off);
	return 0;
}

const char *sa_site_name(const struct sa_model *m, uint32_t proc, uint64_t ip,
			 char *buf, size_t n)
{
	struct sa_sym_proc *p = proc_of(m, proc);
	struct sa_sym_code c;
	if (!n)
		return buf;
	if (!p || sa_sym_code_at(p, ip, 1, &c) || site_text(&c, buf, n))
		snprintf(buf, n, "0x%" PRIx64, ip);
	return buf;
}

/* The frames that began object ob (its creation or first recorded use). */
static const struct sa_sym_run *run_of(const struct sa_model *m, const struct sa_object *ob,
				       struct sa_sym_proc **pp)
{
	struct sa_sym_proc *p = proc_of(m, ob->proc);
	*pp = p;
	return p ? sa_sym_run_of(m->symbols, p, ob->addr, ob->first_ts, ob->last_ts) : NULL;
}

static const struct sa_sym_stack *stack_of(const struct sa_symbols *s, const struct sa_sym_run *r)
{
	if (!r || r->stack == SA_SYM_NO_STACK || r->stack >= s->nstacks)
		return NULL;
	const struct sa_sym_stack *st = &s->stacks[r->stack];
	return st->frames && st->n ? st : NULL;
}

/* Is an index over the model's objects (map, built when the model had
 * *built - 1 objects; 0: never) out of date? If so it is emptied, to be
 * rebuilt now. */
static int index_stale(const struct sa_model *m, struct sa_map *map, uint32_t *built)
{
	if (*built == m->nobjs + 1)
		return 0;
	sa_map_free(map);
	memset(map, 0, sizeof(*map));
	*built = m->nobjs + 1;
	return 1;
}

uint64_t sa_symbols_creation_stack(const struct sa_model *m, uint32_t oi)
{
	struct sa_sym_proc *p;
	if (oi >= m->nobjs)
		return 0;
	const struct sa_sym_run *r = run_of(m, &m->objs[oi], &p);
	return r && r->stack != SA_SYM_NO_STACK && r->stack < m->symbols->nstacks
		       ? m->symbols->stacks[r->stack].id
		       : 0;
}

/* Which frames create objects for more than one caller: over every
 * object's first stack, (proc, frame) → the frame above it. Rebuilt when
 * the model has more objects than when it was built. */
static void wraps_build(const struct sa_model *m)
{
	struct sa_symbols *s = m->symbols;
	if (!index_stale(m, &s->wrap_map, &s->wraps_built))
		return;
	s->nwraps = 0;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		struct sa_sym_proc *p;
		const struct sa_sym_stack *st = stack_of(s, run_of(m, &m->objs[i], &p));
		if (!st)
			continue;
		uint64_t pi = (uint64_t)(p - s->procs);
		for (unsigned k = 0; k + 1 < st->n; k++) {
			int64_t w = sa_map_get(&s->wrap_map, pi, st->frames[k]);
			if (w >= 0) {
				if (s->wraps[w].caller != st->frames[k + 1])
					s->wraps[w].callers = 2;
				continue;
			}
			if (sa_grow((void **)&s->wraps, s->nwraps, &s->capwraps, sizeof(*s->wraps)) ||
			    sa_map_put(&s->wrap_map, pi, st->frames[k], s->nwraps))
				return;
			s->wraps[s->nwraps++] = (struct sa_sym_wrap){ st->frames[k + 1], 1 };
		}
	}
}

static int is_wrapper(const struct sa_symbols *s, uint64_t pi, uint64_t frame)
{
	int64_t w = sa_map_get(&s->wrap_map, pi, frame);
	return w >= 0 && s->wraps[w].callers > 1;
}

static int is_library(const struct sa_sym_code *c)
{
	static const char *const runtimes[] = { "libc.so", "libstdc++.so", "libpthread.so",
						"libsynctrace", "ld-linux", "libgcc_s.so" };
	if (!c->mod)
		return 1; /* no module: nothing to name it by either */
	for (size_t i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++)
		if (!strncmp(c->mod, runtimes[i], strlen(runtimes[i])))
			return 1;
	return c->path && !strncmp(c->path, "/usr/include/", 13);
}

/* The frame of stack st that names the object (see the top). */
static uint64_t naming_frame(const struct sa_model *m, struct sa_sym_proc *p,
			     const struct sa_sym_stack *st)
{
	struct sa_symbols *s = m->symbols;
	uint64_t pi = (uint64_t)(p - s->procs);
	struct sa_sym_code c, next;
	unsigned k = 0;
	wraps_build(m);
	sa_sym_code_at(p, st->frames[0], 1, &c);
	while (k + 1 < st->n) {
		int lib = is_library(&c);
		if (!lib && !is_wrapper(s, pi, st->frames[k]))
			break;
		sa_sym_code_at(p, st->frames[k + 1], 1, &next);
		if (!lib && is_library(&next))
			break; /* the program's outermost frame */
		c = next;
		k++;
	}
	return st->frames[k];
}

static uint64_t shm_key_a(const struct sa_sym_shm *shm)
{
	return shm->ino ^ (shm->dev << 40);
}

/* Process-shared objects: (mapping file, offset) → the model object whose
 * process initialised it (the first such), so every process names it by
 * that init. Rebuilt when the model has more objects. */
static void shinit_build(const struct sa_model *m)
{
	struct sa_symbols *s = m->symbols;
	if (!index_stale(m, &s->shinit_map, &s->shinit_built))
		return;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const struct sa_object *ob = &m->objs[i];
		struct sa_sym_proc *p;
		const struct sa_sym_run *r = run_of(m, ob, &p);
		const struct sa_sym_shm *shm = p && r && r->init ? sa_sym_shm_find(s, p, ob->addr)
								 : NULL;
		uint64_t b = shm ? ob->addr - shm->start + shm->offset : 0;
		if (shm && sa_map_get(&s->shinit_map, shm_key_a(shm), b) < 0 &&
		    sa_map_put(&s->shinit_map, shm_key_a(shm), b, i))
			return;
	}
}

/* An anonymous shared mapping's path says nothing about it. */
static int anonymous(const char *path)
{
	return !path || !path[0] || path[0] == '[' || strstr(path, "(deleted)") ||
	       !strncmp(path, "/dev/zero", 9) || !strncmp(path, "/SYSV", 5);
}

static uint64_t naming_site(const struct sa_model *m, const struct sa_object *ob,
			    struct sa_sym_proc *p, const struct sa_sym_run *run);

/* A process-shared object: the same name and klass in every process. */
static void shared_name(const struct sa_model *m, const struct sa_object *ob,
			const struct sa_sym_shm *shm, struct sa_objname *out)
{
	struct sa_symbols *s = m->symbols;
	const char *type = sa_obj_type_name(ob->type);
	uint64_t off = ob->addr - shm->start + shm->offset;
	const char *path = shm->path ? shm->path : "";
	shinit_build(m);
	int64_t ii = sa_map_get(&s->shinit_map, shm_key_a(shm), off);
	if (anonymous(path)) {
		snprintf(out->name, sizeof(out->name), "shm %" PRIx64 ":%" PRIu64 "+0x%" PRIx64,
			 shm->dev, shm->ino, off);
		out->how = SA_NAME_ADDRESS;
		snprintf(out->klass, sizeof(out->klass), "%s:%s", type, out->name);
	} else if (!strncmp(path, "/dev/shm/sem.", 13) && off == 0) {
		/* sem_open("/NAME"): glibc's file /dev/shm/sem.NAME */
		snprintf(out->name, sizeof(out->name), "/%s", path + 13);
		out->how = SA_NAME_SYMBOL;
		snprintf(out->klass, sizeof(out->klass), "%s:shm:%s", type, path);
	} else {
		snprintf(out->name, sizeof(out->name), "%s+0x%" PRIx64, path, off);
		out->how = SA_NAME_MODULE_OFFSET;
		snprintf(out->klass, sizeof(out->klass), "%s:shm:%s", type, out->name);
	}
	if (ii < 0)
		return;
	/* Initialised in the trace: by that init, in every process. */
	const struct sa_object *io = &m->objs[ii];
	struct sa_sym_proc *ip;
	const struct sa_sym_run *run = run_of(m, io, &ip);
	uint64_t site = ip ? naming_site(m, io, ip, run) : 0;
	struct sa_sym_code c;
	char text[sizeof(out->site)];
	if (!site || sa_sym_code_at(ip, site, 1, &c) || site_text(&c, text, sizeof(text)))
		return;
	memcpy(out->site, text, sizeof(text));
	if (out->how == SA_NAME_ADDRESS) {
		if (snprintf(out->name, sizeof(out->name), "init in %s", out->site) < 0)
			out->name[0] = 0;
		out->how = SA_NAME_SITE;
		snprintf(out->klass, sizeof(out->klass), "%s:shm-init@%s+0x%" PRIx64, type, c.mod,
			 c.off);
	}
}

static uint64_t naming_site(const struct sa_model *m, const struct sa_object *ob,
			    struct sa_sym_proc *p, const struct sa_sym_run *run)
{
	const struct sa_sym_stack *st = stack_of(m->symbols, run);
	return st ? naming_frame(m, p, st) : ob->caller;
}

int sa_object_name(const struct sa_model *m, uint32_t obj, struct sa_objname *out)
{
	if (obj >= m->nobjs)
		return -1;
	memset(out, 0, sizeof(*out));
	const struct sa_object *ob = &m->objs[obj];
	const struct sa_proc *mp = &m->procs[ob->proc];
	const char *type = sa_obj_type_name(ob->type);
	struct sa_sym_proc *p;
	const struct sa_sym_run *run = run_of(m, ob, &p);
	uint64_t site = p ? naming_site(m, ob, p, run) : ob->caller;
	struct sa_sym_code c;
	int have_site = site && p && !sa_sym_code_at(p, site, 1, &c) &&
			!site_text(&c, out->site, sizeof(out->site));
	int mi = p ? sa_sym_module_of(p, ob->addr) : -1;
	const struct sa_sym_shm *shm = p && mi < 0 ? sa_sym_shm_find(m->symbols, p, ob->addr) : NULL;
	if (shm) {
		shared_name(m, ob, shm, out);
	} else if (mi >= 0) {
		const struct sa_sym_module *mod = &p->mods[mi];
		uint64_t off = ob->addr - mod->base;
		if (!sa_sym_data_at(p, ob->addr, object_size(ob->type), out->name, sizeof(out->name))) {
			out->how = SA_NAME_SYMBOL;
		} else {
			snprintf(out->name, sizeof(out->name), "%s+0x%" PRIx64,
				 sa_sym_base_name(mod->path), off);
			out->how = SA_NAME_MODULE_OFFSET;
		}
		snprintf(out->klass, sizeof(out->klass), "%s:%s+0x%" PRIx64, type,
			 sa_sym_base_name(mod->path), off);
	} else if (have_site) {
		const char *how = run && run->init ? "init" : "first use";
		/* A long C++ name is cut (the site field keeps more of it). */
		if (snprintf(out->name, sizeof(out->name), "%s in %s", how, out->site) < 0)
			out->name[0] = 0;
		out->how = SA_NAME_SITE;
		snprintf(out->klass, sizeof(out->klass), "%s:%s@%s+0x%" PRIx64, type,
			 run && run->init ? "init" : "use", c.mod, c.off);
	} else {
		snprintf(out->name, sizeof(out->name), "0x%" PRIx64, ob->addr);
		out->how = SA_NAME_ADDRESS;
		snprintf(out->klass, sizeof(out->klass), "%s:%s:0x%" PRIx64, type, mp->procname,
			 ob->addr);
	}
	return 0;
}
