/* The model's bookkeeping: identities (see sa_model.h), counts, dispatch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa_config.h"
#include "sa_model.h"
#include "sa_symbols.h"
#include "sa_spin_replay.h"
#include "sa_waitfor.h"

/* The families (sa_family.h), by object type, and by event id. */
static const struct sa_family *const families[SA_OBJ_NTYPES] = {
#define SA_FAMILY(f, F) [SA_OBJ_##F] = &sa_family_##f,
#include "sa_families.h"
#undef SA_FAMILY
};
static const struct sa_family *by_event[SA_EV_COUNT];
static int dispatch_ready;

static void build_dispatch(void)
{
	char prov[64];
	for (unsigned t = 1; t < SA_OBJ_NTYPES; t++) {
		snprintf(prov, sizeof(prov), "synctrace_%s", families[t]->name);
		for (int id = 1; id < SA_EV_COUNT; id++)
			if (strcmp(sa_event_provider((enum sa_event_id)id), prov) == 0)
				by_event[id] = families[t];
	}
	dispatch_ready = 1;
}

const struct sa_family *sa_family_of_type(unsigned type)
{
	return type && type < SA_OBJ_NTYPES ? families[type] : NULL;
}

const struct sa_family *sa_family_of_event(unsigned id)
{
	if (!dispatch_ready)
		build_dispatch();
	return id < SA_EV_COUNT ? by_event[id] : NULL;
}

const char *sa_obj_type_name(enum sa_obj_type t)
{
	return t && (unsigned)t < SA_OBJ_NTYPES ? families[t]->name : "unknown";
}

struct sa_model *sa_model_new(void)
{
	if (!dispatch_ready)
		build_dispatch();
	struct sa_model *m = calloc(1, sizeof(*m));
	if (m) {
		m->first_ts = m->held_first = INT64_MAX;
		m->last_ts = m->held_last = INT64_MIN;
		m->work_id = SA_EV_work_done;
		m->shared_key = sa_symbols_shared_key; /* one object per shared mapping key */
	}
	return m;
}

void sa_model_free(struct sa_model *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		struct sa_object *o = &m->objs[i];
		sa_dist_free(&o->herd);
		sa_dist_free(&o->sp_iter);
		if (o->ext && o->ext_free)
			o->ext_free(o->ext);
		sa_obj_waits_free(o);
		sa_wl_obj_free(o->wl);
	}
	sa_wl_model_free(&m->wl);
	sa_spin_replay_free(m->replay);
	for (unsigned i = 0; i < m->ntraces; i++)
		free(m->trace_names[i]);
	free(m->trace_names);
	for (unsigned i = 0; i < m->nhosted; i++)
		free(m->trace_hosts[i]);
	free(m->trace_hosts);
	free(m->work_name);
	free(m->work_field);
	free(m->procs);
	free(m->threads);
	free(m->objs);
	free(m->pairs);
	free(m->discards);
	sa_symbols_free(m->symbols);
	sa_waitfor_free(m->waitfor);
	sa_map_free(&m->proc_map);
	sa_map_free(&m->thread_map);
	sa_map_free(&m->obj_map);
	sa_map_free(&m->pair_map);
	sa_map_free(&m->class_map);
	sa_map_free(&m->shared_map);
	sa_map_free(&m->node_map);
	sa_map_free(&m->base_map);
	free(m->bases);
	free(m);
}

int sa_grow(void **arr, uint32_t n, uint32_t *cap, size_t elem)
{
	if (n < *cap)
		return 0;
	uint32_t c = *cap ? *cap * 2 : 16;
	void *p = realloc(*arr, (size_t)c * elem);
	if (!p)
		return -1;
	memset((char *)p + (size_t)*cap * elem, 0, (size_t)(c - *cap) * elem);
	*arr = p;
	*cap = c;
	return 0;
}

static void copy_name(char *dst, const char *src)
{
	if (!src || !strncmp(dst, src, SA_NAME_MAX - 1))
		return;
	strncpy(dst, src, SA_NAME_MAX - 1);
	dst[SA_NAME_MAX - 1] = 0;
}

