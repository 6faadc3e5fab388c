/* The wait-for graph (sa_waitfor.h).
 *
 * WHAT EACH EVENT SAYS (tracepoints/EVENTS.md)
 *   thread     blocked from                  until
 *   mutex      requested (owner: the holder) acquired, timeout
 *              misuse RELOCK_OWNER (it sleeps on its own lock, for ever)
 *   cond       enqueued (timed: it will end) signaled (its node), woke, leaving;
 *                                            then it re-acquires the mutex
 *                                            (cond-relock) until relocked
 *   sem        wait_begin                    acquired, timeout
 *   rwlock     requested (writer: the holder) acquired, timeout
 *   barrier    arrival                       released (of its round), departure
 *   once       wait                          waited
 *
 *   holder of a mutex: the thread of its last acquired/relocked; else the
 *   owner a requested, trylock_failed or misuse read in the lock word (held
 *   since at least then); none after a release or when a condvar wait
 *   releases it (enqueued). An uncontended acquisition has no event at the
 *   contention level, and at the full level only its release has one: a
 *   lock nobody waited on may be held by a thread the trace does not name.
 *   While a thread sleeps on it, every release is an event (a wake is due),
 *   so the owner its requested read is the holder until the next release.
 *   rwlock: the writer likewise; readers by their acquired events (SPIN,
 *   SLEEP at the contention level), the count from the events' fields.
 *   semaphore: a post (or a wait) that left the count above 0 gives its
 *   sleepers a token to take: none of them is stuck until they took it.
 *   signalers: cond:signal (a signal or broadcast that found waiters) by
 *   its thread and caller; posters: sem:post (emitted, at the contention
 *   level, when a sleeper was registered); barrier participants: arrival
 *   and released; once: run (the runner), finished ends it.
 *
 * An object's state is kept by model object index, a thread's by model
 * thread index: both stay valid (the model never moves an index). */
#include <stdlib.h>
#include <string.h>

#include "sa_model.h"
#include "sa_waitfor.h"

static struct sa_waitfor *state(struct sa_model *m)
{
	if (!m->waitfor && !(m->waitfor = calloc(1, sizeof(*m->waitfor))))
		m->oom = 1;
	return m->waitfor;
}

int sa_waitfor_at(struct sa_model *m, double seconds)
{
	struct sa_waitfor *w = state(m);
	if (!w || !(seconds >= 0))
		return -1;
	w->have_at = 1;
	w->at_s = seconds;
	return 0;
}

void sa_waitfor_free(struct sa_waitfor *w)
{
	if (!w)
		return;
	free(w->t);
	for (uint32_t i = 0; i < w->no; i++)
		free(w->o[i]);
	free(w->o);
	free(w->proc_ended);
	free(w->proc_all_blocked);
	free(w);
}

/* Grow *arr of *n elements to hold index i (new room zeroed). */
static int reach(struct sa_waitfor *w, void **arr, uint32_t *n, uint32_t i, size_t elem)
{
	if (i < *n)
		return 0;
	uint32_t c = *n ? *n : 16;
	while (c <= i)
		c *= 2;
	void *p = realloc(*arr, (size_t)c * elem);
	if (!p) {
		w->oom = 1;
		return -1;
	}
	memset((char *)p + (size_t)*n * elem, 0, (size_t)(c - *n) * elem);
	*arr = p;
	*n = c;
	return 0;
}

static struct sa_wf_thread *thr(struct sa_waitfor *w, uint32_t ti)
{
	uint32_t old = w->nt;
	if (reach(w, (void **)&w->t, &w->nt, ti, sizeof(*w->t)))
		return NULL;
	for (uint32_t i = old; i < w->nt; i++)
		w->t[i].obj = w->t[i].mutex = SA_WF_NONE;
	return &w->t[ti];
}

