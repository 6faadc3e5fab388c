/* synctrace_sem: per-semaphore waits, posts and the wakes they issue. */
#include <stdlib.h>

#include "sa_model.h"
#include "sa_sem.h"

static void sem_free(void *p)
{
	struct sa_sem *s = p;
	sa_dist_free(&s->wait);
	free(s);
}

static int sem_merge(struct sa_model *m, void *dp, const void *sp)
{
	struct sa_sem *d = dp;
	const struct sa_sem *s = sp;
	(void)m;
	d->init_seen |= s->init_seen;
	SA_MERGE_SUM(d, s, acquired);
	for (int i = 0; i < SA_SEM_HOW_N; i++)
		SA_MERGE_SUM(d, s, how[i]);
	SA_MERGE_SUM(d, s, wait_begins);
	SA_MERGE_SUM(d, s, sleeps);
	SA_MERGE_SUM(d, s, timeouts);
	SA_MERGE_SUM(d, s, interrupted);
	SA_MERGE_SUM(d, s, trywait_failed);
	SA_MERGE_SUM(d, s, posts);
	SA_MERGE_SUM(d, s, post_wakes);
	SA_MERGE_SUM(d, s, post_wasted);
	SA_MERGE_SUM(d, s, overflows);
	SA_MERGE_SUM(d, s, timeout_wait_ns);
	SA_MERGE_MAX(d, s, destroy_nwaiters);
	if (s->over_limit && (!d->over_limit || s->over_value > d->over_value)) {
		d->over_value = s->over_value;
		d->over_limit_value = s->over_limit_value;
	}
	SA_MERGE_SUM(d, s, over_limit);
	return sa_dist_merge(&d->wait, &s->wait);
}

static void sem_event(struct sa_model *m, const struct sa_event *e)
{
	int64_t v;
	uint32_t oi, ti;
	struct sa_object *o = sa_model_family_object(m, e, e->id == SA_EV_sem_init,
						     SA_OBJ_SEM, &oi);
	if (!o || !sa_model_thread(m, e, &ti))
		return;
	struct sa_sem *s = o->ext;

	switch (e->id) {
	case SA_EV_sem_init:
		s->init_seen = 1;
		s->initial = (int)e->f[SA_F_sem_init_value].v;
		s->pshared = (int)e->f[SA_F_sem_init_pshared].v;
		break;
	case SA_EV_sem_destroy:
		s->destroy_nwaiters = (int)e->f[SA_F_sem_destroy_nwaiters].v;
		sa_model_destroyed(m, oi);
		break;
	case SA_EV_sem_post:
		s->posts++;
		if (e->f[SA_F_sem_post_result].v == 75)
			s->overflows++;
		v = e->f[SA_F_sem_post_woken].v;
		if (v >= 0) {
			sa_waker_post(m, oi, ti, (uint64_t)e->f[SA_F_sem_post_caller].v, e->ts);
			m->threads[ti].sem_wakeups++; /* handed a token to a registered sleeper */
			s->post_wakes++;
			if (v == 0)
				s->post_wasted++;
		}
		break;
	case SA_EV_sem_wait_begin:
		s->wait_begins++;
		sa_model_wait_begins(m, ti, oi, e->ts);
		break;
	case SA_EV_sem_sleep:
		s->sleeps++;
		break;
	case SA_EV_sem_acquired: {
		int64_t how = e->f[SA_F_sem_acquired_how].v;
		v = e->f[SA_F_sem_acquired_wait_ns].v;
		s->acquired++;
		if (how >= 0 && how < SA_SEM_HOW_N)
			s->how[how]++;
		if (how == SA_SEM_SPIN || how == SA_SEM_SLEEP) {
			sa_dist_add(&s->wait, v > 0 ? (uint64_t)v : 0);
			sa_model_waited(m, ti, oi, SA_WAIT_SEM, v > 0 ? (uint64_t)v : 0, 0);
			sa_waker_took(m, oi, e->ts - (v > 0 ? v : 0));
		}
		break;
	}
	case SA_EV_sem_timeout:
		v = e->f[SA_F_sem_timeout_wait_ns].v;
		if (e->f[SA_F_sem_timeout_result].v == 4)
			s->interrupted++;
		else
			s->timeouts++;
		s->timeout_wait_ns += v > 0 ? (uint64_t)v : 0;
		sa_model_waited(m, ti, oi, SA_WAIT_SEM, v > 0 ? (uint64_t)v : 0, SA_WAITED_TIMEOUT);
		break;
	case SA_EV_sem_trywait_failed:
		s->trywait_failed++;
		break;
	case SA_EV_sem_misuse:
		s->over_limit++;
		v = e->f[SA_F_sem_misuse_value].v;
		if (s->over_limit == 1 || v > s->over_value) {
			s->over_value = (int)v;
			s->over_limit_value = (int)e->f[SA_F_sem_misuse_limit].v;
		}
		break;
	default:
		break;
	}
}

const struct sa_family sa_family_sem = {
	.name = "sem",
	.event = sem_event,
	.state_size = sizeof(struct sa_sem),
	.state_free = sem_free,
	.state_merge = sem_merge,
	.first_kind = SA_WAIT_SEM,
	.nkinds = 1,
};
