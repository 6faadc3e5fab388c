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
	uint32_t oi, ti;
	struct sa_object *o = sa_model_family_object(m, e, "obj", 0,
						     SA_OBJ_SPIN, sizeof(struct sa_spinlock),
						     sl_free, &oi);
	if (!o || !sa_model_thread(m, e, &ti))
		return;
	struct sa_spinlock *s = o->ext;
	if (e->id == SA_EV_spinlock_contended) {
		int64_t ns = sa_ev_i(e, "spin_ns"), it = sa_ev_i(e, "iterations");
		s->contended++;
		sa_dist_add(&s->spin_ns, ns > 0 ? (uint64_t)ns : 0);
		sa_dist_add(&s->iterations, it > 0 ? (uint64_t)it : 0);
		sa_model_waited(m, ti, oi, SA_WAIT_SPINLOCK, ns > 0 ? (uint64_t)ns : 0, 0);
	}
}