static struct sa_wf_obj *obj(struct sa_waitfor *w, uint32_t oi)
{
	if (reach(w, (void **)&w->o, &w->no, oi, sizeof(*w->o)))
		return NULL;
	if (!w->o[oi] && !(w->o[oi] = calloc(1, sizeof(*w->o[oi]))))
		w->oom = 1;
	return w->o[oi];
}

/* A destroyed object's state goes (a class of folded objects keeps none). */
static void obj_gone(struct sa_waitfor *w, uint32_t oi)
{
	if (oi < w->no) {
		free(w->o[oi]);
		w->o[oi] = NULL;
	}
}

const struct sa_wf_obj *sa_waitfor_obj(const struct sa_waitfor *w, uint32_t oi)
{
	return w && oi < w->no ? w->o[oi] : NULL;
}

/* The model thread that is `tid` as seen by an event of process pi about
 * object oi (a process-shared object's owner may live in another process
 * of the same trace); SA_WF_NONE when the trace never named it. */
static uint32_t thread_of_tid(const struct sa_model *m, uint32_t pi, uint32_t oi, int64_t tid)
{
	if (tid <= 0)
		return SA_WF_NONE;
	int64_t i = sa_map_get(&m->thread_map, pi, (uint32_t)tid);
	if (i >= 0 || !m->objs[oi].shared)
		return i >= 0 ? (uint32_t)i : SA_WF_NONE;
	for (uint32_t p = 0; p < m->nprocs; p++)
		if (p != pi && m->procs[p].trace == m->procs[pi].trace &&
		    (i = sa_map_get(&m->thread_map, p, (uint32_t)tid)) >= 0)
			return (uint32_t)i;
	return SA_WF_NONE;
}

static void block(struct sa_wf_thread *t, enum sa_wait_kind k, uint32_t oi, int64_t ts,
		  uint64_t site)
{
	if (!(t->blocked && t->kind == k && t->obj == oi)) {
		t->since = ts;
		t->site = site;
	}
	t->blocked = 1;
	t->kind = k;
	t->obj = oi;
	t->timed = 0;
}

static void unblock(struct sa_wf_thread *t, uint32_t oi)
{
	if (t->obj == oi || oi == SA_WF_NONE)
		t->blocked = 0;
}

/* The lock is held by ti (exact: from its acquisition at ts), or by the
 * owner a waiter read in the lock word at ts. */
static void hold(struct sa_wf_obj *o, uint32_t ti, int32_t tid, int64_t ts, int exact,
		 uint64_t site)
{
	int same = o->held && o->holder == ti && o->holder_tid == tid;
	o->held = ti == SA_WF_NONE ? 2 : 1;
	o->wake_due = 0;
	o->holder = ti;
	o->holder_tid = tid;
	if (!same || exact) {
		o->held_since = ts;
		o->since_exact = exact;
		o->holder_site = site;
	}
}

static void who_add(struct sa_wf_obj *o, uint32_t ti, uint64_t site, int32_t round)
{
	for (unsigned i = 0; i < o->nwho; i++)
		if (o->who[i].ti == ti && (o->who[i].site == site || round >= 0)) {
			o->who[i].count++;
			o->who[i].round = round;
			return;
		}
	if (o->nwho == SA_WF_MAXW) {
		o->who_dropped++;
		return;
	}
	o->who[o->nwho++] = (struct sa_wf_who){ .ti = ti, .site = site, .count = 1, .round = round };
}

static void reader_set(struct sa_wf_obj *o, uint32_t ti, int add)
{
	for (unsigned i = 0; i < o->nreaders; i++)
		if (o->reader[i] == ti) {
			if (!add)
				o->reader[i] = o->reader[--o->nreaders];
			return;
		}
	if (add && o->nreaders < SA_WF_MAXW)
		o->reader[o->nreaders++] = ti;
}

/* The model's object for an address of process pi; SA_WF_NONE if none. */
static uint32_t obj_at(const struct sa_model *m, uint32_t pi, int64_t addr)
{
	int64_t i = addr ? sa_map_get(&m->obj_map, pi, (uint64_t)addr) : -1;
	return i >= 0 ? (uint32_t)i : SA_WF_NONE;
}