static struct sa_proc *new_proc(struct sa_model *m, const struct sa_event *e, uint32_t inst,
				uint32_t *idx)
{
	if (sa_grow((void **)&m->procs, m->nprocs, &m->capprocs, sizeof(*m->procs)) ||
	    sa_map_put(&m->proc_map, e->trace, (uint32_t)e->vpid, m->nprocs)) {
		m->oom = 1;
		return NULL;
	}
	struct sa_proc *p = &m->procs[m->nprocs];
	m->c_proc_ok = m->c_thread_ok = m->c_obj_ok = 0;
	memset(p, 0, sizeof(*p));
	p->trace = e->trace;
	p->vpid = e->vpid;
	p->instance = inst;
	p->first_ts = e->ts;
	p->last_ts = e->ts;
	*idx = m->nprocs++;
	return p;
}

struct sa_proc *sa_model_proc(struct sa_model *m, const struct sa_event *e, uint32_t *idx)
{
	if (m->c_proc_ok && m->c_trace == e->trace && m->c_vpid == e->vpid) {
		*idx = m->c_pi;
		return &m->procs[m->c_pi];
	}
	int64_t i = sa_map_get(&m->proc_map, e->trace, (uint32_t)e->vpid);
	if (i >= 0) {
		*idx = (uint32_t)i;
		m->c_proc_ok = 1;
		m->c_trace = e->trace;
		m->c_vpid = e->vpid;
		m->c_pi = (uint32_t)i;
		m->c_thread_ok = m->c_obj_ok = 0;
		return &m->procs[i];
	}
	return new_proc(m, e, 0, idx);
}

static struct sa_thread *new_thread(struct sa_model *m, uint32_t pi, const struct sa_event *e,
				    uint32_t inst, uint32_t *idx)
{
	if (sa_grow((void **)&m->threads, m->nthreads, &m->capthreads, sizeof(*m->threads)) ||
	    sa_map_put(&m->thread_map, pi, (uint32_t)e->vtid, m->nthreads)) {
		m->oom = 1;
		return NULL;
	}
	struct sa_thread *t = &m->threads[m->nthreads];
	m->c_thread_ok = 0;
	memset(t, 0, sizeof(*t));
	t->proc = pi;
	t->vtid = e->vtid;
	t->instance = inst;
	t->first_ts = t->last_ts = e->ts;
	m->procs[pi].nthreads++;
	*idx = m->nthreads++;
	if (m->nbases)
		sa_thread_take_base(m, t, e);
	return t;
}

/* ns over t's life, in [0, 1]; -1 when clearly more than its life (CPU
 * and run-queue time are counted from the thread's creation, its life
 * from its first event: a few ms of slack, and 2 % for clocks that
 * differ; a thread alive at its process's announcement, main with a
 * start-up that can be long, has its life and times from the
 * announcement on, format minor 18: thread.c, meta:base). */
static double life_share(const struct sa_thread *t, uint64_t ns)
{
	if (t->last_ts <= t->first_ts)
		return -1;
	uint64_t life = (uint64_t)(t->last_ts - t->first_ts);
	if (ns > life + life / 50 + 2000000)
		return -1;
	return ns < life ? (double)ns / (double)life : 1.0;
}

double sa_thread_cpu_share(const struct sa_thread *t)
{
	return t->have_cpu ? life_share(t, t->cpu_ns) : -1;
}

double sa_thread_runq_share(const struct sa_thread *t)
{
	return t->have_cpu && t->have_runq && sa_thread_cpu_share(t) >= 0
		       ? life_share(t, t->runq_ns) : -1;
}

struct sa_thread *sa_model_thread(struct sa_model *m, const struct sa_event *e, uint32_t *idx)
{
	uint32_t pi;
	if (!sa_model_proc(m, e, &pi))
		return NULL;
	if (m->c_thread_ok && m->c_vtid == e->vtid) {
		*idx = m->c_ti;
		return &m->threads[m->c_ti];
	}
	int64_t i = sa_map_get(&m->thread_map, pi, (uint32_t)e->vtid);
	if (i >= 0) {
		*idx = (uint32_t)i;
		m->c_thread_ok = 1;
		m->c_vtid = e->vtid;
		m->c_ti = (uint32_t)i;
		return &m->threads[i];
	}
	return new_thread(m, pi, e, 0, idx);
}

