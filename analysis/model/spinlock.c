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

static int sl_merge(struct sa_model *m, void *dp, const void *sp)
{
	struct sa_spinlock *d = dp;
	const struct sa_spinlock *s = sp;
	(void)m;
	SA_MERGE_SUM(d, s, contended);
	return sa_dist_merge(&d->spin_ns, &s->spin_ns) | sa_dist_merge(&d->iterations, &s->iterations);
}

static void spinlock_event(struct sa_model *m, const struct sa_event *e)
{
	uint32_t oi, ti;
	struct sa_object *o = sa_model_family_object(m, e, 0, SA_OBJ_SPINLOCK, &oi);
	if (!o || !sa_model_thread(m, e, &ti))
		return;
	struct sa_spinlock *s = o->ext;
	if (e->id == SA_EV_spinlock_contended) {
		int64_t ns = e->f[SA_F_spinlock_contended_spin_ns].v;
		int64_t it = e->f[SA_F_spinlock_contended_iterations].v;
		s->contended++;
		sa_dist_add(&s->spin_ns, ns > 0 ? (uint64_t)ns : 0);
		sa_dist_add(&s->iterations, it > 0 ? (uint64_t)it : 0);
		sa_model_waited(m, ti, oi, SA_WAIT_SPINLOCK, ns > 0 ? (uint64_t)ns : 0, 0);
	}
}

const struct sa_family sa_family_spinlock = {
	.name = "spinlock",
	.event = spinlock_event,
	.state_size = sizeof(struct sa_spinlock),
	.state_free = sl_free,
	.state_merge = sl_merge,
	.first_kind = SA_WAIT_SPINLOCK,
	.nkinds = 1,
};