static void mutex_event(struct sa_model *m, struct sa_waitfor *w, const struct sa_event *e,
			uint32_t pi, uint32_t ti, struct sa_wf_thread *t, uint32_t oi,
			struct sa_wf_obj *o)
{
	int64_t v;
	switch (e->id) {
	case SA_EV_mutex_requested:
		v = e->f[SA_F_mutex_requested_owner].v;
		/* A thread re-acquiring after its condvar wait stays a relock. */
		if (!(t->blocked && t->kind == SA_WAIT_COND_RELOCK && t->obj == oi))
			block(t, SA_WAIT_MUTEX, oi, e->ts, (uint64_t)e->f[SA_F_mutex_requested_caller].v);
		if (v > 0)
			hold(o, thread_of_tid(m, pi, oi, v), (int32_t)v, e->ts, 0, 0);
		break;
	case SA_EV_mutex_acquired:
		unblock(t, oi);
		hold(o, ti, m->threads[ti].vtid, e->ts, 1, (uint64_t)e->f[SA_F_mutex_acquired_caller].v);
		break;
	case SA_EV_mutex_timeout:
		unblock(t, oi);
		break;
	case SA_EV_mutex_released:
		o->held = 0;
		o->wake_due = e->f[SA_F_mutex_released_woken].v > 0;
		break;
	case SA_EV_mutex_trylock_failed:
		if ((v = e->f[SA_F_mutex_trylock_failed_owner].v) > 0)
			hold(o, thread_of_tid(m, pi, oi, v), (int32_t)v, e->ts, 0, 0);
		break;
	case SA_EV_mutex_misuse:
		v = e->f[SA_F_mutex_misuse_owner].v;
		if (e->f[SA_F_mutex_misuse_what].v == ST_MUTEX_MISUSE_RELOCK_OWNER) {
			/* A normal mutex relocked by its owner: it sleeps on itself. */
			block(t, SA_WAIT_MUTEX, oi, e->ts, (uint64_t)e->f[SA_F_mutex_misuse_caller].v);
			hold(o, ti, m->threads[ti].vtid, e->ts, 0, 0);
		} else if (v > 0) {
			hold(o, thread_of_tid(m, pi, oi, v), (int32_t)v, e->ts, 0, 0);
		}
		break;
	default:
		break;
	}
	(void)w;
}

/* A condvar waiter's wait is over: it re-acquires the mutex now. */
static void released(struct sa_wf_thread *t, uint32_t oi, int64_t ts)
{
	unblock(t, oi);
	if (t->mutex != SA_WF_NONE)
		block(t, SA_WAIT_COND_RELOCK, t->mutex, ts, t->site);
}