struct sa_object *sa_model_slot(struct sa_model *m, uint32_t *idx)
{
	if (sa_grow((void **)&m->objs, m->nobjs, &m->capobjs, sizeof(*m->objs))) {
		m->oom = 1;
		return NULL;
	}
	struct sa_object *o = &m->objs[m->nobjs];
	memset(o, 0, sizeof(*o));
	*idx = m->nobjs++;
	return o;
}

/* A new object at addr; after_ts: when the one it replaces there was
 * last seen. */
static struct sa_object *new_object(struct sa_model *m, uint32_t pi, const struct sa_event *e,
				    uint64_t addr, uint32_t inst, uint32_t *idx)
{
	int64_t prev = sa_map_get(&m->obj_map, pi, addr);
	int64_t after = prev >= 0 ? m->objs[prev].last_ts : 0;
	if (sa_grow((void **)&m->objs, m->nobjs, &m->capobjs, sizeof(*m->objs)) ||
	    sa_map_put(&m->obj_map, pi, addr, m->nobjs)) {
		m->oom = 1;
		return NULL;
	}
	struct sa_object *o = &m->objs[m->nobjs];
	m->c_obj_ok = 0;
	memset(o, 0, sizeof(*o));
	o->next_in_proc = m->procs[pi].obj_head;
	m->procs[pi].obj_head = m->nobjs + 1;
	o->proc = pi;
	o->addr = addr;
	o->instance = inst;
	o->instances = 1;
	o->first_ts = o->last_ts = e->ts;
	o->after_ts = after;
	*idx = m->nobjs++;
	return o;
}

/* A new object at addr of process pi: the process-shared object it is,
 * if the mapping says so (then this process's address points to it too),
 * else a new object of its own. */
static struct sa_object *first_sight(struct sa_model *m, uint32_t pi, const struct sa_event *e,
				     uint64_t addr, uint32_t inst, uint32_t *idx)
{
	uint64_t key[3], ka = 0, kb = 0;
	int shared = m->shared_key && m->shared_key(m, e->trace, e->vpid, addr, key);
	if (shared) {
		ka = key[1];
		kb = key[0] * 0x9e3779b97f4a7c15ull ^ key[2];
		int64_t i = sa_map_get(&m->shared_map, ka, kb);
		if (i >= 0 && m->objs[i].instances) {
			if (sa_map_put(&m->obj_map, pi, addr, (uint32_t)i)) {
				m->oom = 1;
				return NULL;
			}
			m->c_obj_ok = 0;
			*idx = (uint32_t)i;
			return &m->objs[i];
		}
	}
	struct sa_object *o = new_object(m, pi, e, addr, inst, idx);
	if (o && shared) {
		o->shared = 1;
		if (sa_map_put(&m->shared_map, ka, kb, *idx))
			m->oom = 1;
	}
	return o;
}

struct sa_object *sa_model_object(struct sa_model *m, const struct sa_event *e,
				  uint64_t addr, uint32_t *idx)
{
	uint32_t pi;
	if (!sa_model_proc(m, e, &pi))
		return NULL;
	int64_t i;
	if (m->c_obj_ok && m->c_addr == addr) {
		i = m->c_oi;
	} else if ((i = sa_map_get(&m->obj_map, pi, addr)) >= 0) {
		m->c_obj_ok = 1;
		m->c_addr = addr;
		m->c_oi = (uint32_t)i;
	}
	if (i >= 0 && m->objs[i].instances) {
		struct sa_object *o = &m->objs[i];
		*idx = (uint32_t)i;
		o->events++;
		if (e->ts > o->last_ts)
			o->last_ts = e->ts;
		return o;
	}
	/* New, or the address of an object folded into its class: a new
	 * instance (a late event for the old one starts it: rare). */
	struct sa_object *o = first_sight(m, pi, e, addr, i >= 0 ? m->objs[i].instance + 1 : 0, idx);
	if (o)
		o->events++;
	return o;
}

/* An init: a destroyed object at this address is a new instance; late
 * events for the old one (a wake issued just before the destroy) stay with
 * whichever instance is current when they arrive. */
