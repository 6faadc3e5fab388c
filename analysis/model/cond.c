/* synctrace_cond: per-condvar waits, signals, and the timeout race of the
 * 2014 seed (a signaler meeting a waiter that is LEAVING). */
#include <stdlib.h>

#include "sa_cond.h"
#include "sa_model.h"
#include "sa_mutex.h"

static void cond_free(void *p)
{
	struct sa_cond *c = p;
	sa_dist_free(&c->wait);
	sa_dist_free(&c->herd);
	free(c);
}

static int cond_merge(struct sa_model *m, void *dp, const void *sp)
{
	struct sa_cond *d = dp;
	const struct sa_cond *s = sp;
	(void)m;
	d->init_seen |= s->init_seen;
	SA_MERGE_SUM(d, s, waits);
	SA_MERGE_SUM(d, s, timed_waits);
	SA_MERGE_SUM(d, s, signals);
	SA_MERGE_SUM(d, s, broadcasts);
	SA_MERGE_SUM(d, s, moved);
	SA_MERGE_SUM(d, s, leaving);
	SA_MERGE_SUM(d, s, leaving_timeout);
	SA_MERGE_SUM(d, s, leaving_cancel);
	SA_MERGE_SUM(d, s, met_leaving);
	SA_MERGE_SUM(d, s, ref_waits);
	SA_MERGE_SUM(d, s, ref_wait_ns);
	for (int i = 0; i < ST_COND_WOKE_N; i++)
		SA_MERGE_SUM(d, s, woke[i]);
	SA_MERGE_SUM(d, s, spurious);
	SA_MERGE_SUM(d, s, relocked);
	SA_MERGE_SUM(d, s, relock_contended);
	SA_MERGE_SUM(d, s, relock_ns);
	SA_MERGE_SUM(d, s, handoff_requeue);
	SA_MERGE_SUM(d, s, handoff_wake);
	SA_MERGE_SUM(d, s, misuse);
	return sa_dist_merge(&d->wait, &s->wait) | sa_dist_merge(&d->herd, &s->herd);
}

/* The mutex is held again: a wait on the mutex object (its own kind,
 * apart from lock waits), and its holder is now this thread. */
static void relocked(struct sa_model *m, const struct sa_event *e, uint32_t ti, uint64_t ns)
{
	uint32_t mi;
	int64_t addr;
	if (!sa_ev_at(e, SA_F_cond_relocked_mutex, &addr) || e->f[SA_F_cond_relocked_result].v)
		return;
	struct sa_object *mo = sa_model_object(m, e, (uint64_t)addr, &mi);
	if (!mo || !sa_mutex_of(m, mo))
		return;
	if (!mo->caller) /* (no event of its own named it: its first use is here) */
		mo->caller = m->threads[ti].cond_caller;
	int contended = e->f[SA_F_cond_relocked_contended].v != 0;
	sa_model_waited(m, ti, mi, SA_WAIT_COND_RELOCK, ns, contended ? 0 : SA_WAITED_AT_ONCE);
	if (contended)
		sa_blame_relocked(m, mi, ti, ns, e->ts);
	else
		sa_blame_acquired(m, mi, ti, 0, e->ts);
}