static void cond_event(struct sa_model *m, struct sa_waitfor *w, const struct sa_event *e,
		       uint32_t pi, uint32_t ti, struct sa_wf_thread *t, uint32_t oi,
		       struct sa_wf_obj *o)
{
	uint32_t mx;
	struct sa_wf_obj *mo;
	switch (e->id) {
	case SA_EV_cond_enqueued:
		block(t, SA_WAIT_COND, oi, e->ts, (uint64_t)e->f[SA_F_cond_enqueued_caller].v);
		t->timed = e->f[SA_F_cond_enqueued_timed].v != 0;
		t->mutex = mx = obj_at(m, pi, e->f[SA_F_cond_enqueued_mutex].v);
		t->node = (uint64_t)e->f[SA_F_cond_enqueued_node].v;
		/* The wait releases the mutex (its release has an event only
		 * when a waiter was due a wake). */
		if (mx != SA_WF_NONE && (mo = obj(w, mx)))
			mo->held = 0;
		break;
	case SA_EV_cond_signaled: {
		/* WAITING -> SIGNALED: that waiter's wait is over, it re-acquires
		 * the mutex next (its woke may come much later). */
		int64_t x = sa_map_get(&m->node_map, m->objs[oi].proc,
				       (uint64_t)e->f[SA_F_cond_signaled_node].v);
		struct sa_wf_thread *u = x >= 0 ? thr(w, (uint32_t)x) : NULL;
		if (u && u->blocked && u->kind == SA_WAIT_COND && u->obj == oi &&
		    u->node == (uint64_t)e->f[SA_F_cond_signaled_node].v)
			released(u, oi, e->ts);
		break;
	}
	case SA_EV_cond_signal:
		who_add(o, ti, (uint64_t)e->f[SA_F_cond_signal_caller].v, -1);
		/* Process-shared: no nodes; a broadcast releases every waiter, a
		 * signal the oldest (the sequence moved: one of them wakes). */
		if (!e->f[SA_F_cond_signal_moved].v)
			break;
		for (int all = e->f[SA_F_cond_signal_broadcast].v != 0, done = 0; !done;) {
			struct sa_wf_thread *old = NULL;
			for (uint32_t i = 0; i < w->nt; i++) {
				struct sa_wf_thread *u = &w->t[i];
				if (u->blocked && u->kind == SA_WAIT_COND && u->obj == oi && !u->node &&
				    (!old || u->since < old->since))
					old = u;
			}
			if (old)
				released(old, oi, e->ts);
			done = !old || !all;
		}
		break;
	case SA_EV_cond_woke:
	case SA_EV_cond_leaving:
		if (t->blocked && t->kind == SA_WAIT_COND && t->obj == oi)
			released(t, oi, e->ts);
		break;
	case SA_EV_cond_relocked:
		mx = obj_at(m, pi, e->f[SA_F_cond_relocked_mutex].v);
		if (t->blocked && (t->kind == SA_WAIT_COND_RELOCK || t->kind == SA_WAIT_MUTEX) &&
		    t->obj == mx)
			unblock(t, mx);
		else if (t->blocked && t->obj == oi)
			unblock(t, oi);
		if (mx != SA_WF_NONE && !e->f[SA_F_cond_relocked_result].v && (mo = obj(w, mx)))
			hold(mo, ti, m->threads[ti].vtid, e->ts, 1, 0);
		break;
	default:
		break;
	}
}

static void rwlock_event(struct sa_model *m, const struct sa_event *e, uint32_t pi, uint32_t ti,
			 struct sa_wf_thread *t, uint32_t oi, struct sa_wf_obj *o)
{
	int64_t v;
	switch (e->id) {
	case SA_EV_rwlock_requested:
		block(t, e->f[SA_F_rwlock_requested_write].v ? SA_WAIT_RWLOCK_WRITE : SA_WAIT_RWLOCK_READ,
		      oi, e->ts, (uint64_t)e->f[SA_F_rwlock_requested_caller].v);
		if ((v = e->f[SA_F_rwlock_requested_writer].v) > 0) {
			hold(o, thread_of_tid(m, pi, oi, v), (int32_t)v, e->ts, 0, 0);
		} else {
			if (o->held)
				o->held = 0;
			o->readers = (int)e->f[SA_F_rwlock_requested_readers].v;
		}
		break;
	case SA_EV_rwlock_acquired:
		unblock(t, oi);
		if (e->f[SA_F_rwlock_acquired_write].v) {
			hold(o, ti, m->threads[ti].vtid, e->ts, 1,
			     (uint64_t)e->f[SA_F_rwlock_acquired_caller].v);
		} else {
			o->held = 0;
			o->wake_due = 0;
			o->readers = (int)e->f[SA_F_rwlock_acquired_readers].v;
			reader_set(o, ti, 1);
		}
		break;
	case SA_EV_rwlock_timeout:
		unblock(t, oi);
		break;
	case SA_EV_rwlock_released:
		if (e->f[SA_F_rwlock_released_woken].v > 0)
			o->wake_due = 1;
		if (e->f[SA_F_rwlock_released_write].v) {
			o->held = 0;
		} else {
			reader_set(o, ti, 0);
			o->readers = (int)e->f[SA_F_rwlock_released_readers_left].v;
		}
		break;
	case SA_EV_rwlock_readers_drained:
		o->wake_due = 1;
		o->readers = 0;
		o->nreaders = 0;
		break;
	default:
		break;
	}
}

