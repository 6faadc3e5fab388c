/* synctrace_mutex: per-mutex counters, waits, holds, misuse.
 *
 * Acquisitions come from the object's own counters, carried by acquired,
 * released (0 there means "not read": the fast unlock path), destroy and
 * counters events, so uncontended traffic is counted without an event per
 * lock. Contended acquisitions are the larger of the acquired events seen
 * (how 1, 2) and the `contended` counter's growth: they agree unless events
 * were discarded. Hold times need the full level, where every lock/unlock
 * pair is one `released` event carrying hold_ns (older traces: an
 * `acquired` for every acquisition, paired with the release). */
#include <stdlib.h>

#include "sa_model.h"
#include "sa_mutex.h"

static void mutex_free(void *p)
{
	struct sa_mutex *x = p;
	sa_dist_free(&x->wait);
	sa_dist_free(&x->hold);
	free(x);
}

struct sa_mutex *sa_mutex_of(struct sa_model *m, struct sa_object *o)
{
	return sa_model_typed(m, o, SA_OBJ_MUTEX);
}

/* A class's counts are the sums of its objects' (base 0). */
static int mutex_merge(struct sa_model *m, void *dp, const void *sp)
{
	struct sa_mutex *d = dp;
	const struct sa_mutex *s = sp;
	(void)m;
	uint64_t acq = sa_mutex_acquisitions(d) + sa_mutex_acquisitions(s);
	uint64_t cont = sa_mutex_contended(d) + sa_mutex_contended(s);
	d->have_acq = d->have_cont = 1;
	d->acq_base = d->cont_base = 0;
	d->acq_last = acq;
	d->acq_more = 0; /* (in acq now, s's too) */
	d->cont_last = cont;
	d->counts_final = d->counts_final && s->counts_final;
	d->full = d->full || s->full;
	d->init_seen |= s->init_seen;
	d->first_seen_held |= s->first_seen_held;
	SA_MERGE_SUM(d, s, acquired_events);
	SA_MERGE_SUM(d, s, releases);
	for (int i = 0; i < ST_MUTEX_HOW_N; i++)
		SA_MERGE_SUM(d, s, how[i]);
	for (int i = 0; i < ST_MUTEX_MISUSE_N; i++)
		SA_MERGE_SUM(d, s, misuse[i]);
	SA_MERGE_SUM(d, s, requested);
	SA_MERGE_SUM(d, s, trylock_failed);
	SA_MERGE_SUM(d, s, timeouts);
	SA_MERGE_SUM(d, s, wakes_released);
	SA_MERGE_SUM(d, s, wasted_released);
	SA_MERGE_SUM(d, s, timeout_wait_ns);
	SA_MERGE_SUM(d, s, handoffs);
	if (s->destroy_result)
		d->destroy_result = s->destroy_result;
	return sa_dist_merge(&d->wait, &s->wait) | sa_dist_merge(&d->hold, &s->hold);
}

uint64_t sa_mutex_acquisitions(const struct sa_mutex *x)
{
	uint64_t c = (x->have_acq && x->acq_last > x->acq_base ? x->acq_last - x->acq_base : 0) +
		     x->acq_more;
	uint64_t seen = x->acquired_events, cont = sa_mutex_contended(x);
	if (seen > c)
		c = seen;
	if (x->full && x->releases > c) /* full level: one released event per hold */
		c = x->releases;
	return cont > c ? cont : c;
}

int sa_mutex_acquisitions_known(const struct sa_mutex *x)
{
	return x->counts_final || x->full;
}

uint64_t sa_mutex_contended(const struct sa_mutex *x)
{
	uint64_t c = x->have_cont && x->cont_last > x->cont_base ? x->cont_last - x->cont_base : 0;
	uint64_t seen = x->how[ST_MUTEX_HOW_SPIN] + x->how[ST_MUTEX_HOW_SLEEP];
	return seen > c ? seen : c;
}

/* A counter value n observed; `includes_now`: n counts an acquisition this
 * event reports (acquired), so the first sighting's base is n - 1. */
