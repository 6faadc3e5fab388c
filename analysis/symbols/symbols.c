/* Call sites, part one: what the trace says (modules, stacks, which object
 * used which stack). Part two, symbolization, is resolve.c. */
#include <stdlib.h>
#include <string.h>

#include "sa_model.h"
#include "sa_symbols_impl.h"

static struct sa_symbols *symbols_of(struct sa_model *m)
{
	if (!m->symbols)
		m->symbols = calloc(1, sizeof(struct sa_symbols));
	return m->symbols;
}

struct sa_sym_proc *sa_sym_proc(struct sa_symbols *s, unsigned trace, int32_t vpid, int create)
{
	int64_t i = sa_map_get(&s->proc_map, trace, (uint32_t)vpid);
	if (i >= 0)
		return &s->procs[i];
	if (!create || sa_grow((void **)&s->procs, s->nprocs, &s->capprocs, sizeof(*s->procs)))
		return NULL;
	if (sa_map_put(&s->proc_map, trace, (uint32_t)vpid, s->nprocs))
		return NULL;
	struct sa_sym_proc *p = &s->procs[s->nprocs++];
	memset(p, 0, sizeof(*p));
	p->trace = trace;
	p->vpid = vpid;
	return p;
}

static void module_clear(struct sa_sym_module *mod)
{
	free(mod->path);
	free(mod->build_id);
	free(mod->debug_link);
}

static struct sa_sym_module *module_at(struct sa_sym_proc *p, uint64_t base, int create)
{
	for (uint32_t i = 0; i < p->nmods; i++)
		if (p->mods[i].base == base)
			return &p->mods[i];
	if (!create || sa_grow((void **)&p->mods, p->nmods, &p->capmods, sizeof(*p->mods)))
		return NULL;
	struct sa_sym_module *mod = &p->mods[p->nmods++];
	memset(mod, 0, sizeof(*mod));
	mod->base = base;
	sa_sym_proc_reset(p); /* the module list changed */
	return mod;
}