static void other_event(struct sa_waitfor *w, const struct sa_event *e, uint32_t ti,
			struct sa_wf_thread *t, uint32_t oi, struct sa_wf_obj *o)
{
	int32_t r;
	switch (e->id) {
	case SA_EV_sem_wait_begin:
		block(t, SA_WAIT_SEM, oi, e->ts, (uint64_t)e->f[SA_F_sem_wait_begin_caller].v);
		o->tokens = (int)e->f[SA_F_sem_wait_begin_value].v;
		break;
	case SA_EV_sem_acquired:
		if (o->tokens > 0)
			o->tokens--;
		unblock(t, oi);
		break;
	case SA_EV_sem_timeout:
		unblock(t, oi);
		break;
	case SA_EV_sem_post:
		/* A token its sleepers will take: none of them is stuck yet. */
		who_add(o, ti, (uint64_t)e->f[SA_F_sem_post_caller].v, -1);
		if (!e->f[SA_F_sem_post_result].v)
			o->tokens = (int)e->f[SA_F_sem_post_value].v;
		break;
	case SA_EV_barrier_arrival:
		r = (int32_t)e->f[SA_F_barrier_arrival_round].v;
		block(t, SA_WAIT_BARRIER, oi, e->ts, (uint64_t)e->f[SA_F_barrier_arrival_caller].v);
		t->round = r;
		o->round = r;
		o->count = (int)e->f[SA_F_barrier_arrival_count].v;
		o->arrived = (int)e->f[SA_F_barrier_arrival_arrived].v;
		who_add(o, ti, 0, r);
		break;
	case SA_EV_barrier_released:
		/* The round opened: its waiters are free, departed or not. */
		r = (int32_t)e->f[SA_F_barrier_released_round].v;
		who_add(o, ti, 0, r);
		for (uint32_t i = 0; i < w->nt; i++)
			if (w->t[i].blocked && w->t[i].kind == SA_WAIT_BARRIER && w->t[i].obj == oi &&
			    w->t[i].round == r)
				w->t[i].blocked = 0;
		o->round = r + 1;
		o->count = (int)e->f[SA_F_barrier_released_count].v;
		o->arrived = 0;
		break;
	case SA_EV_barrier_departure:
		unblock(t, oi);
		break;
	case SA_EV_once_run:
		o->nwho = 0;
		who_add(o, ti, (uint64_t)e->f[SA_F_once_run_caller].v, -1);
		o->running = 1;
		break;
	case SA_EV_once_finished:
		o->running = 0;
		break;
	case SA_EV_once_wait:
		block(t, SA_WAIT_ONCE, oi, e->ts, (uint64_t)e->f[SA_F_once_wait_caller].v);
		break;
	case SA_EV_once_waited:
		unblock(t, oi);
		break;
	default:
		break;
	}
}

