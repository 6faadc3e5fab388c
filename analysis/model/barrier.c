/* synctrace_barrier: rounds, who arrived last and released the others, and
 * how long each waiter waited for it (sa_barrier.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "sa_barrier.h"
#include "sa_model.h"

static void bar_free(void *p)
{
	struct sa_barrier *b = p;
	sa_dist_free(&b->wait);
	sa_dist_free(&b->wait_last);
	sa_dist_free(&b->wakeup);
	sa_dist_free(&b->spread);
	sa_map_free(&b->th_map);
	free(b->th);
	free(b);
}

struct sa_bar_thread *sa_barrier_thread(struct sa_model *m, struct sa_barrier *b, uint32_t ti)
{
	int64_t i = sa_map_get(&b->th_map, ti, 0);
	if (i >= 0)
		return &b->th[i];
	if (b->nth == b->capth) {
		uint32_t c = b->capth ? b->capth * 2 : 8;
		struct sa_bar_thread *p = realloc(b->th, c * sizeof(*p));
		if (!p) {
			m->oom = 1;
			return NULL;
		}
		b->th = p;
		b->capth = c;
	}
	if (sa_map_put(&b->th_map, ti, 0, b->nth)) {
		m->oom = 1;
		return NULL;
	}
	struct sa_bar_thread *t = &b->th[b->nth++];
	*t = (struct sa_bar_thread){ .ti = ti };
	return t;
}

/* The ring slot of a round; a new round takes over its slot. */
static struct sa_bar_round *slot(struct sa_barrier *b, int32_t round, int64_t ts)
{
	struct sa_bar_round *r = &b->ring[(uint32_t)round % SA_BAR_RING];
	if (!r->used || r->round != round)
		*r = (struct sa_bar_round){ .used = 1, .round = round, .first_arrival = ts,
					    .first_departure = INT64_MAX };
	return r;
}

static uint64_t pos(int64_t v)
{
	return v > 0 ? (uint64_t)v : 0;
}

/* A waiter's wait in a released round: its time waiting for the last
 * arriver (whose entry gets it as time it made others wait) and its
 * wakeup. */
static void settle(struct sa_barrier *b, struct sa_bar_thread *t, const struct sa_bar_round *r,
		   int64_t arrival, int64_t departure)
{
	uint64_t wl = pos(r->release - arrival);
	sa_dist_add(&b->wait_last, wl);
	sa_dist_add(&b->wakeup, pos(departure - r->release));
	t->wait_last_ns += wl;
	int64_t si = sa_map_get(&b->th_map, r->serial_ti, 0);
	if (si >= 0)
		b->th[si].made_wait_ns += wl;
}

/* A class: sums, and each thread's entry added to the same thread's. */
static int bar_merge(struct sa_model *m, void *dp, const void *sp)
{
	struct sa_barrier *d = dp;
	const struct sa_barrier *s = sp;
	d->init_seen |= s->init_seen;
	if (!d->count)
		d->count = s->count;
	SA_MERGE_SUM(d, s, rounds);
	SA_MERGE_SUM(d, s, waits);
	SA_MERGE_SUM(d, s, departures);
	SA_MERGE_SUM(d, s, woken);
	SA_MERGE_SUM(d, s, destroy_busy);
	SA_MERGE_SUM(d, s, summarized);
	for (uint32_t i = 0; i < s->nth; i++) {
		const struct sa_bar_thread *x = &s->th[i];
		struct sa_bar_thread *y = sa_barrier_thread(m, d, x->ti);
		if (!y)
			return -1;
		SA_MERGE_SUM(y, x, passes);
		SA_MERGE_SUM(y, x, waits);
		SA_MERGE_SUM(y, x, serial);
		SA_MERGE_SUM(y, x, released_others);
		SA_MERGE_SUM(y, x, wait_ns);
		SA_MERGE_SUM(y, x, wait_last_ns);
		SA_MERGE_SUM(y, x, made_wait_ns);
	}
	return sa_dist_merge(&d->wait, &s->wait) | sa_dist_merge(&d->wait_last, &s->wait_last) |
	       sa_dist_merge(&d->wakeup, &s->wakeup) | sa_dist_merge(&d->spread, &s->spread);
}