static char *dup_str(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* lttng_ust_statedump:* and lttng_ust_dl:* (same fields). */
static void on_module_event(struct sa_symbols *s, const struct sa_event *e, const char *what)
{
	struct sa_sym_proc *p = sa_sym_proc(s, e->trace, e->vpid, 1);
	int64_t base;
	if (!p)
		return;
	if (!strcmp(what, "start")) {
		/* A statedump of a process image seen before: start over. */
		sa_sym_proc_reset(p);
		for (uint32_t i = 0; i < p->nmods; i++)
			module_clear(&p->mods[i]);
		p->nmods = 0;
		return;
	}
	if (!sa_ev_get(e, "baddr", &base))
		return;
	if (!strcmp(what, "bin_info") || !strcmp(what, "dlopen")) {
		struct sa_sym_module *mod = module_at(p, (uint64_t)base, 1);
		const char *path = sa_ev_str(e, "path");
		if (!mod || !path)
			return;
		free(mod->path);
		mod->path = dup_str(path);
		mod->memsz = (uint64_t)sa_ev_i(e, "memsz");
	} else if (!strcmp(what, "build_id") && e->narr) {
		struct sa_sym_module *mod = module_at(p, (uint64_t)base, 1);
		if (!mod)
			return;
		free(mod->build_id);
		mod->build_id = malloc(e->narr);
		mod->nbuild_id = mod->build_id ? e->narr : 0;
		for (unsigned i = 0; i < mod->nbuild_id; i++)
			mod->build_id[i] = (unsigned char)e->arr[i];
	} else if (!strcmp(what, "debug_link")) {
		struct sa_sym_module *mod = module_at(p, (uint64_t)base, 1);
		if (!mod)
			return;
		free(mod->debug_link);
		mod->debug_link = dup_str(sa_ev_str(e, "filename"));
	}
}

/* synctrace_meta:module (format 3.7): one event for what the statedump
 * says in three; first = 1 starts the process's list over, as its start. */
static void on_module(struct sa_symbols *s, const struct sa_event *e)
{
	if (sa_ev_i(e, "first"))
		on_module_event(s, e, "start");
	on_module_event(s, e, "bin_info");
	if (e->narr)
		on_module_event(s, e, "build_id");
}

/* synctrace_meta:mapping: a shared mapping of the process. */
static void on_mapping(struct sa_symbols *s, const struct sa_event *e)
{
	struct sa_sym_proc *p = sa_sym_proc(s, e->trace, e->vpid, 1);
	int64_t start, end, off, dev, ino;
	if (!p || !sa_ev_get(e, "start", &start) || !sa_ev_get(e, "end", &end) ||
	    !sa_ev_get(e, "offset", &off) || !sa_ev_get(e, "dev", &dev) ||
	    !sa_ev_get(e, "ino", &ino))
		return;
	for (uint32_t i = 0; i < p->nshms; i++)
		if (p->shms[i].start == (uint64_t)start) { /* announced again, or remapped */
			free(p->shms[i].path);
			p->shms[i] = (struct sa_sym_shm){ (uint64_t)start, (uint64_t)end,
							  (uint64_t)off, (uint64_t)dev, (uint64_t)ino,
							  dup_str(sa_ev_str(e, "path")) };
			return;
		}
	if (sa_grow((void **)&p->shms, p->nshms, &p->capshms, sizeof(*p->shms)))
		return;
	s->nshms++;
	p->shms[p->nshms++] = (struct sa_sym_shm){ (uint64_t)start, (uint64_t)end, (uint64_t)off,
						   (uint64_t)dev, (uint64_t)ino,
						   dup_str(sa_ev_str(e, "path")) };
}

const struct sa_sym_shm *sa_sym_shm_of(const struct sa_sym_proc *p, uint64_t addr)
{
	for (uint32_t i = p->nshms; i-- > 0;) /* the latest announcement first */
		if (addr >= p->shms[i].start && addr < p->shms[i].end)
			return &p->shms[i];
	return NULL;
}

const struct sa_sym_shm *sa_sym_shm_find(const struct sa_symbols *s, const struct sa_sym_proc *p,
				       uint64_t addr)
{
	if (!s->nshms)
		return NULL;
	const struct sa_sym_shm *shm = sa_sym_shm_of(p, addr);
	/* A process that only posts (or unlocks) never announces: a mapping
	 * another process of the trace announced at this very address is
	 * taken, as a forked child inherits its parent's (ASLR makes the
	 * same address in unrelated processes unlikely). */
	for (uint32_t i = 0; !shm && i < s->nprocs; i++)
		if (&s->procs[i] != p && s->procs[i].trace == p->trace)
			shm = sa_sym_shm_of(&s->procs[i], addr);
	return shm;
}

int sa_symbols_shared_key(const struct sa_model *m, unsigned trace, int32_t vpid,
			  uint64_t addr, uint64_t key[3])
{
	struct sa_sym_proc *p = m->symbols ? sa_sym_proc(m->symbols, trace, vpid, 0) : NULL;
	const struct sa_sym_shm *shm = p ? sa_sym_shm_find(m->symbols, p, addr) : NULL;
	if (!shm)
		return 0;
	key[0] = shm->dev;
	key[1] = shm->ino;
	key[2] = addr - shm->start + shm->offset;
	return 1;
}

static int64_t stack_index(struct sa_symbols *s, uint32_t proc, uint64_t id, int create)
{
	int64_t i = sa_map_get(&s->stack_map, proc, id);
	if (i >= 0 || !create)
		return i;
	if (sa_grow((void **)&s->stacks, s->nstacks, &s->capstacks, sizeof(*s->stacks)) ||
	    sa_map_put(&s->stack_map, proc, id, s->nstacks))
		return -1;
	struct sa_sym_stack *st = &s->stacks[s->nstacks];
	memset(st, 0, sizeof(*st));
	st->id = id;
	return s->nstacks++;
}

static void on_frames(struct sa_symbols *s, const struct sa_event *e)
{
	struct sa_sym_proc *p = sa_sym_proc(s, e->trace, e->vpid, 1);
	int64_t id;
	if (!p || !sa_ev_get(e, "id", &id) || !e->narr)
		return;
	int64_t i = stack_index(s, (uint32_t)(p - s->procs), (uint64_t)id, 1);
	if (i < 0 || s->stacks[i].frames) /* the first emission wins */
		return;
	uint64_t *f = malloc(e->narr * sizeof(*f));
	if (!f)
		return;
	memcpy(f, e->arr, e->narr * sizeof(*f));
	s->stacks[i].frames = f;
	s->stacks[i].n = e->narr;
}

/* Note that the next event of e's thread (on obj) was called through stack si. */
static void pend_set(struct sa_symbols *s, uint32_t pi, const struct sa_event *e, uint64_t obj,
		     uint32_t si)
{
	int64_t i = sa_map_get(&s->pend_map, pi, (uint32_t)e->vtid);
	if (i < 0) {
		if (sa_grow((void **)&s->pends, s->npends, &s->cappends, sizeof(*s->pends)) ||
		    sa_map_put(&s->pend_map, pi, (uint32_t)e->vtid, s->npends))
			return;
		i = s->npends++;
		s->pends[i].live = 0;
	}
	struct sa_sym_pend *pd = &s->pends[i];
	if (!pd->live)
		s->npend_live++;
	pd->live = 1;
	pd->obj = obj;
	pd->stack = si;
}

static void run_add(struct sa_symbols *s, uint32_t pi, uint64_t obj, int64_t ts, uint32_t stack,
		    uint32_t init)
{
	int64_t i = sa_map_get(&s->hist_map, pi, obj);
	if (i < 0) {
		if (sa_grow((void **)&s->hists, s->nhists, &s->caphists, sizeof(*s->hists)) ||
		    sa_map_put(&s->hist_map, pi, obj, s->nhists))
			return;
		i = s->nhists++;
		memset(&s->hists[i], 0, sizeof(s->hists[i]));
	}
	struct sa_sym_hist *h = &s->hists[i];
	if (h->n && h->runs[h->n - 1].stack == stack && h->runs[h->n - 1].init == init) {
		h->runs[h->n - 1].last_ts = ts;
		return;
	}
	if (h->n == h->cap) { /* most addresses have one run: start at one */
		uint32_t c = h->cap ? h->cap * 2 : 1;
		struct sa_sym_run *r = realloc(h->runs, c * sizeof(*r));
		if (!r)
			return;
		h->runs = r;
		h->cap = c;
	}
	h->runs[h->n++] = (struct sa_sym_run){ ts, ts, stack, init };
}

/* A synctrace event other than a stack's: an init, or the event a
 * stack:use announced, begins a run of its object's history. */
/* Is event id an init (its name ends in ":init")? Known ids: a table
 * made once; others (a newer trace's): by name. */
static int is_init_event(const struct sa_event *e, const char *name)
{
	/* 0 unknown, 1 no, 2 yes; each entry only ever written with one value */
	static signed char init_id[SA_EV_COUNT];
	size_t len;
	if (e->id > SA_EV_UNKNOWN && e->id < SA_EV_COUNT && init_id[e->id])
		return init_id[e->id] == 2;
	len = strlen(name);
	int init = len > 5 && !strcmp(name + len - 5, ":init");
	if (e->id > SA_EV_UNKNOWN && e->id < SA_EV_COUNT)
		init_id[e->id] = (signed char)(init ? 2 : 1);
	return init;
}

static void on_object_event(struct sa_model *m, const struct sa_event *e, const char *name)
{
	int init = is_init_event(e, name);
	struct sa_symbols *s = m->symbols;
	if (!init && (!s || !s->npend_live))
		return;
	if (!s && !(s = symbols_of(m))) {
		m->oom = 1;
		return;
	}
	int64_t obj;
	if (!sa_ev_get(e, "obj", &obj) && !sa_ev_get(e, "cond", &obj))
		return;
	struct sa_sym_proc *p = sa_sym_proc(s, e->trace, e->vpid, 1);
	if (!p)
		return;
	uint32_t pi = (uint32_t)(p - s->procs), stack = SA_SYM_NO_STACK;
	int64_t k = s->npend_live ? sa_map_get(&s->pend_map, pi, (uint32_t)e->vtid) : -1;
	if (k >= 0 && s->pends[k].live) {
		s->pends[k].live = 0;
		s->npend_live--;
		if (s->pends[k].obj == (uint64_t)obj)
			stack = s->pends[k].stack;
	}
	if (init || stack != SA_SYM_NO_STACK)
		run_add(s, pi, (uint64_t)obj, e->ts, stack, (uint32_t)init);
}

const struct sa_sym_run *sa_sym_run_of(const struct sa_symbols *s, const struct sa_sym_proc *p,
				       uint64_t addr, int64_t first_ts, int64_t last_ts)
{
	int64_t i = sa_map_get(&s->hist_map, (uint64_t)(p - s->procs), addr);
	if (i < 0)
		return NULL;
	const struct sa_sym_hist *h = &s->hists[i];
	for (uint32_t k = 0; k < h->n; k++) {
		if (h->runs[k].first_ts > last_ts)
			break;
		if (h->runs[k].last_ts >= first_ts)
			return &h->runs[k];
	}
	return NULL;
}

static void on_use(struct sa_symbols *s, const struct sa_event *e)
{
	struct sa_sym_proc *p = sa_sym_proc(s, e->trace, e->vpid, 1);
	int64_t obj, id;
	if (!p || !sa_ev_get(e, "obj", &obj) || !sa_ev_get(e, "id", &id))
		return;
	uint32_t pi = (uint32_t)(p - s->procs);
	int64_t si = stack_index(s, pi, (uint64_t)id, 1); /* frames may come later */
	if (si < 0)
		return;
	pend_set(s, pi, e, (uint64_t)obj, (uint32_t)si);
	int64_t oi = sa_map_get(&s->obj_map, pi, (uint64_t)obj);
	if (oi < 0) {
		if (sa_grow((void **)&s->objs, s->nobjs, &s->capobjs, sizeof(*s->objs)) ||
		    sa_map_put(&s->obj_map, pi, (uint64_t)obj, s->nobjs))
			return;
		oi = s->nobjs++;
		memset(&s->objs[oi], 0, sizeof(s->objs[oi]));
	}
	struct sa_sym_obj *o = &s->objs[oi];
	for (unsigned k = 0; k < o->n; k++)
		if (o->stack[k] == (uint32_t)si) {
			o->uses[k]++;
			return;
		}
	if (o->n < SA_SYM_OBJ_STACKS) {
		o->stack[o->n] = (uint32_t)si;
		o->uses[o->n++] = 1;
	} else {
		o->more++;
	}
}

void sa_symbols_feed(struct sa_model *m, const struct sa_event *e)
{
	const char *name = e->name;
	if (!name)
		return;
	int module = !strncmp(name, "lttng_ust_statedump:", 20);
	int dl = !strncmp(name, "lttng_ust_dl:", 13);
	int stack = !strncmp(name, "synctrace_stack:", 16);
	if (!module && !dl && !stack) {
		if (e->id == SA_EV_meta_mapping || e->id == SA_EV_meta_module) {
			struct sa_symbols *s = symbols_of(m);
			if (!s)
				m->oom = 1;
			else if (e->id == SA_EV_meta_module)
				on_module(s, e);
			else
				on_mapping(s, e);
		} else if (!strncmp(name, "synctrace_", 10)) {
			on_object_event(m, e, name);
		}
		return;
	}
	struct sa_symbols *s = symbols_of(m);
	if (!s) {
		m->oom = 1;
		return;
	}
	if (module)
		on_module_event(s, e, name + 20);
	else if (dl)
		on_module_event(s, e, name + 13);
	else if (!strcmp(name + 16, "frames"))
		on_frames(s, e);
	else if (!strcmp(name + 16, "use"))
		on_use(s, e);
}

void sa_symbols_free(struct sa_symbols *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->nprocs; i++) {
		struct sa_sym_proc *p = &s->procs[i];
		sa_sym_proc_reset(p);
		for (uint32_t k = 0; k < p->nmods; k++)
			module_clear(&p->mods[k]);
		free(p->mods);
		for (uint32_t k = 0; k < p->nshms; k++)
			free(p->shms[k].path);
		free(p->shms);
	}
	for (uint32_t i = 0; i < s->nstacks; i++)
		free(s->stacks[i].frames);
	free(s->procs);
	free(s->stacks);
	free(s->objs);
	for (uint32_t i = 0; i < s->nhists; i++)
		free(s->hists[i].runs);
	free(s->hists);
	free(s->pends);
	free(s->wraps);
	sa_map_free(&s->hist_map);
	sa_map_free(&s->pend_map);
	sa_map_free(&s->wrap_map);
	sa_map_free(&s->shinit_map);
	sa_map_free(&s->proc_map);
	sa_map_free(&s->stack_map);
	sa_map_free(&s->obj_map);
	free(s);
}

int sa_symbols_object_stack(const struct sa_model *m, const struct sa_object *ob,
			    unsigned k, const uint64_t **frames, uint64_t *uses)
{
	struct sa_symbols *s = m->symbols;
	if (!s || ob->proc >= m->nprocs)
		return -1;
	const struct sa_proc *mp = &m->procs[ob->proc];
	struct sa_sym_proc *p = sa_sym_proc(s, mp->trace, mp->vpid, 0);
	if (!p)
		return -1;
	int64_t oi = sa_map_get(&s->obj_map, (uint64_t)(p - s->procs), ob->addr);
	if (oi < 0 || k >= s->objs[oi].n)
		return -1;
	const struct sa_sym_stack *st = &s->stacks[s->objs[oi].stack[k]];
	*frames = st->frames;
	*uses = s->objs[oi].uses[k];
	return (int)st->n;
}