struct sa_object *sa_model_object_init(struct sa_model *m, const struct sa_event *e,
				       uint64_t addr, uint32_t *idx)
{
	uint32_t pi;
	if (!sa_model_proc(m, e, &pi))
		return NULL;
	int64_t i = sa_map_get(&m->obj_map, pi, addr);
	struct sa_object *o;
	if (i >= 0 && m->objs[i].destroyed && m->objs[i].instances) {
		o = new_object(m, pi, e, addr, m->objs[i].instance + 1, idx);
		if (o)
			o->events++;
	} else {
		o = sa_model_object(m, e, addr, idx);
	}
	if (o)
		o->inited = 1;
	return o;
}

struct sa_object *sa_model_object_as(struct sa_model *m, const struct sa_event *e, uint64_t addr,
				     int is_init, enum sa_obj_type type, uint32_t *idx)
{
	uint32_t pi;
	int64_t i = -1;
	if (type != SA_OBJ_UNKNOWN && sa_model_proc(m, e, &pi))
		i = sa_map_get(&m->obj_map, pi, addr);
	const struct sa_object *p = i >= 0 ? &m->objs[i] : NULL;
	if (!p || !p->instances || p->shared || p->type == SA_OBJ_UNKNOWN || p->type == type)
		return is_init ? sa_model_object_init(m, e, addr, idx)
			       : sa_model_object(m, e, addr, idx);
	/* A destroy of the object that was there: it ended already (a kept
	 * destroy comes late); nothing begins. */
	if (e->id == SA_EV_sem_destroy || e->id == SA_EV_cond_destroy ||
	    e->id == SA_EV_rwlock_destroy || e->id == SA_EV_mutex_destroy ||
	    e->id == SA_EV_barrier_destroy)
		return NULL;
	m->objs[i].destroyed = 1;
	struct sa_object *o = new_object(m, pi, e, addr, p->instance + 1, idx);
	if (!o)
		return NULL;
	o->events++;
	o->inited = is_init;
	sa_model_fold(m, (uint32_t)i); /* (the slots may move) */
	return &m->objs[*idx];
}

void *sa_model_typed(struct sa_model *m, struct sa_object *o, enum sa_obj_type type)
{
	const struct sa_family *f = sa_family_of_type(type);
	if (!f || !f->state_size || (o->type != type && o->type != SA_OBJ_UNKNOWN) ||
	    !o->instances)
		return NULL; /* another family's object, or a folded one */
	if (!o->ext) {
		if (!(o->ext = calloc(1, f->state_size))) {
			m->oom = 1;
			return NULL;
		}
		o->ext_free = f->state_free;
		o->type = type;
	}
	return o->ext;
}

struct sa_object *sa_model_family_object(struct sa_model *m, const struct sa_event *e,
					 int is_init, enum sa_obj_type type, uint32_t *idx)
{
	uint64_t addr, caller;
	if (!sa_ev_obj(e, &addr)) {
		m->malformed++;
		return NULL;
	}
	struct sa_object *o = sa_model_object_as(m, e, (uint64_t)addr, is_init, type, idx);
	if (!o || !sa_model_typed(m, o, type))
		return NULL;
	if (!o->caller && (caller = sa_ev_caller(e)))
		o->caller = caller;
	return o;
}

struct sa_thread *sa_model_thread_tid(struct sa_model *m, const struct sa_event *e, int32_t vtid,
				      uint32_t *idx)
{
	struct sa_event x = *e;
	x.vtid = vtid;
	x.procname = NULL;
	return sa_model_thread(m, &x, idx);
}

int sa_model_observe(struct sa_model *m,
		     void (*fn)(void *ctx, struct sa_model *m, const struct sa_event *e,
				uint32_t pi, uint32_t ti),
		     void *ctx)
{
	if (m->nobservers >= sizeof(m->observers) / sizeof(m->observers[0]))
		return -1;
	m->observers[m->nobservers].fn = fn;
	m->observers[m->nobservers].ctx = ctx;
	m->nobservers++;
	return 0;
}