static void barrier_event(struct sa_model *m, const struct sa_event *e)
{
	int64_t v;
	uint32_t oi, ti;
	struct sa_object *o = sa_model_family_object(m, e, e->id == SA_EV_barrier_init,
						     SA_OBJ_BARRIER, &oi);
	if (!o || !sa_model_thread(m, e, &ti))
		return;
	struct sa_barrier *b = o->ext;
	/* The round of arrival, released and departure (slot 2 in each). */
	_Static_assert((int)SA_F_barrier_arrival_round == (int)SA_F_barrier_released_round &&
			       (int)SA_F_barrier_released_round == (int)SA_F_barrier_departure_round,
		       "barrier events keep `round` in one slot");
	int32_t round = (int32_t)e->f[SA_F_barrier_arrival_round].v;
	struct sa_bar_thread *bt;
	struct sa_bar_round *r;

	switch (e->id) {
	case SA_EV_barrier_init:
		b->init_seen = 1;
		b->count = (int)e->f[SA_F_barrier_init_count].v;
		b->pshared = (int)e->f[SA_F_barrier_init_pshared].v;
		break;
	case SA_EV_barrier_destroy:
		if (e->f[SA_F_barrier_destroy_result].v == EBUSY)
			b->destroy_busy++;
		else
			sa_model_destroyed(m, oi);
		break;
	case SA_EV_barrier_arrival:
		if (!b->init_seen && sa_ev_at(e, SA_F_barrier_arrival_count, &v))
			b->count = (int)v;
		b->waits++;
		r = slot(b, round, e->ts);
		r->arrivals++;
		if (!(bt = sa_barrier_thread(m, b, ti)))
			break;
		bt->waits++;
		bt->passes++;
		bt->arrived = 1;
		bt->round = round;
		bt->arrival = e->ts;
		break;
	case SA_EV_barrier_released:
		v = e->f[SA_F_barrier_released_count].v;
		if (!b->init_seen && v > 0)
			b->count = (int)v;
		b->rounds++;
		b->woken += pos(e->f[SA_F_barrier_released_woken].v);
		if ((bt = sa_barrier_thread(m, b, ti))) {
			bt->serial++;
			bt->passes++;
			bt->released_others += pos(v - 1);
		}
		r = slot(b, round, e->ts);
		if (r->released)
			break;
		r->released = 1;
		r->release = r->first_departure < e->ts ? r->first_departure : e->ts;
		r->serial_ti = ti;
		/* The round gathered from its first arrival to its release (a
		 * round of one thread, or whose arrivals were not traced, has
		 * no spread). */
		if (r->arrivals)
			sa_dist_add(&b->spread, pos(r->release - r->first_arrival));
		/* Waiters that left before this event. */
		for (uint32_t k = 0; r->pending && k < b->nth; k++)
			if (b->th[k].pending && b->th[k].pend_round == round) {
				settle(b, &b->th[k], r, b->th[k].pend_arrival, b->th[k].pend_departure);
				b->th[k].pending = 0;
				r->pending--;
			}
		break;
	case SA_EV_barrier_departure: {
		uint64_t w = pos(e->f[SA_F_barrier_departure_wait_ns].v);
		b->departures++;
		sa_dist_add(&b->wait, w);
		sa_model_waited(m, ti, oi, SA_WAIT_BARRIER, w, 0);
		if (!(bt = sa_barrier_thread(m, b, ti)))
			break;
		bt->wait_ns += w;
		if (!bt->arrived || bt->round != round) {
			bt->arrived = 0; /* its arrival was not traced */
			break;
		}
		bt->arrived = 0;
		r = &b->ring[(uint32_t)round % SA_BAR_RING];
		if (!r->used || r->round != round)
			break; /* the round left the ring */
		if (r->released) {
			settle(b, bt, r, bt->arrival, e->ts);
			break;
		}
		/* Before the release: settled when it comes. An older pending
		 * wait of this thread (rounds racing ahead of a slow releaser's
		 * event) is given up. */
		if (bt->pending) {
			struct sa_bar_round *old = &b->ring[(uint32_t)bt->pend_round % SA_BAR_RING];
			if (old->used && old->round == bt->pend_round && old->pending)
				old->pending--;
		}
		bt->pending = 1;
		bt->pend_round = round;
		bt->pend_arrival = bt->arrival;
		bt->pend_departure = e->ts;
		if (e->ts < r->first_departure)
			r->first_departure = e->ts;
		r->pending++;
		break;
	}
	default:
		break;
	}
}

const struct sa_family sa_family_barrier = {
	.name = "barrier",
	.event = barrier_event,
	.state_size = sizeof(struct sa_barrier),
	.state_free = bar_free,
	.state_merge = bar_merge,
	.first_kind = SA_WAIT_BARRIER,
	.nkinds = 1,
};
