/* synctrace_once: who ran the init routine, for how long, who waited for
 * it and how long, and cancelled runs (sa_once.h). */
#include <stdlib.h>

#include "sa_model.h"
#include "sa_once.h"

static void once_free(void *p)
{
	struct sa_once *x = p;
	sa_dist_free(&x->run);
	sa_dist_free(&x->wait);
	free(x);
}

static int once_merge(struct sa_model *m, void *dp, const void *sp)
{
	struct sa_once *d = dp;
	const struct sa_once *s = sp;
	(void)m;
	SA_MERGE_SUM(d, s, runs);
	SA_MERGE_SUM(d, s, completed);
	SA_MERGE_SUM(d, s, cancelled);
	SA_MERGE_SUM(d, s, waits);
	SA_MERGE_SUM(d, s, waited);
	SA_MERGE_SUM(d, s, woken);
	SA_MERGE_SUM(d, s, summarized);
	SA_MERGE_MAX(d, s, max_sleeping);
	if (s->completed) {
		d->runner = s->runner;
		d->run_done_ns = s->run_done_ns;
		d->routine = s->routine;
	}
	return sa_dist_merge(&d->run, &s->run) | sa_dist_merge(&d->wait, &s->wait);
}

static void once_event(struct sa_model *m, const struct sa_event *e)
{
	int64_t v;
	uint32_t oi, ti;
	struct sa_object *o = sa_model_family_object(m, e, 0, SA_OBJ_ONCE, &oi);
	if (!o || !sa_model_thread(m, e, &ti))
		return;
	struct sa_once *x = o->ext;

	switch (e->id) {
	case SA_EV_once_run:
		x->runs++;
		x->routine = (uint64_t)e->f[SA_F_once_run_routine].v;
		x->running = 1;
		x->cur_runner = e->vtid;
		break;
	case SA_EV_once_finished:
		v = e->f[SA_F_once_finished_run_ns].v;
		sa_dist_add(&x->run, v > 0 ? (uint64_t)v : 0);
		if (e->f[SA_F_once_finished_cancelled].v) {
			x->cancelled++;
			x->cancelled_runner = e->vtid;
		} else {
			x->completed++;
			x->runner = e->vtid;
			x->run_done_ns = v > 0 ? (uint64_t)v : 0;
		}
		x->running = 0;
		v = e->f[SA_F_once_finished_woken].v;
		if (v > 0)
			x->woken += (uint64_t)v;
		break;
	case SA_EV_once_wait:
		x->waits++;
		sa_model_wait_begins(m, ti, oi, e->ts);
		if (++x->sleeping > x->max_sleeping)
			x->max_sleeping = x->sleeping;
		break;
	case SA_EV_once_waited:
		v = e->f[SA_F_once_waited_wait_ns].v;
		x->waited++;
		if (x->sleeping)
			x->sleeping--;
		sa_dist_add(&x->wait, v > 0 ? (uint64_t)v : 0);
		sa_model_waited(m, ti, oi, SA_WAIT_ONCE, v > 0 ? (uint64_t)v : 0, 0);
		break;
	default:
		break;
	}
}

const struct sa_family sa_family_once = {
	.name = "once",
	.event = once_event,
	.state_size = sizeof(struct sa_once),
	.state_free = once_free,
	.state_merge = once_merge,
	.first_kind = SA_WAIT_ONCE,
	.nkinds = 1,
};
