/* synctrace_spin: one loop per event, on any object (src/wait/wait.h). */
#include "sa_model.h"

enum { SPUN_ACQUIRED = 0, SPUN_GAVE_UP = 1, SPUN_SAW_WAITERS = 2 };

static void spin_event(struct sa_model *m, const struct sa_event *e)
{
	uint32_t oi;
	uint64_t addr;
	if (e->id != SA_EV_spin_loop)
		return;
	if (!sa_ev_obj(e, &addr)) {
		m->malformed++;
		return;
	}
	struct sa_object *o = sa_model_object(m, e, addr, &oi);
	if (!o)
		return;
	int64_t it = e->f[SA_F_spin_loop_iterations].v, ns = e->f[SA_F_spin_loop_spin_ns].v;
	int64_t mode = e->f[SA_F_spin_loop_mode].v;
	o->sp_loops++;
	switch (e->f[SA_F_spin_loop_outcome].v) {
	case SPUN_ACQUIRED: o->sp_acquired++; break;
	case SPUN_GAVE_UP: o->sp_gave_up++; break;
	case SPUN_SAW_WAITERS: o->sp_saw_waiters++; break;
	default: break;
	}
	o->sp_ns += ns > 0 ? (uint64_t)ns : 0;
	if (mode >= 0 && mode < 31)
		o->sp_modes |= 1u << mode;
	sa_dist_add(&o->sp_iter, it > 0 ? (uint64_t)it : 0);
}

const struct sa_family sa_family_spin = { .name = "spin", .event = spin_event };