void sa_waitfor_feed(struct sa_model *m, const struct sa_event *e, uint32_t pi, uint32_t ti)
{
	struct sa_waitfor *w = state(m);
	if (!w || w->past_end)
		return;
	if (w->have_at && e->ts > m->first_ts + (int64_t)(w->at_s * 1e9)) {
		w->past_end = 1;
		w->end = m->first_ts + (int64_t)(w->at_s * 1e9);
		return;
	}
	w->end = e->ts;
	struct sa_wf_thread *t = thr(w, ti);
	if (!t)
		return;
	if (e->id == SA_EV_thread_exit) {
		t->blocked = 0;
		t->exited = 1;
		t->exit_ts = e->ts;
		return;
	}
	if (e->id == SA_EV_meta_stop) {
		/* The process is gone: none of its threads waits any more. */
		if (reach(w, (void **)&w->proc_ended, &w->np, pi, 1))
			return;
		w->proc_ended[pi] = 1;
		for (uint32_t i = 0; i < m->nthreads && i < w->nt; i++)
			if (m->threads[i].proc == pi && !w->t[i].exited) {
				w->t[i].blocked = 0;
				w->t[i].exited = 1;
				w->t[i].exit_ts = e->ts;
			}
		return;
	}
	uint64_t addr;
	if (!sa_ev_obj(e, &addr))
		return;
	uint32_t oi = obj_at(m, pi, (int64_t)addr);
	if (oi != SA_WF_NONE && m->objs[oi].destroyed) { /* its family saw it destroyed */
		obj_gone(w, oi);
		return;
	}
	struct sa_wf_obj *o = oi != SA_WF_NONE ? obj(w, oi) : NULL;
	if (!o || !(t = thr(w, ti))) /* obj() may have moved nothing, thr() is stable */
		return;
	const struct sa_family *f = sa_family_of_event(e->id);
	if (!f)
		return;
	switch (m->objs[oi].type) {
	case SA_OBJ_MUTEX:
		mutex_event(m, w, e, pi, ti, t, oi, o);
		break;
	case SA_OBJ_COND:
		cond_event(m, w, e, pi, ti, t, oi, o);
		break;
	case SA_OBJ_RWLOCK:
		rwlock_event(m, e, pi, ti, t, oi, o);
		break;
	default:
		other_event(w, e, ti, t, oi, o);
		break;
	}
}

/* ---- solving ------------------------------------------------------------- */

static void waker(struct sa_wf_thread *t, uint32_t ti)
{
	for (unsigned i = 0; i < t->nwakers; i++)
		if (t->wakers[i] == ti)
			return;
	if (t->nwakers < SA_WF_MAXW)
		t->wakers[t->nwakers++] = ti;
	else
		t->complete = 0;
}

/* The threads that can end t's wait, and whether they are all known. */
static void edges(const struct sa_model *m, const struct sa_waitfor *w, struct sa_wf_thread *t,
		  uint32_t self)
{
	t->nwakers = 0;
	t->complete = 0;
	const struct sa_wf_obj *o = sa_waitfor_obj(w, t->obj);
	if (!o)
		return;
	switch (t->kind) {
	case SA_WAIT_MUTEX:
	case SA_WAIT_COND_RELOCK:
	case SA_WAIT_RWLOCK_WRITE:
	case SA_WAIT_RWLOCK_READ:
		if (o->held == 1) {
			t->complete = 1;
			waker(t, o->holder);
		} else if (!o->held && (t->kind == SA_WAIT_RWLOCK_WRITE || t->kind == SA_WAIT_RWLOCK_READ) &&
			   o->readers > 0 && (unsigned)o->readers == o->nreaders) {
			t->complete = 1;
			for (unsigned i = 0; i < o->nreaders; i++)
				waker(t, o->reader[i]);
		}
		break;
	case SA_WAIT_COND:
	case SA_WAIT_SEM:
		t->complete = o->nwho > 0 && !o->who_dropped && !t->timed &&
			      !(t->kind == SA_WAIT_SEM && o->tokens > 0);
		for (unsigned i = 0; i < o->nwho; i++)
			waker(t, o->who[i].ti);
		break;
	case SA_WAIT_ONCE:
		t->complete = o->running && o->nwho == 1;
		if (o->running && o->nwho)
			waker(t, o->who[0].ti);
		break;
	case SA_WAIT_BARRIER:
		/* The threads that arrived in an earlier round and not in this one. */
		for (unsigned i = 0; i < o->nwho; i++)
			if (o->who[i].round != t->round && o->who[i].ti != self)
				waker(t, o->who[i].ti);
		t->complete = t->nwakers > 0 && !o->who_dropped;
		break;
	default:
		break;
	}
	(void)m;
}