static void note_acq(struct sa_mutex *x, int from_start, uint64_t n, int includes_now)
{
	if (!x->have_acq) {
		x->have_acq = 1;
		x->acq_base = from_start ? 0 : n - (includes_now && n ? 1 : 0);
		x->acq_last = x->acq_base;
	}
	if (n > x->acq_last)
		x->acq_last = n;
}

static void note_cont(struct sa_mutex *x, int from_start, uint64_t n, int includes_now)
{
	if (!x->have_cont) {
		x->have_cont = 1;
		x->cont_base = from_start ? 0 : n - (includes_now && n ? 1 : 0);
		x->cont_last = x->cont_base;
	}
	if (n > x->cont_last)
		x->cont_last = n;
}

/* Ownership seen (an acquisition or a release by tid): a hand-off when the
 * previous owner seen was another thread. */
static void note_owner(struct sa_mutex *x, int32_t tid)
{
	if (x->last_owner && x->last_owner != tid)
		x->handoffs++;
	x->last_owner = tid;
}

/* The hold a release ended, when the event says: format 2's acq_ts (when
 * the hold began, a time of the event's own clock), format 1's hold_ns
 * (by name: the definition no longer has it). 1 and *ns, or 0. */
static int release_hold(const struct sa_event *e, uint64_t *ns)
{
	int64_t acq, hold;
	if (sa_ev_at(e, SA_F_mutex_released_acq_ts, &acq) && acq > 0 && e->freq) {
		uint64_t c = e->cycles > (uint64_t)acq ? e->cycles - (uint64_t)acq : 0;
		*ns = e->freq == 1000000000 ? c : (uint64_t)((double)c * 1e9 / (double)e->freq);
		return 1;
	}
	if (sa_ev_get(e, "hold_ns", &hold)) {
		*ns = hold > 0 ? (uint64_t)hold : 0;
		return 1;
	}
	return 0;
}

