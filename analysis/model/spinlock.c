/* synctrace_spinlock: contended pthread spinlock acquisitions. */
#include <stdlib.h>

#include "sa_model.h"
#include "sa_spinlock.h"

static void sl_free(void *p)
{
	struct sa_spinlock *s = p;
	sa_dist_free(&s->spin_ns);
	sa_dist_free(&s->iterations);
	free(s);
}

void sa_spinlock_event(struct sa_model *m, const struct sa_event *e)
{
	int64_t addr, v;
	uint32_t oi, ti;
	if (!sa_ev_get(e, "obj", &addr)) {
		m->malformed++;
		return;
	}
	struct sa_object *o = sa_model_object(m, e, (uint64_t)addr, &oi);
	if (!o || !sa_model_thread(m, e, &ti))
		return;
	if (o->type != SA_OBJ_SPIN && o->type != SA_OBJ_UNKNOWN)
		return;
	if (!o->ext) {
		if (!(o->ext = calloc(1, sizeof(struct sa_spinlock)))) {
			m->oom = 1;
			return;
		}
		o->ext_free = sl_free;
		o->type = SA_OBJ_SPIN;
	}
	struct sa_spinlock *s = o->ext;
	if (!o->caller && sa_ev_get(e, "caller", &v))
		o->caller = (uint64_t)v;
	if (e->id == SA_EV_spinlock_contended) {
		int64_t ns = sa_ev_i(e, "spin_ns"), it = sa_ev_i(e, "iterations");
		s->contended++;
		sa_dist_add(&s->spin_ns, ns > 0 ? (uint64_t)ns : 0);
		sa_dist_add(&s->iterations, it > 0 ? (uint64_t)it : 0);
		sa_model_thread_waited(m, ti, oi, ns > 0 ? (uint64_t)ns : 0);
	}
}