int sa_model_set_work_event(struct sa_model *m, const char *spec)
{
	const char *slash = strchr(spec, '/'), *colon = strchr(spec, ':');
	size_t len = slash ? (size_t)(slash - spec) : strlen(spec);
	if (!colon || colon > spec + len || colon == spec || colon + 1 == spec + len ||
	    (slash && !slash[1]))
		return -1;
	char *name = strndup(spec, len), *field = slash ? strdup(slash + 1) : NULL;
	if (!name || (slash && !field)) {
		free(name);
		free(field);
		return -1;
	}
	enum sa_event_id id = sa_event_lookup(name);
	if ((id == SA_EV_UNKNOWN && !strncmp(name, "synctrace_", 10)) || !m) {
		free(name);
		free(field);
		return id == SA_EV_UNKNOWN && !strncmp(spec, "synctrace_", 10) ? -1 : 0;
	}
	free(m->work_name);
	free(m->work_field);
	m->work_name = name;
	m->work_field = field;
	m->work_id = id;
	return 0;
}

const char *sa_model_work_name(const struct sa_model *m)
{
	return m->work_name ? m->work_name : "synctrace_work:done";
}

/* One occurrence of the --work-event. */
static void work_event(struct sa_model *m, const struct sa_event *e, uint32_t pi, uint32_t ti)
{
	int64_t v = 1;
	if (m->work_field && (!sa_ev_get(e, m->work_field, &v) || v < 0))
		v = 0;
	m->procs[pi].units += (uint64_t)v;
	m->procs[pi].unit_events++;
	m->threads[ti].units += (uint64_t)v;
	m->threads[ti].unit_events++;
}

/* (*arr)[i] = a copy of str, the array (*n long) grown to hold i. */
static void trace_str(struct sa_model *m, char ***arr, unsigned *n, unsigned i, const char *str)
{
	if (i >= *n) {
		char **p = realloc(*arr, (i + 1) * sizeof(char *));
		if (!p) {
			m->oom = 1;
			return;
		}
		for (unsigned k = *n; k <= i; k++)
			p[k] = NULL;
		*arr = p;
		*n = i + 1;
	}
	free((*arr)[i]);
	(*arr)[i] = str ? strdup(str) : NULL;
}

void sa_model_name_trace(struct sa_model *m, unsigned i, const char *name)
{
	trace_str(m, &m->trace_names, &m->ntraces, i, name);
}

void sa_model_discarded(struct sa_model *m, unsigned trace, const char *stream,
			int64_t begin, int64_t end, uint64_t count, int count_known)
{
	uint64_t raw = count_known ? count : 0;
	/* A counter that went backwards wraps to a count near 2^64: no trace
	 * loses more than 2^63 events, so such a count is unknown (the
	 * numbers around it still lower bounds). */
	if (count_known && count > (uint64_t)INT64_MAX)
		count_known = 0;
	if (count_known)
		m->discarded_total += count;
	else
		m->discarded_unknown = 1;
	if (sa_grow((void **)&m->discards, m->ndiscards, &m->capdiscards, sizeof(*m->discards))) {
		m->oom = 1;
		return;
	}
	struct sa_discard *d = &m->discards[m->ndiscards++];
	d->trace = trace;
	snprintf(d->stream, sizeof(d->stream), "%s", stream ? stream : "");
	d->begin = begin;
	d->end = end;
	d->count = count_known ? count : 0;
	d->count_known = count_known;
	d->raw_count = raw;
}

static void count_other(struct sa_model *m, const char *name)
{
	char prov[48];
	const char *colon = name ? strchr(name, ':') : NULL;
	size_t len = colon ? (size_t)(colon - name) : (name ? strlen(name) : 0);
	if (len >= sizeof(prov))
		len = sizeof(prov) - 1;
	memcpy(prov, name ? name : "", len);
	prov[len] = 0;
	for (unsigned i = 0; i < m->nother; i++)
		if (!strcmp(m->other[i].name, prov)) {
			m->other[i].events++;
			return;
		}
	unsigned i = m->nother < 32 ? m->nother++ : 31;
	if (i == 31 && m->nother == 32 && strcmp(m->other[31].name, "(more)"))
		strcpy(m->other[31].name, "(more)");
	else if (m->other[i].events == 0)
		strcpy(m->other[i].name, prov);
	m->other[i].events++;
}

int64_t sa_model_span(const struct sa_model *m)
{
	if (m->held_last > m->held_first)
		return m->held_last - m->held_first;
	return m->last_ts > m->first_ts ? m->last_ts - m->first_ts : 0;
}