static void mutex_event(struct sa_model *m, const struct sa_event *e)
{
	uint64_t addr, caller;
	uint32_t oi, ti, pi;
	if (!sa_ev_obj(e, &addr)) {
		m->malformed++;
		return;
	}
	struct sa_object *o = sa_model_object_as(m, e, addr, e->id == SA_EV_mutex_init,
						 SA_OBJ_MUTEX, &oi);
	struct sa_thread *t = sa_model_thread(m, e, &ti);
	struct sa_proc *p = sa_model_proc(m, e, &pi);
	if (!o || !t || !p)
		return;
	struct sa_mutex *x = sa_mutex_of(m, o);
	if (!x)
		return;
	caller = sa_ev_caller(e);
	if (!o->caller)
		o->caller = caller;
	int from_start = x->init_seen || p->have_start;
	int full = p->level >= ST_META_LEVEL_FULL;
	x->full = full;

	switch (e->id) {
	case SA_EV_mutex_init:
		x->init_seen = 1;
		x->kind = (int)e->f[SA_F_mutex_init_kind].v;
		break;
	case SA_EV_mutex_destroy: {
		int64_t r = e->f[SA_F_mutex_destroy_result].v;
		x->destroy_result = (int)r;
		note_acq(x, from_start, (uint64_t)e->f[SA_F_mutex_destroy_acquisitions].v, 0);
		note_cont(x, from_start, (uint32_t)e->f[SA_F_mutex_destroy_contended].v, 0);
		x->counts_final = 1;
		if (r == 0)
			sa_model_destroyed(m, oi);
		break;
	}
	case SA_EV_mutex_counters:
		x->counts_final = 1;
		note_acq(x, from_start, (uint64_t)e->f[SA_F_mutex_counters_acquisitions].v, 0);
		note_cont(x, from_start, (uint32_t)e->f[SA_F_mutex_counters_contended].v, 0);
		break;
	case SA_EV_mutex_requested: {
		int64_t owner = e->f[SA_F_mutex_requested_owner].v;
		uint32_t oti = 0;
		int have = owner > 0 && sa_model_thread_tid(m, e, (int32_t)owner, &oti);
		x->requested++;
		sa_blame_requested(m, oi, ti, have, oti, e->ts);
		break;
	}
	case SA_EV_mutex_acquired: {
		int64_t how = e->f[SA_F_mutex_acquired_how].v, w = e->f[SA_F_mutex_acquired_wait_ns].v;
		uint64_t wait = w > 0 ? (uint64_t)w : 0;
		x->acquired_events++;
		if (how >= 0 && how < ST_MUTEX_HOW_N)
			x->how[how]++;
		note_acq(x, from_start, (uint64_t)e->f[SA_F_mutex_acquired_acquisitions].v, 1);
		if (how == ST_MUTEX_HOW_SPIN || how == ST_MUTEX_HOW_SLEEP) {
			note_cont(x, from_start, (uint32_t)e->f[SA_F_mutex_acquired_contended].v, 1);
			sa_dist_add(&x->wait, wait);
			if (m->threads[ti].in_relock) /* cond:relocked counts it */
				m->threads[ti].in_relock = 0; /* one acquisition, even if relocked is lost */
			else
				sa_model_waited(m, ti, oi, SA_WAIT_MUTEX, wait, 0);
			sa_blame_wait_over(m, oi, e->ts);
		}
		if (how != ST_MUTEX_HOW_RECURSIVE) {
			sa_blame_acquired(m, oi, ti, caller, e->ts);
			note_owner(x, e->vtid);
			x->holder = e->vtid;
			x->hold_since = e->ts;
		}
		break;
	}
	case SA_EV_mutex_released: {
		int64_t n = e->f[SA_F_mutex_released_acquisitions].v;
		int64_t woken = e->f[SA_F_mutex_released_woken].v;
		uint64_t hold = 0;
		int has_hold = release_hold(e, &hold);
		m->ev_hold.valid = has_hold;
		m->ev_hold.ns = hold;
		if (n > 0)
			note_acq(x, from_start, (uint64_t)n, 0);
		/* Held when first seen: the first event is a release whose hold
		 * began before this process was traced (or, in traces without
		 * hold_ns, with no acquisition seen before it). */
		if (full && !x->acquired_events && !x->releases &&
		    (has_hold ? hold > (uint64_t)(e->ts - p->first_ts) : !x->holder))
			x->first_seen_held = 1;
		x->releases++;
		if (woken >= 0) {
			x->wakes_released++;
			if (woken == 0)
				x->wasted_released++;
		}
		uint64_t held = 0;
		int known = 0;
		if (full) {
			if (has_hold) { /* one event per lock/unlock pair at full level */
				held = hold;
				known = 1;
			} else if (x->holder == e->vtid) {
				held = (uint64_t)(e->ts - x->hold_since);
				known = 1;
			}
			if (known)
				sa_dist_add(&x->hold, held);
		}
		sa_blame_released(m, oi, ti, caller, e->ts, known, held);
		note_owner(x, e->vtid);
		x->holder = 0;
		break;
	}
	case SA_EV_mutex_trylock_failed:
		x->trylock_failed++;
		break;
	case SA_EV_mutex_timeout: {
		int64_t w = e->f[SA_F_mutex_timeout_wait_ns].v;
		x->timeouts++;
		x->timeout_wait_ns += w > 0 ? (uint64_t)w : 0;
		sa_model_waited(m, ti, oi, SA_WAIT_MUTEX, w > 0 ? (uint64_t)w : 0, SA_WAITED_TIMEOUT);
		sa_blame_wait_over(m, oi, e->ts);
		break;
	}
	case SA_EV_mutex_misuse: {
		int64_t what = e->f[SA_F_mutex_misuse_what].v;
		x->misuse[what > 0 && what < ST_MUTEX_MISUSE_N ? what : 0]++;
		break;
	}
	default:
		break;
	}
}

const struct sa_family sa_family_mutex = {
	.name = "mutex",
	.event = mutex_event,
	.state_size = sizeof(struct sa_mutex),
	.state_free = mutex_free,
	.state_merge = mutex_merge,
	.first_kind = SA_WAIT_MUTEX,
	.nkinds = 2, /* lock waits, re-acquisitions after a condvar wait */
};