static void cond_event(struct sa_model *m, const struct sa_event *e)
{
	int64_t v;
	uint32_t oi, ti;
	struct sa_object *o = sa_model_family_object(m, e, e->id == SA_EV_cond_init,
						     SA_OBJ_COND, &oi);
	if (!o || !sa_model_thread(m, e, &ti))
		return;
	struct sa_cond *c = o->ext;

	switch (e->id) {
	case SA_EV_cond_init:
		c->init_seen = 1;
		c->clock = (int)e->f[SA_F_cond_init_clock].v;
		c->pshared = (int)e->f[SA_F_cond_init_pshared].v;
		break;
	case SA_EV_cond_destroy:
		sa_model_destroyed(m, oi);
		break;
	case SA_EV_cond_misuse:
		c->misuse++;
		break;
	case SA_EV_cond_enqueued:
		c->waits++;
		m->threads[ti].cond_caller = sa_ev_caller(e);
		sa_model_wait_begins(m, ti, oi, e->ts);
		if ((v = e->f[SA_F_cond_enqueued_node].v) &&
		    sa_map_put(&m->node_map, o->proc, (uint64_t)v, ti))
			m->oom = 1;
		if (e->f[SA_F_cond_enqueued_timed].v)
			c->timed_waits++;
		break;
	case SA_EV_cond_signaled: {
		/* counted through signal's `moved`; the waiter's latency here */
		int64_t w = sa_map_get(&m->node_map, o->proc, (uint64_t)e->f[SA_F_cond_signaled_node].v);
		struct sa_thread *wt = w >= 0 ? &m->threads[w] : NULL;
		m->threads[ti].sig_pending++;
		if (wt && wt->waiting && wt->wait_obj == oi)
			sa_waker_released(m, oi, ti, (uint64_t)e->f[SA_F_cond_signaled_caller].v,
					  e->ts > wt->wait_begin ? (uint64_t)(e->ts - wt->wait_begin) : 0);
		else /* its enqueue was not seen */
			sa_waker_released(m, oi, ti, (uint64_t)e->f[SA_F_cond_signaled_caller].v, 0);
		break;
	}
	case SA_EV_cond_leaving:
		c->leaving++;
		v = e->f[SA_F_cond_leaving_reason].v;
		if (v == ST_COND_WOKE_TIMEDOUT)
			c->leaving_timeout++;
		else if (v == ST_COND_WOKE_CANCELLED)
			c->leaving_cancel++;
		break;
	case SA_EV_cond_met_leaving:
		c->met_leaving++;
		break;
	case SA_EV_cond_ref_wait_begin:
		break;
	case SA_EV_cond_ref_wait_end:
		v = e->f[SA_F_cond_ref_wait_end_waited_ns].v;
		c->ref_waits++;
		c->ref_wait_ns += v > 0 ? (uint64_t)v : 0;
		break;
	case SA_EV_cond_handoff:
		if (e->f[SA_F_cond_handoff_how].v == ST_COND_RELEASE_REQUEUED)
			c->handoff_requeue++;
		else
			c->handoff_wake++;
		break;
	case SA_EV_cond_woke: {
		int64_t how = e->f[SA_F_cond_woke_how].v, sp = e->f[SA_F_cond_woke_spurious].v;
		v = e->f[SA_F_cond_woke_wait_ns].v;
		if (how >= 0 && how < ST_COND_WOKE_N)
			c->woke[how]++;
		c->spurious += sp > 0 ? (uint64_t)sp : 0;
		sa_dist_add(&c->wait, v > 0 ? (uint64_t)v : 0);
		sa_model_waited(m, ti, oi, SA_WAIT_COND, v > 0 ? (uint64_t)v : 0,
				how != ST_COND_WOKE_SIGNALED ? SA_WAITED_TIMEOUT : 0);
		m->threads[ti].in_relock = 1;
		break;
	}
	case SA_EV_cond_relocked:
		v = e->f[SA_F_cond_relocked_relock_ns].v;
		c->relocked++;
		if (e->f[SA_F_cond_relocked_contended].v)
			c->relock_contended++;
		c->relock_ns += v > 0 ? (uint64_t)v : 0;
		m->threads[ti].in_relock = 0;
		relocked(m, e, ti, v > 0 ? (uint64_t)v : 0);
		m->threads[ti].cond_caller = 0;
		break;
	case SA_EV_cond_signal: {
		int64_t moved = e->f[SA_F_cond_signal_moved].v;
		struct sa_thread *t = &m->threads[ti];
		if (moved > 0)
			t->cond_wakeups += (uint64_t)moved; /* wakeups per unit (wakes report) */
		/* A shared condvar has no signaled events: its moved waiters are
		 * released here, their latency unknown. */
		sa_waker_wake(m, oi, ti, (uint64_t)e->f[SA_F_cond_signal_caller].v, 1,
			      moved > (int64_t)t->sig_pending ? (uint64_t)moved - t->sig_pending : 0);
		t->sig_pending = 0;
		if (e->f[SA_F_cond_signal_broadcast].v) {
			c->broadcasts++;
			sa_dist_add(&c->herd, moved > 0 ? (uint64_t)moved : 0);
		} else {
			c->signals++;
		}
		c->moved += moved > 0 ? (uint64_t)moved : 0;
		break;
	}
	default:
		break;
	}
}

const struct sa_family sa_family_cond = {
	.name = "cond",
	.event = cond_event,
	.state_size = sizeof(struct sa_cond),
	.state_free = cond_free,
	.state_merge = cond_merge,
	.first_kind = SA_WAIT_COND,
	.nkinds = 1,
};