/* Format 4 folds a spin that acquired a semaphore, mutex or rwlock into its
 * acquired event (how SPIN), one that saw a barrier's round open into the
 * departure and one that saw a condvar waiter released into its woke
 * (spins >= 0; src/wait/wait.h, st_spin_from_folded; EVENTS.md, "Spins
 * folded into acquisitions"): the loop it stands for, in *loop, for the
 * modules that read spin:loop. 1 if e is such an event. */
static int folded_spin(const struct sa_model *m, const struct sa_event *e, struct sa_event *loop)
{
	int how = -1, spins, wait;
	int64_t v;
	switch (e->id) {
	case SA_EV_mutex_acquired:
		how = sa_ev_at(e, SA_F_mutex_acquired_how, &v) && v == ST_MUTEX_HOW_SPIN;
		spins = SA_F_mutex_acquired_spins, wait = SA_F_mutex_acquired_wait_ns;
		break;
	case SA_EV_sem_acquired:
		how = sa_ev_at(e, SA_F_sem_acquired_how, &v) && v == ST_SEM_HOW_SPIN;
		spins = SA_F_sem_acquired_spins, wait = SA_F_sem_acquired_wait_ns;
		break;
	case SA_EV_rwlock_acquired:
		how = sa_ev_at(e, SA_F_rwlock_acquired_how, &v) && v == ST_RWLOCK_HOW_SPIN;
		spins = SA_F_rwlock_acquired_spins, wait = SA_F_rwlock_acquired_wait_ns;
		break;
	case SA_EV_barrier_departure: /* spins -1: not folded (older traces: absent) */
		spins = SA_F_barrier_departure_spins, wait = SA_F_barrier_departure_wait_ns;
		break;
	case SA_EV_cond_woke: /* the same; its spin began after the enqueue */
		spins = SA_F_cond_woke_spins, wait = SA_F_cond_woke_spin_ns;
		break;
	default:
		return 0;
	}
	if (how < 0)
		how = sa_ev_at(e, spins, &v) && v >= 0;
	int64_t pi = sa_map_get(&m->proc_map, e->trace, (uint32_t)e->vpid);
	if (!how || pi < 0 || m->procs[pi].fmt_major < SA_FORMAT_FOLDS_SPINS)
		return 0;
	memset(loop, 0, sizeof(*loop));
	loop->id = SA_EV_spin_loop;
	loop->ts = e->ts;
	loop->trace = e->trace;
	loop->vpid = e->vpid;
	loop->vtid = e->vtid;
	loop->procname = e->procname;
	loop->cycles = e->cycles;
	loop->freq = e->freq;
	sa_ev_set(loop, "obj", e->f[0].v);
	sa_ev_set(loop, "iterations", e->f[spins].v);
	sa_ev_set(loop, "outcome", ST_SPIN_OUTCOME_ACQUIRED);
	sa_ev_set(loop, "mode", m->procs[pi].spin_mode);
	sa_ev_set(loop, "spin_ns", e->f[wait].v);
	return 1;
}

static int feed(struct sa_model *m, const struct sa_event *e, int written);

int sa_model_feed(struct sa_model *m, const struct sa_event *e)
{
	struct sa_event loop, owned;
	int64_t tid;
	/* A table another thread sent (the process's exit sends those of
	 * the threads still alive, format minor 17): its owner's, as if that
	 * thread had sent it (not its name: the sender's context). */
	if (e->id == SA_EV_summary_object && sa_ev_at(e, SA_F_summary_object_tid, &tid) &&
	    tid > 0 && tid <= INT32_MAX && tid != e->vtid) {
		owned = *e;
		owned.vtid = (int32_t)tid;
		owned.procname = NULL;
		e = &owned;
	}
	if (folded_spin(m, e, &loop) && feed(m, &loop, 0) < 0)
		return -1;
	return feed(m, e, 1);
}

/* written: 0 for an event the trace holds only inside another (a folded
 * spin): not counted among the events read. */
