/* Folding objects into classes, so memory follows the live objects and
 * the classes, not every object ever seen.
 *
 * An object that is destroyed, or whose process ended after its init was
 * traced, is folded into its class (proc, type, caller: the init site, or
 * the first call site seen; and the creation stack when recorded): a slot of its own, outside the object map,
 * whose numbers are the sums over its objects (instances of them). The
 * object's slot stays, as a tombstone (instances 0, klass the class),
 * with its identity only (proc, address, type, caller, times): indexes
 * other state holds (findings, lock-order edges, timeline spans) stay
 * valid and can be followed to the class (sa_model_row). Its family
 * state, ledger, blame, wakers and pairs move to the class. */
#include <stdlib.h>

#include "sa_model.h"
#include "sa_spin_replay.h"
#include "sa_symbols.h"

void sa_model_keep_objects(struct sa_model *m, int keep)
{
	m->keep_objects = keep;
}

uint32_t sa_model_row(const struct sa_model *m, uint32_t oi)
{
	return oi < m->nobjs && !m->objs[oi].instances ? m->objs[oi].klass : oi;
}

uint32_t sa_model_objects_seen(const struct sa_model *m)
{
	uint64_t n = m->unrecorded;
	for (uint32_t i = 0; i < m->nobjs; i++)
		n += !m->objs[i].is_class;
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* The per-object futex and spin counters (struct sa_object). */
static int fold_counters(struct sa_object *c, const struct sa_object *o)
{
	SA_MERGE_SUM(c, o, fx_waits);
	SA_MERGE_SUM(c, o, fx_woken_ret);
	SA_MERGE_SUM(c, o, fx_eagain);
	SA_MERGE_SUM(c, o, fx_timedout);
	SA_MERGE_SUM(c, o, fx_eintr);
	SA_MERGE_SUM(c, o, fx_slept_ns);
	SA_MERGE_SUM(c, o, fx_wakes);
	SA_MERGE_SUM(c, o, fx_wasted);
	SA_MERGE_SUM(c, o, fx_woken);
	SA_MERGE_SUM(c, o, fx_requeues);
	SA_MERGE_SUM(c, o, fx_requeued);
	SA_MERGE_SUM(c, o, wake_then_block);
	SA_MERGE_SUM(c, o, sp_loops);
	SA_MERGE_SUM(c, o, sp_acquired);
	SA_MERGE_SUM(c, o, sp_gave_up);
	SA_MERGE_SUM(c, o, sp_saw_waiters);
	SA_MERGE_SUM(c, o, sp_ns);
	SA_MERGE_SUM(c, o, events);
	c->sp_modes |= o->sp_modes;
	if (o->first_ts < c->first_ts)
		c->first_ts = o->first_ts;
	if (o->last_ts > c->last_ts)
		c->last_ts = o->last_ts;
	c->destroyed = c->destroyed && o->destroyed;
	return sa_dist_merge(&c->herd, &o->herd) | sa_dist_merge(&c->sp_iter, &o->sp_iter);
}

void sa_model_fold(struct sa_model *m, uint32_t oi)
{
	struct sa_object *o = &m->objs[oi];
	const struct sa_family *f = sa_family_of_type(o->type);
	if (m->keep_objects || o->instances != 1 || !f || !f->state_size || !o->ext)
		return;
	uint64_t ka = (uint64_t)o->proc << 8 | (unsigned)o->type;
	/* With stacks, the creation stack too: a wrapper's objects share its
	 * caller but not their stacks (analysis/symbols names them after the
	 * wrapper's callers). 0 without stacks: the caller alone. */
	uint64_t kb = o->caller ^ sa_symbols_creation_stack(m, oi) * 0x9e3779b97f4a7c15ull;
	int64_t ci = sa_map_get(&m->class_map, ka, kb);
	struct sa_object *c;
	if (ci < 0) {
		uint32_t n;
		if (!(c = sa_model_slot(m, &n)) || sa_map_put(&m->class_map, ka, kb, n)) {
			m->oom = 1;
			return;
		}
		o = &m->objs[oi]; /* the slots moved */
		c->proc = o->proc;
		c->addr = o->addr; /* its first object's */
		c->type = o->type;
		c->caller = o->caller;
		c->first_ts = o->first_ts;
		c->last_ts = o->last_ts;
		c->destroyed = 1;
		c->inited = 1;
		c->is_class = 1;
		c->ext = o->ext; /* the first object's state is the class's */
		c->ext_free = o->ext_free;
		o->ext = NULL;
		ci = n;
	} else {
		c = &m->objs[ci];
		if (f->state_merge(m, c->ext, o->ext))
			m->oom = 1;
	}
	if (fold_counters(c, o))
		m->oom = 1;
	c->instances += 1 + o->unrecorded;
	sa_waits_fold(m, (uint32_t)ci, oi);
	sa_wl_fold(m, (uint32_t)ci, oi);
	sa_spin_replay_fold(m, (uint32_t)ci, oi);
	o = &m->objs[oi];
	if (o->ext && o->ext_free)
		o->ext_free(o->ext);
	sa_dist_free(&o->herd);
	sa_dist_free(&o->sp_iter);
	struct sa_object tomb = {
		.proc = o->proc, .addr = o->addr, .instance = o->instance, .type = o->type,
		.caller = o->caller, .first_ts = o->first_ts, .last_ts = o->last_ts,
		.events = o->events, .destroyed = o->destroyed, .inited = o->inited,
		.next_in_proc = o->next_in_proc, .klass = (uint32_t)ci, .instances = 0,
	};
	*o = tomb;
	m->c_obj_ok = 0;
	m->folded++;
}

void sa_model_destroyed(struct sa_model *m, uint32_t oi)
{
	m->objs[oi].destroyed = 1;
	m->fold_obj_due = 1;
	m->fold_oi = oi;
}

void sa_model_proc_ended(struct sa_model *m, uint32_t pi)
{
	m->fold_proc_due = 1;
	m->fold_pi = pi;
}

void sa_model_fold_due(struct sa_model *m)
{
	if (m->fold_obj_due) {
		m->fold_obj_due = 0;
		sa_model_fold(m, m->fold_oi);
	}
	if (m->fold_proc_due) {
		m->fold_proc_due = 0;
		for (uint32_t i = m->procs[m->fold_pi].obj_head; i; i = m->objs[i - 1].next_in_proc)
			if (m->objs[i - 1].inited && !m->objs[i - 1].shared) /* others may use it */
				sa_model_fold(m, i - 1);
	}
}
