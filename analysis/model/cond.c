/* synctrace_cond: per-condvar waits, signals, and the timeout race of the
 * 2014 seed (a signaler meeting a waiter that is LEAVING). */
#include <stdlib.h>

#include "sa_cond.h"
#include "sa_model.h"

static void cond_free(void *p)
{
	struct sa_cond *c = p;
	sa_dist_free(&c->wait);
	sa_dist_free(&c->herd);
	free(c);
}

void sa_cond_event(struct sa_model *m, const struct sa_event *e)
{
	int64_t v;
	uint32_t oi;
	struct sa_object *o = sa_model_family_object(m, e, "cond", e->id == SA_EV_cond_init,
						     SA_OBJ_COND, sizeof(struct sa_cond),
						     cond_free, &oi);
	if (!o)
		return;
	struct sa_cond *c = o->ext;

	switch (e->id) {
	case SA_EV_cond_init:
		c->init_seen = 1;
		c->clock = (int)sa_ev_i(e, "clock");
		c->pshared = (int)sa_ev_i(e, "pshared");
		break;
	case SA_EV_cond_destroy:
		o->destroyed = 1;
		break;
	case SA_EV_cond_misuse:
		c->misuse++;
		break;
	case SA_EV_cond_enqueued:
		c->waits++;
		if (sa_ev_i(e, "timed"))
			c->timed_waits++;
		break;
	case SA_EV_cond_signaled:
		break; /* counted through signal's `moved` */
	case SA_EV_cond_leaving:
		c->leaving++;
		v = sa_ev_i(e, "reason");
		if (v == 1)
			c->leaving_timeout++;
		else if (v == 2)
			c->leaving_cancel++;
		break;
	case SA_EV_cond_met_leaving:
		c->met_leaving++;
		break;
	case SA_EV_cond_ref_wait_begin:
		break;
	case SA_EV_cond_ref_wait_end:
		v = sa_ev_i(e, "waited_ns");
		c->ref_waits++;
		c->ref_wait_ns += v > 0 ? (uint64_t)v : 0;
		break;
	case SA_EV_cond_handoff:
		if (sa_ev_i(e, "how") == 1)
			c->handoff_requeue++;
		else
			c->handoff_wake++;
		break;
	case SA_EV_cond_woke: {
		int64_t how = sa_ev_i(e, "how"), sp = sa_ev_i(e, "spurious");
		v = sa_ev_i(e, "wait_ns");
		if (how >= 0 && how < SA_WOKE_N)
			c->woke[how]++;
		c->spurious += sp > 0 ? (uint64_t)sp : 0;
		sa_dist_add(&c->wait, v > 0 ? (uint64_t)v : 0);
		break;
	}
	case SA_EV_cond_relocked:
		v = sa_ev_i(e, "relock_ns");
		c->relocked++;
		if (sa_ev_i(e, "contended"))
			c->relock_contended++;
		c->relock_ns += v > 0 ? (uint64_t)v : 0;
		break;
	case SA_EV_cond_signal: {
		int64_t moved = sa_ev_i(e, "moved");
		uint32_t ti;
		struct sa_thread *t = sa_model_thread(m, e, &ti);
		if (t && moved > 0)
			t->cond_wakeups += (uint64_t)moved; /* wakeups per unit (wakes report) */
		if (sa_ev_i(e, "broadcast")) {
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
