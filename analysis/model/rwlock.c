/* synctrace_rwlock: per-lock acquisitions by side, waits, wakes. */
#include <stdlib.h>

#include "sa_model.h"
#include "sa_rwlock.h"

static void rw_free(void *p)
{
	struct sa_rwlock *r = p;
	sa_dist_free(&r->wait[0]);
	sa_dist_free(&r->wait[1]);
	free(r);
}

void sa_rwlock_event(struct sa_model *m, const struct sa_event *e)
{
	int64_t v;
	uint32_t oi, ti;
	struct sa_object *o = sa_model_family_object(m, e, "obj", e->id == SA_EV_rwlock_init,
						     SA_OBJ_RWLOCK, sizeof(struct sa_rwlock),
						     rw_free, &oi);
	if (!o || !sa_model_thread(m, e, &ti))
		return;
	struct sa_rwlock *r = o->ext;
	int side = sa_ev_i(e, "write") != 0;

	switch (e->id) {
	case SA_EV_rwlock_init:
		r->init_seen = 1;
		r->kind = (int)sa_ev_i(e, "kind");
		break;
	case SA_EV_rwlock_destroy:
		o->destroyed = 1;
		break;
	case SA_EV_rwlock_requested:
		r->requested[side]++;
		break;
	case SA_EV_rwlock_acquired: {
		int64_t how = sa_ev_i(e, "how");
		v = sa_ev_i(e, "wait_ns");
		r->acquired[side]++;
		if (how >= 0 && how < SA_RW_HOW_N)
			r->how[side][how]++;
		if (how == 1 || how == 2) {
			sa_dist_add(&r->wait[side], v > 0 ? (uint64_t)v : 0);
			sa_model_thread_waited(m, ti, oi, v > 0 ? (uint64_t)v : 0);
		}
		break;
	}
	case SA_EV_rwlock_released:
		r->releases++;
		v = sa_ev_i(e, "woken");
		if (v >= 0) {
			r->release_wakes++;
			r->release_wasted += v == 0;
		}
		break;
	case SA_EV_rwlock_readers_drained:
		r->drained++;
		r->drained_wasted += sa_ev_i(e, "woken") == 0;
		break;
	case SA_EV_rwlock_writer_waiting:
		r->writer_waits++;
		break;
	case SA_EV_rwlock_timeout:
		v = sa_ev_i(e, "wait_ns");
		r->timeouts[side]++;
		r->timeout_wait_ns += v > 0 ? (uint64_t)v : 0;
		m->threads[ti].timeouts++;
		sa_model_thread_waited(m, ti, oi, v > 0 ? (uint64_t)v : 0);
		break;
	case SA_EV_rwlock_trylock_failed:
		r->trylock_failed[side]++;
		break;
	case SA_EV_rwlock_misuse:
		r->misuse++;
		break;
	default:
		break;
	}
}