static int feed(struct sa_model *m, const struct sa_event *e, int written)
{
	enum sa_event_id id = (unsigned)e->id < SA_EV_COUNT ? e->id : SA_EV_UNKNOWN;
	m->events += written;
	m->per_id[id] += written;
	m->ev_wait.valid = 0;
	m->ev_hold.valid = 0;
	if (e->ts < m->first_ts)
		m->first_ts = e->ts;
	if (e->ts > m->last_ts)
		m->last_ts = e->ts;
	if (!sa_event_announces(id)) {
		if (e->ts < m->held_first)
			m->held_first = e->ts;
		if (e->ts > m->held_last)
			m->held_last = e->ts;
	}
	if (id == SA_EV_UNKNOWN) {
		count_other(m, e->name);
		/* A foreign event as the unit of work (--work-event). */
		if (m->work_name && m->work_id == SA_EV_UNKNOWN && e->name &&
		    !strcmp(e->name, m->work_name)) {
			uint32_t wpi, wti;
			if (sa_model_proc(m, e, &wpi) && sa_model_thread(m, e, &wti))
				work_event(m, e, wpi, wti);
		}
		return 0;
	}

	uint32_t pi, ti;
	/* A new process with a pid seen before (or exec): new instance; not
	 * the same process announcing itself again (meta.c). */
	if (id == SA_EV_meta_start) {
		int64_t old = sa_map_get(&m->proc_map, e->trace, (uint32_t)e->vpid);
		if (old >= 0 && sa_meta_new_instance(&m->procs[old], e)) {
			if (!new_proc(m, e, m->procs[old].instance + 1, &pi))
				return 0;
		}
	}
	struct sa_proc *p = sa_model_proc(m, e, &pi);
	if (!p)
		return 0;
	/* The durations' clock is said by whichever thread sees it settle
	 * first, the probes' own flusher among them: the process's, no
	 * thread's (tracepoints/probes.c, st_clock_tell). */
	if (id == SA_EV_meta_clock) {
		p->events += written;
		if (e->ts > p->last_ts)
			p->last_ts = e->ts;
		by_event[id]->event(m, e);
		return 0;
	}
	/* A thread id seen before starting again: new instance. */
	if (id == SA_EV_thread_start) {
		int64_t old = sa_map_get(&m->thread_map, pi, (uint32_t)e->vtid);
		if (old >= 0 && m->threads[old].events) {
			if (!new_thread(m, pi, e, m->threads[old].instance + 1, &ti))
				return 0;
		}
	}
	struct sa_thread *t = sa_model_thread(m, e, &ti);
	if (!t)
		return 0;
	p = &m->procs[pi];
	p->events += written;
	if (e->ts > p->last_ts)
		p->last_ts = e->ts;
	t->events += written;
	if (e->ts > t->last_ts)
		t->last_ts = e->ts;
	if (e->procname) {
		if (!t->named)
			copy_name(t->procname, e->procname);
		if (!p->procname[0] || t->vtid == p->vpid)
			copy_name(p->procname, e->procname);
	}
	if (p->fmt_major > SA_FORMAT_MAJOR)
		return -1;
	if (by_event[id])
		by_event[id]->event(m, e);
	sa_wl_feed(m, e, ti);
	if (m->work_name && id == m->work_id)
		work_event(m, e, pi, ti);
	/* Wake-then-block (futex.c): any event of a family (not the futex or
	 * spin layer) by the woken thread on the object it was woken from means
	 * it got past that object. */
	sa_waitfor_feed(m, e, pi, ti);
	t = &m->threads[ti];
	if (t->woken_valid && id != SA_EV_futex_wait && id != SA_EV_futex_wake &&
	    id != SA_EV_futex_requeue && id != SA_EV_spin_loop && id != SA_EV_summary_object) {
		uint64_t addr;
		if (sa_ev_obj(e, &addr) && m->objs[t->woken_obj].addr == addr)
			t->woken_valid = 0;
	}
	sa_spin_replay_feed(m, e, ti);
	for (unsigned i = 0; i < m->nobservers; i++)
		m->observers[i].fn(m->observers[i].ctx, m, e, pi, ti);
	sa_model_fold_due(m);
	return p->fmt_major > SA_FORMAT_MAJOR ? -1 : 0;
}

void sa_model_host_trace(struct sa_model *m, unsigned i, const char *host)
{
	trace_str(m, &m->trace_hosts, &m->nhosted, i, host);
}