/* Can nothing but another process, or a thread the trace never saw, end
 * t's wait? Its object is its process's own, it will not time out and no
 * wake is on its way to it. */
static int only_threads_end(const struct sa_model *m, const struct sa_waitfor *w,
			    const struct sa_wf_thread *t)
{
	const struct sa_wf_obj *o = sa_waitfor_obj(w, t->obj);
	if (!o || t->timed || t->obj >= m->nobjs || m->objs[t->obj].shared || o->wake_due ||
	    (t->kind == SA_WAIT_SEM && o->tokens > 0))
		return 0;
	return 1;
}

/* A process whose every thread the trace knows is blocked so: its waits
 * with unknown wakers are stuck too (nothing of it runs to end them). */
static void all_blocked(const struct sa_model *m, struct sa_waitfor *w, uint32_t n)
{
	free(w->proc_all_blocked);
	if (!(w->proc_all_blocked = calloc(m->nprocs ? m->nprocs : 1, 1))) {
		w->oom = 1;
		return;
	}
	for (uint32_t p = 0; p < m->nprocs; p++)
		w->proc_all_blocked[p] = 1;
	for (uint32_t i = 0; i < m->nthreads; i++) {
		const struct sa_wf_thread *t = i < n ? &w->t[i] : NULL;
		uint32_t p = m->threads[i].proc;
		if (t && t->exited)
			continue;
		if (!t || !t->blocked || !only_threads_end(m, w, t))
			w->proc_all_blocked[p] = 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct sa_wf_thread *t = &w->t[i];
		if (t->blocked && !t->exited && !t->complete &&
		    w->proc_all_blocked[m->threads[i].proc]) {
			t->complete = t->stuck = t->all_blocked = 1;
			t->nwakers = 0;
		}
	}
	/* A process with no blocked thread is not "all blocked". */
	for (uint32_t p = 0; p < m->nprocs; p++) {
		int any = 0;
		for (uint32_t i = 0; i < n && !any; i++)
			any = m->threads[i].proc == p && w->t[i].blocked && !w->t[i].exited;
		if (!any)
			w->proc_all_blocked[p] = 0;
	}
}

const struct sa_waitfor *sa_waitfor_solve(const struct sa_model *m)
{
	struct sa_waitfor *w = m->waitfor;
	if (!w || w->solved)
		return w;
	w->solved = 1;
	uint32_t n = w->nt < m->nthreads ? w->nt : m->nthreads;
	/* A blocked thread acquires nothing: a lock it holds, first seen held
	 * after its wait began, was held since that wait at least. */
	for (uint32_t oi = 0; oi < w->no; oi++) {
		struct sa_wf_obj *o = w->o[oi];
		if (o && o->held == 1 && !o->since_exact && o->holder < n) {
			const struct sa_wf_thread *h = &w->t[o->holder];
			if (h->blocked && !h->exited && h->obj != oi && h->since < o->held_since)
				o->held_since = h->since;
		}
	}
	w->blocked = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct sa_wf_thread *t = &w->t[i];
		t->stuck = 0;
		if (!t->blocked || t->exited)
			continue;
		w->blocked++;
		edges(m, w, t, i);
		t->stuck = t->complete;
	}
	all_blocked(m, w, n);
	/* The greatest set whose every waker is in it or exited: drop a wait
	 * one of whose wakers can still run, until none drops. */
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t i = 0; i < n; i++) {
			struct sa_wf_thread *t = &w->t[i];
			if (!t->stuck)
				continue;
			for (unsigned k = 0; k < t->nwakers; k++) {
				uint32_t x = t->wakers[k];
				const struct sa_wf_thread *u = x < n ? &w->t[x] : NULL;
				if (!u || (!u->exited && !u->stuck)) {
					t->stuck = 0;
					changed = 1;
					break;
				}
			}
		}
	}
	w->stuck = 0;
	for (uint32_t i = 0; i < n; i++)
		w->stuck += w->t[i].stuck;
	return w;
}
