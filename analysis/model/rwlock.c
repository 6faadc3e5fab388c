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
	int64_t addr, v;
	uint32_t oi, ti;
	if (!sa_ev_get(e, "obj", &addr)) {
		m->malformed++;
		return;
	}
	struct sa_object *o = e->id == SA_EV_rwlock_init
				      ? sa_model_object_init(m, e, (uint64_t)addr, &oi)
				      : sa_model_object(m, e, (uint64_t)addr, &oi);
	if (!o || !sa_model_thread(m, e, &ti))
		return;
	if (o->type != SA_OBJ_RWLOCK && o->type != SA_OBJ_UNKNOWN)
		return;
	if (!o->ext) {
		if (!(o->ext = calloc(1, sizeof(struct sa_rwlock)))) {
			m->oom = 1;
			return;
		}
		o->ext_free = rw_free;
		o->type = SA_OBJ_RWLOCK;
	}
	struct sa_rwlock *r = o->ext;
	int side = sa_ev_i(e, "write") != 0;
	if (!o->caller && sa_ev_get(e, "caller", &v))
		o->caller = (uint64_t)v;

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
