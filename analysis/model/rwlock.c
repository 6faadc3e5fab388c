/* synctrace_rwlock: per-lock acquisitions by side, waits, wakes. */
#include <stdlib.h>

#include "sa_model.h"
#include "sa_rwlock.h"

/* Full level: a hold of ti begins (write: the lock's writer; read: one of
 * the thread's read slots), or ends (its length in *ns, 1 if known). */
static void hold_begins(struct sa_rwlock *r, struct sa_thread *t, uint32_t oi, uint32_t ti,
			int side, int64_t ts)
{
	if (side) {
		r->have_writer = 1;
		r->writer = ti;
		r->wr_since = ts;
		return;
	}
	unsigned k = 0, n = sizeof(t->rd_held) / sizeof(t->rd_held[0]);
	for (unsigned i = 0; i < n; i++)
		if (!t->rd_held[i].since || t->rd_held[i].obj == oi) {
			k = i;
			break;
		}
	t->rd_held[k].obj = oi;
	t->rd_held[k].since = ts;
}

static int hold_ends(struct sa_rwlock *r, struct sa_thread *t, uint32_t oi, uint32_t ti,
		     int side, int64_t ts, uint64_t *ns)
{
	int64_t since = 0;
	if (side) {
		if (r->have_writer && r->writer == ti)
			since = r->wr_since;
		r->have_writer = 0;
	} else {
		for (unsigned i = 0; i < sizeof(t->rd_held) / sizeof(t->rd_held[0]); i++)
			if (t->rd_held[i].since && t->rd_held[i].obj == oi) {
				since = t->rd_held[i].since;
				t->rd_held[i].since = 0;
				break;
			}
	}
	*ns = since && ts > since ? (uint64_t)(ts - since) : 0;
	return since != 0;
}

/* The side an event is about: 0 read, 1 write (events without one: 0). */
static int side_of(const struct sa_event *e)
{
	switch (e->id) {
	case SA_EV_rwlock_requested: return e->f[SA_F_rwlock_requested_write].v != 0;
	case SA_EV_rwlock_acquired: return e->f[SA_F_rwlock_acquired_write].v != 0;
	case SA_EV_rwlock_released: return e->f[SA_F_rwlock_released_write].v != 0;
	case SA_EV_rwlock_timeout: return e->f[SA_F_rwlock_timeout_write].v != 0;
	case SA_EV_rwlock_trylock_failed: return e->f[SA_F_rwlock_trylock_failed_write].v != 0;
	default: return 0;
	}
}

static void rw_free(void *p)
{
	struct sa_rwlock *r = p;
	sa_dist_free(&r->wait[0]);
	sa_dist_free(&r->wait[1]);
	sa_dist_free(&r->hold[0]);
	sa_dist_free(&r->hold[1]);
	free(r);
}

static int rw_merge(struct sa_model *m, void *dp, const void *sp)
{
	struct sa_rwlock *d = dp;
	const struct sa_rwlock *s = sp;
	int r = 0;
	(void)m;
	d->init_seen |= s->init_seen;
	for (int k = 0; k < 2; k++) {
		SA_MERGE_SUM(d, s, acquired[k]);
		for (int i = 0; i < SA_RW_HOW_N; i++)
			SA_MERGE_SUM(d, s, how[k][i]);
		SA_MERGE_SUM(d, s, requested[k]);
		SA_MERGE_SUM(d, s, timeouts[k]);
		SA_MERGE_SUM(d, s, trylock_failed[k]);
		r |= sa_dist_merge(&d->wait[k], &s->wait[k]) | sa_dist_merge(&d->hold[k], &s->hold[k]);
	}
	SA_MERGE_SUM(d, s, releases);
	SA_MERGE_SUM(d, s, release_wakes);
	SA_MERGE_SUM(d, s, release_wasted);
	SA_MERGE_SUM(d, s, drained);
	SA_MERGE_SUM(d, s, drained_wasted);
	SA_MERGE_SUM(d, s, writer_waits);
	SA_MERGE_SUM(d, s, misuse);
	SA_MERGE_SUM(d, s, timeout_wait_ns);
	return r;
}

static void rwlock_event(struct sa_model *m, const struct sa_event *e)
{
	int64_t v;
	uint32_t oi, ti;
	struct sa_object *o = sa_model_family_object(m, e, e->id == SA_EV_rwlock_init,
						     SA_OBJ_RWLOCK, &oi);
	if (!o || !sa_model_thread(m, e, &ti))
		return;
	struct sa_rwlock *r = o->ext;
	struct sa_thread *t = &m->threads[ti];
	int side = side_of(e);
	int full = m->procs[o->proc].level >= 2;
	uint64_t caller = sa_ev_caller(e), held;
	int known;

	switch (e->id) {
	case SA_EV_rwlock_init:
		r->init_seen = 1;
		r->kind = (int)e->f[SA_F_rwlock_init_kind].v;
		break;
	case SA_EV_rwlock_destroy:
		sa_model_destroyed(m, oi);
		break;
	case SA_EV_rwlock_requested:
		r->requested[side]++;
		v = e->f[SA_F_rwlock_requested_writer].v;
		{
			uint32_t wti = 0;
			int have = v > 0 && sa_model_thread_tid(m, e, (int32_t)v, &wti);
			sa_blame_requested(m, oi, ti, have, wti, e->ts);
		}
		break;
	case SA_EV_rwlock_acquired: {
		int64_t how = e->f[SA_F_rwlock_acquired_how].v;
		v = e->f[SA_F_rwlock_acquired_wait_ns].v;
		r->acquired[side]++;
		if (how >= 0 && how < SA_RW_HOW_N)
			r->how[side][how]++;
		if (how == 1 || how == 2) {
			sa_dist_add(&r->wait[side], v > 0 ? (uint64_t)v : 0);
			sa_model_waited(m, ti, oi, side ? SA_WAIT_RWLOCK_WRITE : SA_WAIT_RWLOCK_READ,
					v > 0 ? (uint64_t)v : 0, 0);
			sa_blame_wait_over(m, oi, e->ts);
			sa_blame_acquired(m, oi, ti, caller, e->ts);
		}
		if (full)
			hold_begins(r, t, oi, ti, side, e->ts);
		if (full && side && how != 1 && how != 2)
			sa_blame_acquired(m, oi, ti, caller, e->ts);
		break;
	}
	case SA_EV_rwlock_released:
		known = full && hold_ends(r, t, oi, ti, side, e->ts, &held);
		if (known)
			sa_dist_add(&r->hold[side], held);
		/* The hold that kept waiters ends with the write release or the
		 * last reader's. */
		if (side || e->f[SA_F_rwlock_released_readers_left].v == 0)
			sa_blame_released(m, oi, ti, caller, e->ts, known, known ? held : 0);
		r->releases++;
		v = e->f[SA_F_rwlock_released_woken].v;
		if (v >= 0) {
			r->release_wakes++;
			r->release_wasted += v == 0;
		}
		break;
	case SA_EV_rwlock_readers_drained:
		r->drained++;
		sa_blame_released(m, oi, ti, caller, e->ts, 0, 0);
		r->drained_wasted += e->f[SA_F_rwlock_readers_drained_woken].v == 0;
		break;
	case SA_EV_rwlock_writer_waiting:
		r->writer_waits++;
		break;
	case SA_EV_rwlock_timeout:
		v = e->f[SA_F_rwlock_timeout_wait_ns].v;
		r->timeouts[side]++;
		r->timeout_wait_ns += v > 0 ? (uint64_t)v : 0;
		sa_model_waited(m, ti, oi, side ? SA_WAIT_RWLOCK_WRITE : SA_WAIT_RWLOCK_READ,
				v > 0 ? (uint64_t)v : 0, SA_WAITED_TIMEOUT);
		sa_blame_wait_over(m, oi, e->ts);
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

const struct sa_family sa_family_rwlock = {
	.name = "rwlock",
	.event = rwlock_event,
	.state_size = sizeof(struct sa_rwlock),
	.state_free = rw_free,
	.state_merge = rw_merge,
	.first_kind = SA_WAIT_RWLOCK_READ,
	.nkinds = 2, /* read, write */
};
