/* The wake-outcome ledger (sa_wake_ledger.h, doc/wakes.md).
 *
 * A WAKE is one waking call in flight: made when it is seen, named (its
 * event and call site: RESOLVED) once the event that says what it was
 * arrives, freed when nothing refers to it any more. Until it is named its
 * numbers gather in `pend` and stand, after each event, in a provisional
 * entry (futex:wake, site 0; a signal: cond:signal at its signaled
 * events' site), from which they move when it is named: a wake nothing
 * names (the trace ended) stays counted there.
 *
 * FUTEX LEVEL (every object but condvars), per woken thread W:
 *   a futex:wake of T on O woke n (the kernel's count). W's futex:wait on O
 *   that returned 0 is one of them: the wake's credits and the returns on O
 *   are matched oldest first, whichever event comes first (the woken one
 *   may run and emit before its waker's event is stamped).
 *     linked   --W's next event on O (acquired, took the token ...)--> WON
 *     linked   --W's next futex wait on O that slept-->                LOST
 *     linked   --W's timeout on O-->                                    (undecided)
 *   T's next event, if it is a primitive's event on O with a call site
 *   (mutex:released, sem:post ...), names the wake; anything else leaves it
 *   futex:wake, site 0.
 *
 * CONDVAR LEVEL, per waiter W (its node names it: cond:enqueued):
 *   state     event                                 next
 *   none      enqueued on C (mutex M)               WAITING
 *   WAITING   signaled (by S: S's open signal)      SIGNALED
 *   WAITING   woke timed out / cancelled            none
 *   SIGNALED  woke, cancelled holding the signal    none (PASSED_ON)
 *   SIGNALED  relocked                              RETURNED (WON, latency)
 *   RETURNED  enqueued on C, M, same mutex_acq      WAITING (WON becomes FUTILE)
 *   RETURNED  enqueued otherwise                    WAITING
 *   NONE or RETURNED, signaled (its node, on C)     the same, the signal pending:
 *             its next enqueued, on C, is SIGNALED by it
 *   A waiter writes its enqueued after the mutex's release (format 4.11),
 *   so a signaler that takes the mutex at once can stamp its signaled
 *   first, on a loaded machine most of all: a node is signaled only while
 *   linked, so that signal is the wait's whose record is still to come.
 *   S's signaled and met_leaving events gather in S's open signal, which
 *   its cond:signal names (signal or broadcast, its caller). The waiter's
 *   release is the signal (the batch's first) or the hand-off that
 *   released it (the others); a waiter released onto the mutex word by a
 *   requeue runs when the mutex wakes it, so its futex return is matched
 *   on the mutex (as a mutex sleeper's) and its scheduler delay counts from
 *   that wake. Process-shared condvars have no nodes: a woke matches the
 *   signal's credits on C in order.
 *
 * Memory: wakes in flight are bounded by the threads (each refers to at
 * most two) and the per-object rings (RING credits and returns each); the
 * entries grow with the call sites. */
#include <stdlib.h>
#include <string.h>

#include "sa_model.h"

#define RING 8

struct sa_wl_wake {
	uint32_t obj, waker;
	int64_t ts;
	uint16_t ev;
	uint8_t broadcast, resolved, is_cond;
	uint64_t site;
	uint32_t refs;
	uint32_t moved, met;        /* condvar: waiters signaled, leaving waiters met */
	struct sa_wl_counts pend, shown; /* unnamed: its numbers, those in its provisional entry */
	uint32_t next_free;
};

struct credit {
	uint32_t wake; /* id + 1 */
	uint32_t n;
};

struct ret {
	uint32_t thread;
	int64_t ts, since; /* returned; asleep since (ts - slept_ns) */
	int out;       /* -1 none yet, else its outcome (seen before its wake;
	                  SA_WL_NOUTCOMES: it gave up, no outcome) */
	int64_t reacq;
};

struct sa_wl_obj {
	struct sa_wl_entry *e;
	uint32_t n, cap;
	struct credit cred[RING];
	unsigned ncred;
	struct ret ret[RING];
	unsigned nret;
};

enum { C_NONE, C_WAITING, C_SIGNALED, C_RETURNED };

const char *sa_wl_outcome_name(enum sa_wl_outcome k)
{
	static const char *const n[SA_WL_NOUTCOMES] = { "won", "lost", "futile", "passed_on" };
	return (unsigned)k < SA_WL_NOUTCOMES ? n[k] : "?";
}

const char *sa_wl_op_name(const struct sa_wl_entry *e)
{
	if (e->ev == SA_EV_summary_object)
		return e->kinds == 4   ? "futex:wake"
		       : e->kinds == 2 ? "cond:broadcast"
		       : e->kinds == 1 ? "cond:signal"
				       : "cond:signal/broadcast";
	if (e->ev == SA_EV_cond_signal)
		return e->broadcast ? "cond:broadcast" : "cond:signal";
	const char *s = sa_event_name((enum sa_event_id)e->ev);
	return s && !strncmp(s, "synctrace_", 10) ? s + 10 : s ? s : "?";
}

/* ---- wakes, entries ------------------------------------------------------ */

static struct sa_wl_wake *wk(struct sa_model *m, uint32_t id)
{
	return id && id <= m->wl.n ? &m->wl.wakes[id - 1] : NULL;
}

static uint32_t wake_new(struct sa_model *m, uint32_t obj, uint32_t waker, int64_t ts)
{
	uint32_t id = m->wl.free_head;
	if (id) {
		m->wl.free_head = m->wl.wakes[id - 1].next_free;
	} else {
		if (sa_grow((void **)&m->wl.wakes, m->wl.n, &m->wl.cap, sizeof(*m->wl.wakes))) {
			m->oom = 1;
			return 0;
		}
		id = ++m->wl.n;
	}
	struct sa_wl_wake *w = &m->wl.wakes[id - 1];
	memset(w, 0, sizeof(*w));
	w->obj = obj;
	w->waker = waker;
	w->ts = ts;
	w->ev = SA_EV_futex_wake;
	w->refs = 1; /* its waker's, until it is named */
	return id;
}

static void unref(struct sa_model *m, uint32_t id)
{
	struct sa_wl_wake *w = wk(m, id);
	if (w && w->refs && !--w->refs && w->resolved) {
		w->next_free = m->wl.free_head;
		m->wl.free_head = id;
	}
}

static uint32_t ref(struct sa_model *m, uint32_t id)
{
	struct sa_wl_wake *w = wk(m, id);
	if (w)
		w->refs++;
	return id;
}

static struct sa_wl_obj *obj_wl(struct sa_model *m, uint32_t oi)
{
	struct sa_object *o = &m->objs[oi];
	if (!o->wl && !(o->wl = calloc(1, sizeof(*o->wl))))
		m->oom = 1;
	return o->wl;
}

static struct sa_wl_entry *entry_in(struct sa_model *m, struct sa_wl_obj *w, uint16_t ev,
				    uint8_t bc, uint64_t site)
{
	for (uint32_t i = 0; i < w->n; i++)
		if (w->e[i].ev == ev && w->e[i].broadcast == bc && w->e[i].site == site)
			return &w->e[i];
	if (sa_grow((void **)&w->e, w->n, &w->cap, sizeof(*w->e))) {
		m->oom = 1;
		return NULL;
	}
	struct sa_wl_entry *e = &w->e[w->n++];
	e->ev = ev;
	e->broadcast = bc;
	e->site = site;
	return e;
}

/* d -= s, for the sums (the maxima stay). */
static uint64_t less(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static void sub(struct sa_wl_counts *d, const struct sa_wl_counts *s)
{
	d->calls = less(d->calls, s->calls);
	d->nobody = less(d->nobody, s->nobody);
	d->woken = less(d->woken, s->woken);
	for (int k = 0; k < SA_WL_NOUTCOMES; k++)
		d->out[k] = less(d->out[k], s->out[k]);
	d->met_leaving = less(d->met_leaving, s->met_leaving);
	d->went_on = less(d->went_on, s->went_on);
	d->multi = less(d->multi, s->multi);
	d->sched_n = less(d->sched_n, s->sched_n);
	d->sched_ns = less(d->sched_ns, s->sched_ns);
	d->reacq_n = less(d->reacq_n, s->reacq_n);
	d->reacq_ns = less(d->reacq_ns, s->reacq_ns);
}

static void add(struct sa_wl_counts *d, const struct sa_wl_counts *s)
{
	d->calls += s->calls;
	d->nobody += s->nobody;
	d->woken += s->woken;
	for (int k = 0; k < SA_WL_NOUTCOMES; k++)
		d->out[k] += s->out[k];
	d->met_leaving += s->met_leaving;
	d->went_on += s->went_on;
	d->multi += s->multi;
	d->sched_n += s->sched_n;
	d->sched_ns += s->sched_ns;
	d->reacq_n += s->reacq_n;
	d->reacq_ns += s->reacq_ns;
	if (s->fan_max > d->fan_max)
		d->fan_max = s->fan_max;
	if (s->sched_max > d->sched_max)
		d->sched_max = s->sched_max;
	if (s->reacq_max > d->reacq_max)
		d->reacq_max = s->reacq_max;
}

static struct sa_wl_counts *entry_of(struct sa_model *m, uint32_t id);

/* Where wake id's numbers go now: its entry, or (unnamed) its pending
 * counts, shown in its provisional entry once this event is taken in. */
static struct sa_wl_counts *counts(struct sa_model *m, uint32_t id)
{
	static struct sa_wl_counts sink; /* out of memory: counted nowhere */
	struct sa_wl_wake *w = wk(m, id);
	if (!w)
		return &sink;
	if (w->resolved)
		return entry_of(m, id);
	unsigned i = 0;
	while (i < m->wl.ndirty && m->wl.dirty[i] != id)
		i++;
	if (i == m->wl.ndirty && i < SA_WL_DIRTY)
		m->wl.dirty[m->wl.ndirty++] = ref(m, id);
	return &wk(m, id)->pend;
}

/* The provisional entry shows what unnamed wake id has now. */
static void show(struct sa_model *m, uint32_t id)
{
	struct sa_wl_wake *w = wk(m, id);
	if (!w || w->resolved)
		return;
	struct sa_wl_counts d = w->pend;
	sub(&d, &w->shown);
	d.fan_max = w->pend.fan_max;
	d.sched_max = w->pend.sched_max;
	d.reacq_max = w->pend.reacq_max;
	add(entry_of(m, id), &d);
	w = wk(m, id);
	w->shown = w->pend;
}

static struct sa_wl_counts *entry_of(struct sa_model *m, uint32_t id)
{
	static struct sa_wl_counts sink;
	struct sa_wl_wake *w = wk(m, id);
	uint16_t ev = w->ev;
	uint8_t bc = w->broadcast;
	uint64_t site = w->site;
	struct sa_wl_obj *ow = obj_wl(m, sa_model_row(m, w->obj));
	struct sa_wl_entry *e = ow ? entry_in(m, ow, ev, bc, site) : NULL;
	return e ? &e->c : &sink;
}

/* Wake id is the call `ev` (broadcast) at site: its numbers move from its
 * provisional entry to its own. */
static void resolve(struct sa_model *m, uint32_t id, uint16_t ev, uint8_t bc, uint64_t site)
{
	struct sa_wl_wake *w = wk(m, id);
	if (!w || w->resolved)
		return;
	struct sa_wl_counts p = w->pend, shown = w->shown;
	sub(entry_of(m, id), &shown);
	w = wk(m, id);
	w->ev = ev;
	w->broadcast = bc;
	w->site = site;
	w->resolved = 1;
	add(entry_of(m, id), &p);
	struct sa_thread *t = &m->threads[wk(m, id)->waker];
	if (t->wl.open == id)
		t->wl.open = 0;
	unref(m, id);
}

static void lat(uint64_t *n, uint64_t *sum, uint64_t *max, int64_t v)
{
	uint64_t u = v > 0 ? (uint64_t)v : 0;
	(*n)++;
	*sum += u;
	if (u > *max)
		*max = u;
}

static void outcome(struct sa_model *m, uint32_t id, int k, int64_t reacq)
{
	struct sa_wl_counts *c = counts(m, id);
	c->out[k]++;
	if (reacq >= 0)
		lat(&c->reacq_n, &c->reacq_ns, &c->reacq_max, reacq);
}

/* ---- futex level ------------------------------------------------------------ */

static int64_t obj_index(const struct sa_model *m, uint32_t proc, uint64_t addr)
{
	int64_t i = sa_map_get(&m->obj_map, proc, addr);
	return i >= 0 && m->objs[i].instances ? i : -1;
}

/* W's return at ts is one that wake id woke: link it, and count what it
 * did meanwhile (out >= 0). */
static void link_woken(struct sa_model *m, uint32_t wti, uint32_t id, uint32_t oi, int64_t ts,
		       int out, int64_t reacq)
{
	struct sa_thread *t = &m->threads[wti];
	struct sa_wl_wake *w = wk(m, id);
	if (!w)
		return;
	int64_t wts = w->ts;
	struct sa_wl_counts *c = counts(m, id);
	lat(&c->sched_n, &c->sched_ns, &c->sched_max, ts - wts);
	if (t->wl.cstate == C_SIGNALED && t->wl.requeued)
		t->wl.mwake_ts = wts; /* the mutex woke a requeued condvar waiter */
	if (out >= 0) {
		if (out < SA_WL_NOUTCOMES)
			outcome(m, id, out, reacq);
		return;
	}
	if (t->wl.link)
		unref(m, t->wl.link);
	t->wl.link = ref(m, id);
	t->wl.on = oi;
	t->wl.run_ts = ts;
}

/* W's pending return (no wake matched yet) is withdrawn, or takes an outcome. */
static struct ret *pending_ret(struct sa_model *m, uint32_t wti)
{
	struct sa_thread *t = &m->threads[wti];
	if (!t->wl.pend_on)
		return NULL;
	struct sa_wl_obj *ow = m->objs[t->wl.pend_on - 1].wl;
	for (unsigned i = 0; ow && i < ow->nret; i++)
		if (ow->ret[i].thread == wti && ow->ret[i].out < 0)
			return &ow->ret[i];
	t->wl.pend_on = 0;
	return NULL;
}

static void fx_outcome(struct sa_model *m, uint32_t wti, int k, int64_t ts)
{
	struct sa_thread *t = &m->threads[wti];
	if (t->wl.link) {
		outcome(m, t->wl.link, k, k == SA_WL_WON ? ts - t->wl.run_ts : -1);
		unref(m, t->wl.link);
		t->wl.link = 0;
		return;
	}
	struct ret *r = pending_ret(m, wti);
	if (r) {
		r->out = k;
		r->reacq = k == SA_WL_WON ? ts - r->ts : -1;
		t->wl.pend_on = 0;
	}
}

static void ring_drop_ret(struct sa_wl_obj *ow, unsigned i)
{
	memmove(&ow->ret[i], &ow->ret[i + 1], (ow->nret - i - 1) * sizeof(ow->ret[0]));
	ow->nret--;
}

static void drop_credit(struct sa_model *m, struct sa_wl_obj *ow)
{
	unref(m, ow->cred[0].wake);
	memmove(&ow->cred[0], &ow->cred[1], (ow->ncred - 1) * sizeof(ow->cred[0]));
	ow->ncred--;
}

/* Thread wti's futex wait on object oi, asleep since `since`, returned 0
 * at ts. A wake whose event is older than the sleep cannot have ended it
 * (its event follows its system call): that credit is stale (its woken
 * thread's return was never seen as such), dropped. */
static void fx_returned(struct sa_model *m, uint32_t wti, uint32_t oi, int64_t ts, int64_t since)
{
	struct sa_wl_obj *ow = obj_wl(m, oi);
	if (!ow)
		return;
	struct sa_thread *t = &m->threads[wti];
	while (ow->ncred && wk(m, ow->cred[0].wake)->ts < since)
		drop_credit(m, ow);
	if (ow->ncred) {
		uint32_t id = ow->cred[0].wake;
		int used_up = !--ow->cred[0].n;
		if (used_up) {
			memmove(&ow->cred[0], &ow->cred[1], (ow->ncred - 1) * sizeof(ow->cred[0]));
			ow->ncred--;
		}
		link_woken(m, wti, id, oi, ts, -1, -1);
		if (used_up) /* the credit's reference (the link took its own) */
			unref(m, id);
		return;
	}
	/* Before its wake's event: wait for it. A thread waits for one wake:
	 * an older return of it here was not a wake's (spurious). */
	struct ret *old = pending_ret(m, wti);
	if (old) {
		struct sa_wl_obj *po = m->objs[t->wl.pend_on - 1].wl;
		ring_drop_ret(po, (unsigned)(old - po->ret));
	}
	for (unsigned i = ow->nret; i-- > 0;)
		if (ow->ret[i].thread == wti)
			ring_drop_ret(ow, i);
	if (ow->nret == RING) {
		struct sa_thread *o = &m->threads[ow->ret[0].thread];
		if (ow->ret[0].out < 0 && o->wl.pend_on == oi + 1)
			o->wl.pend_on = 0;
		ring_drop_ret(ow, 0);
	}
	ow->ret[ow->nret++] = (struct ret){ wti, ts, since, -1, -1 };
	t->wl.pend_on = oi + 1;
}

/* Wake id on object oi woke n: returns already seen first, then credits. */
static void fx_credit(struct sa_model *m, uint32_t id, uint32_t oi, int64_t n)
{
	struct sa_wl_obj *ow = obj_wl(m, oi);
	if (!ow)
		return;
	int64_t wts = wk(m, id)->ts;
	for (unsigned i = 0; n > 0 && i < ow->nret;) {
		struct ret r = ow->ret[i];
		if (r.since > wts) { /* asleep only after this wake: not its */
			i++;
			continue;
		}
		ring_drop_ret(ow, i);
		if (r.out < 0 && m->threads[r.thread].wl.pend_on == oi + 1)
			m->threads[r.thread].wl.pend_on = 0;
		link_woken(m, r.thread, id, oi, r.ts, r.out, r.reacq);
		n--;
	}
	if (n <= 0)
		return;
	if (ow->ncred == RING)
		drop_credit(m, ow);
	ow->cred[ow->ncred++] = (struct credit){ ref(m, id), (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n) };
}

static void fx_wake(struct sa_model *m, const struct sa_event *e, uint32_t ti, uint32_t oi)
{
	int64_t n = e->f[SA_F_futex_wake_woken].v, req = e->f[SA_F_futex_wake_requested].v;
	uint32_t id = wake_new(m, oi, ti, e->ts);
	if (!id)
		return;
	struct sa_wl_counts *c = counts(m, id);
	c->calls++;
	if (n <= 0)
		c->nobody++;
	else
		c->woken += (uint64_t)n;
	if (req > 1) {
		c->multi++;
		if (n > 0 && (uint64_t)n > c->fan_max)
			c->fan_max = (uint64_t)n;
	}
	m->threads[ti].wl.open = id;
	fx_credit(m, id, oi, n);
}

static void fx_wait(struct sa_model *m, const struct sa_event *e, uint32_t ti, uint32_t oi)
{
	int64_t r = e->f[SA_F_futex_wait_result].v;
	struct sa_thread *t = &m->threads[ti];
	if (r == 11) /* EAGAIN: it never slept */
		return;
	if (t->wl.link && t->wl.on == oi)
		fx_outcome(m, ti, SA_WL_LOST, e->ts); /* woken, and asleep on it again */
	else if (t->wl.pend_on == oi + 1)
		fx_outcome(m, ti, SA_WL_LOST, e->ts);
	int64_t slept = e->f[SA_F_futex_wait_slept_ns].v;
	if (r == 0)
		fx_returned(m, ti, oi, e->ts, e->ts - (slept > 0 ? slept : 0));
}

/* Any other event of thread ti: on the object it was woken from, it got past. */
static void fx_past(struct sa_model *m, const struct sa_event *e, uint32_t ti, int has_obj,
		    uint64_t addr)
{
	struct sa_thread *t = &m->threads[ti];
	uint32_t on = t->wl.link ? t->wl.on : t->wl.pend_on ? t->wl.pend_on - 1 : UINT32_MAX;
	if (on == UINT32_MAX)
		return;
	uint64_t at = m->objs[on].addr;
	int64_t mx;
	int timeout = e->id == SA_EV_mutex_timeout || e->id == SA_EV_sem_timeout ||
		      e->id == SA_EV_rwlock_timeout;
	if (timeout && has_obj && addr == at) { /* woken, then gave up: neither */
		struct ret *r = t->wl.link ? NULL : pending_ret(m, ti);
		if (t->wl.link)
			unref(m, t->wl.link);
		t->wl.link = 0;
		if (r)
			r->out = SA_WL_NOUTCOMES; /* its wake finds it, counts no outcome */
		t->wl.pend_on = 0;
	} else if ((has_obj && addr == at) ||
		   (e->id == SA_EV_cond_relocked && sa_ev_at(e, SA_F_cond_relocked_mutex, &mx) &&
		    (uint64_t)mx == at)) {
		fx_outcome(m, ti, SA_WL_WON, e->ts);
	}
}

/* ---- condvar level -------------------------------------------------------- */

static void c_reset(struct sa_model *m, struct sa_thread *t)
{
	if (t->wl.cwake)
		unref(m, t->wl.cwake);
	t->wl.cwake = 0;
	t->wl.cstate = C_NONE;
	t->wl.requeued = 0;
}

/* S's signal in progress on condvar oi (made by its first signaled or
 * met_leaving event, named by its cond:signal). */
static uint32_t open_signal(struct sa_model *m, uint32_t sti, uint32_t oi, int64_t ts,
			    uint64_t site)
{
	struct sa_thread *s = &m->threads[sti];
	struct sa_wl_wake *w = wk(m, s->wl.open);
	if (w && w->is_cond && w->obj == oi)
		return s->wl.open;
	if (w)
		resolve(m, s->wl.open, w->is_cond ? SA_EV_cond_signal : SA_EV_futex_wake, 0, 0);
	uint32_t id = wake_new(m, oi, sti, ts);
	if ((w = wk(m, id))) {
		w->is_cond = 1;
		w->ev = SA_EV_cond_signal;
		w->site = site;
	}
	m->threads[sti].wl.open = id;
	return id;
}

static struct sa_thread *node_thread(struct sa_model *m, uint32_t oi, int64_t node)
{
	int64_t w = node ? sa_map_get(&m->node_map, m->objs[oi].proc, (uint64_t)node) : -1;
	return w >= 0 ? &m->threads[w] : NULL;
}

/* Waiter t is SIGNALED by signal id (its reference, taken) at ts. */
static void c_take(struct sa_thread *t, uint32_t id, int64_t ts)
{
	t->wl.cstate = C_SIGNALED;
	t->wl.cwake = id;
	t->wl.sig_ts = ts;
	t->wl.rel_ts = t->wl.first_ts = t->wl.mwake_ts = 0;
	t->wl.requeued = 0;
}

static void c_enqueued(struct sa_model *m, const struct sa_event *e, struct sa_thread *t,
		       uint32_t oi)
{
	int64_t mx = e->f[SA_F_cond_enqueued_mutex].v, acq;
	int has = sa_ev_at(e, SA_F_cond_enqueued_mutex_acq, &acq);
	if (t->wl.cstate == C_RETURNED && t->wl.cwake && t->wl.cond == oi &&
	    t->wl.mutex == (uint64_t)mx && has && acq && (uint64_t)acq == t->wl.acq) {
		struct sa_wl_counts *c = counts(m, t->wl.cwake);
		if (c->out[SA_WL_WON])
			c->out[SA_WL_WON]--;
		c->out[SA_WL_FUTILE]++;
	}
	c_reset(m, t);
	t->wl.cstate = C_WAITING;
	t->wl.cond = oi;
	t->wl.mutex = (uint64_t)mx;
	if (t->wl.pend_sig) { /* signaled before this record: c_signaled */
		uint32_t id = t->wl.pend_sig;
		t->wl.pend_sig = 0;
		if (t->wl.pend_cond == oi)
			c_take(t, id, t->wl.pend_ts); /* the pending reference, now the wait's */
		else
			unref(m, id);
	}
}

static void c_signaled(struct sa_model *m, const struct sa_event *e, uint32_t ti, uint32_t oi)
{
	uint32_t id = open_signal(m, ti, oi, e->ts, (uint64_t)e->f[SA_F_cond_signaled_caller].v);
	struct sa_wl_wake *w = wk(m, id);
	if (!w)
		return;
	w->moved++;
	counts(m, id)->woken++;
	struct sa_thread *t = node_thread(m, oi, e->f[SA_F_cond_signaled_node].v);
	if (!t)
		return;
	if ((t->wl.cstate == C_NONE || t->wl.cstate == C_RETURNED) && !t->wl.pend_sig) {
		/* Its enqueued record comes later (the state machine above). */
		t->wl.pend_sig = ref(m, id);
		t->wl.pend_cond = oi;
		t->wl.pend_ts = e->ts;
		return;
	}
	if (t->wl.cstate == C_WAITING && t->wl.cond == oi)
		c_take(t, ref(m, id), e->ts);
}

static void c_signal(struct sa_model *m, const struct sa_event *e, uint32_t ti, uint32_t oi)
{
	int64_t moved = e->f[SA_F_cond_signal_moved].v;
	uint8_t bc = e->f[SA_F_cond_signal_broadcast].v != 0;
	struct sa_wl_wake *w = wk(m, m->threads[ti].wl.open);
	uint32_t id;
	int shared = 0;
	if (w && w->is_cond && w->obj == oi) {
		id = m->threads[ti].wl.open;
	} else { /* no signaled event: a process-shared condvar */
		if (!(id = open_signal(m, ti, oi, e->ts, (uint64_t)e->f[SA_F_cond_signal_caller].v)))
			return;
		shared = moved > 0;
	}
	uint32_t met = wk(m, id)->met;
	ref(m, id);
	resolve(m, id, SA_EV_cond_signal, bc, (uint64_t)e->f[SA_F_cond_signal_caller].v);
	struct sa_wl_counts *c = counts(m, id);
	c->calls++;
	if (moved <= 0)
		c->nobody++;
	if (!bc && met && moved > 0)
		c->went_on++;
	if (bc) {
		c->multi++;
		if (moved > 0 && (uint64_t)moved > c->fan_max)
			c->fan_max = (uint64_t)moved;
	}
	if (shared) {
		c->woken += (uint64_t)moved;
		fx_credit(m, id, oi, moved);
	}
	struct sa_thread *t = node_thread(m, oi, e->f[SA_F_cond_signal_first].v);
	if (t && t->wl.cwake == id && t->wl.cstate == C_SIGNALED) {
		t->wl.rel_ts = e->ts;
		t->wl.requeued = e->f[SA_F_cond_signal_first_how].v == ST_COND_RELEASE_REQUEUED;
	}
	unref(m, id);
}

static void c_relocked(struct sa_model *m, const struct sa_event *e, struct sa_thread *t)
{
	int64_t acq;
	if (t->wl.cstate != C_SIGNALED)
		return;
	int64_t rel = t->wl.rel_ts ? t->wl.rel_ts : t->wl.sig_ts;
	int64_t call = t->wl.requeued ? t->wl.mwake_ts : rel;
	int64_t run = t->wl.first_ts ? t->wl.first_ts : e->ts;
	int64_t sched = run > call ? run - call : 0, total = e->ts > rel ? e->ts - rel : 0;
	if (t->wl.cwake) {
		/* A requeued waiter whose mutex wake was not matched (yet): its
		 * delay is unknown, and the whole hand-off is re-acquisition. */
		if (call) {
			struct sa_wl_counts *c = counts(m, t->wl.cwake);
			lat(&c->sched_n, &c->sched_ns, &c->sched_max, sched);
		} else {
			sched = 0;
		}
		outcome(m, t->wl.cwake, SA_WL_WON, total > sched ? total - sched : 0);
	}
	t->wl.cstate = C_RETURNED;
	t->wl.acq = sa_ev_at(e, SA_F_cond_relocked_mutex_acq, &acq) && acq > 0 ? (uint64_t)acq : 0;
}

/* A shared condvar's waiter woke signaled: the signal's credit, in order. */
static void c_woke_shared(struct sa_model *m, const struct sa_event *e, uint32_t ti, uint32_t oi)
{
	struct sa_thread *t = &m->threads[ti];
	struct sa_wl_obj *ow = obj_wl(m, oi);
	if (!ow || !ow->ncred || t->wl.cstate != C_WAITING)
		return;
	uint32_t id = ow->cred[0].wake;
	c_take(t, ref(m, id), wk(m, id)->ts);
	t->wl.rel_ts = t->wl.sig_ts;
	t->wl.first_ts = e->ts;
	if (!--ow->cred[0].n) {
		memmove(&ow->cred[0], &ow->cred[1], (ow->ncred - 1) * sizeof(ow->cred[0]));
		ow->ncred--;
		unref(m, id);
	}
}

static void cond_event(struct sa_model *m, const struct sa_event *e, uint32_t ti, uint32_t oi)
{
	struct sa_thread *t = &m->threads[ti], *w;
	int64_t how;
	switch (e->id) {
	case SA_EV_cond_enqueued:
		c_enqueued(m, e, t, oi);
		break;
	case SA_EV_cond_signaled:
		c_signaled(m, e, ti, oi);
		break;
	case SA_EV_cond_met_leaving: {
		uint32_t id = open_signal(m, ti, oi, e->ts,
					  (uint64_t)e->f[SA_F_cond_met_leaving_caller].v);
		if (wk(m, id)) {
			wk(m, id)->met++;
			counts(m, id)->met_leaving++;
		}
		break;
	}
	case SA_EV_cond_signal:
		c_signal(m, e, ti, oi);
		break;
	case SA_EV_cond_handoff:
		w = node_thread(m, oi, e->f[SA_F_cond_handoff_to].v);
		if (w && w->wl.cstate == C_SIGNALED) {
			w->wl.rel_ts = e->ts;
			w->wl.requeued = e->f[SA_F_cond_handoff_how].v == ST_COND_RELEASE_REQUEUED &&
					 e->f[SA_F_cond_handoff_result].v > 0;
		}
		break;
	case SA_EV_cond_woke:
		how = e->f[SA_F_cond_woke_how].v;
		if (!e->f[SA_F_cond_woke_node].v && (how == ST_COND_WOKE_SIGNALED ||
						     how == ST_COND_WOKE_CANCELLED_SIGNALED))
			c_woke_shared(m, e, ti, oi);
		if (t->wl.cstate == C_SIGNALED && !t->wl.first_ts)
			t->wl.first_ts = e->ts;
		if (how == ST_COND_WOKE_CANCELLED_SIGNALED && t->wl.cstate == C_SIGNALED) {
			if (t->wl.cwake)
				outcome(m, t->wl.cwake, SA_WL_PASSED_ON, -1);
			c_reset(m, t);
		} else if (how == ST_COND_WOKE_TIMEDOUT || how == ST_COND_WOKE_CANCELLED) {
			c_reset(m, t);
		}
		break;
	case SA_EV_cond_relocked:
		c_relocked(m, e, t);
		break;
	default:
		break;
	}
}

/* ---- the feed ---------------------------------------------------------------- */

static int futex_layer(enum sa_event_id id)
{
	return id == SA_EV_futex_wait || id == SA_EV_futex_wake || id == SA_EV_futex_requeue ||
	       id == SA_EV_spin_loop;
}

static void feed(struct sa_model *m, const struct sa_event *e, uint32_t ti)
{
	struct sa_thread *t = &m->threads[ti];
	uint64_t addr = 0;
	int has_obj = sa_ev_obj(e, &addr);
	int64_t oi = has_obj ? obj_index(m, t->proc, addr) : -1;

	/* The futex wake this thread made just before: this event names it. */
	struct sa_wl_wake *w = wk(m, t->wl.open);
	if (w && !w->is_cond) {
		uint64_t site = sa_ev_caller(e);
		if (!futex_layer(e->id) && has_obj && addr == m->objs[w->obj].addr && site)
			resolve(m, t->wl.open, (uint16_t)e->id, 0, site);
		else
			resolve(m, t->wl.open, SA_EV_futex_wake, 0, 0);
	}
	if (oi < 0)
		return;
	int is_cond = m->objs[oi].type == SA_OBJ_COND;
	if (t->wl.cstate == C_SIGNALED && !t->wl.first_ts && e->id == SA_EV_futex_wait && is_cond &&
	    e->f[SA_F_futex_wait_result].v != 110)
		t->wl.first_ts = e->ts; /* running again after its release */

	switch (e->id) {
	case SA_EV_futex_wake:
		if (!is_cond)
			fx_wake(m, e, ti, (uint32_t)oi);
		return;
	case SA_EV_futex_requeue:
	case SA_EV_spin_loop:
		return;
	case SA_EV_futex_wait:
		if (!is_cond) {
			fx_wait(m, e, ti, (uint32_t)oi);
		} else if (t->wl.cstate == C_SIGNALED && t->wl.requeued) {
			/* requeued onto the mutex word: the mutex's wake woke it */
			int64_t mi = obj_index(m, t->proc, t->wl.mutex);
			if (mi >= 0)
				fx_wait(m, e, ti, (uint32_t)mi);
		}
		return;
	default:
		break;
	}
	fx_past(m, e, ti, has_obj, addr);
	if (is_cond)
		cond_event(m, e, ti, (uint32_t)oi);
}

void sa_wl_feed(struct sa_model *m, const struct sa_event *e, uint32_t ti)
{
	feed(m, e, ti);
	for (unsigned i = 0; i < m->wl.ndirty; i++) {
		show(m, m->wl.dirty[i]);
		unref(m, m->wl.dirty[i]);
	}
	m->wl.ndirty = 0;
}

/* ---- reading, folding, freeing ------------------------------------------ */

unsigned sa_wl_entries(const struct sa_model *m, uint32_t obj, const struct sa_wl_entry **out)
{
	const struct sa_wl_obj *w = obj < m->nobjs ? m->objs[obj].wl : NULL;
	*out = w ? w->e : NULL;
	return w ? w->n : 0;
}

void sa_wl_totals(const struct sa_model *m, uint32_t obj, struct sa_wl_counts *out)
{
	memset(out, 0, sizeof(*out));
	for (uint32_t i = obj == UINT32_MAX ? 0 : obj; i < m->nobjs && (obj == UINT32_MAX || i == obj);
	     i++) {
		const struct sa_wl_entry *e;
		if (obj == UINT32_MAX && !m->objs[i].instances)
			continue;
		unsigned n = sa_wl_entries(m, i, &e);
		for (unsigned k = 0; k < n; k++)
			add(out, &e[k].c);
	}
}

void sa_wl_aggregate(struct sa_model *m, uint32_t oi, const struct sa_wl_counts *d,
		     unsigned kinds)
{
	struct sa_wl_obj *w = obj_wl(m, oi);
	struct sa_wl_entry *e = w ? entry_in(m, w, SA_EV_summary_object, 0, 0) : NULL;
	if (!e)
		return;
	e->kinds |= (uint8_t)kinds;
	/* Won: woke signaled, less the futile. A waiter counts its futile wake
	 * at its next wait, after its woke: the sum never goes below. */
	add(&e->c, d);
	e->c.out[SA_WL_WON] = less(e->c.out[SA_WL_WON], d->out[SA_WL_FUTILE]);
}

void sa_wl_fold(struct sa_model *m, uint32_t ci, uint32_t oi)
{
	struct sa_wl_obj *ow = m->objs[oi].wl, *cw;
	if (!ow)
		return;
	if ((cw = obj_wl(m, ci)))
		for (uint32_t i = 0; i < ow->n; i++) {
			struct sa_wl_entry *e = entry_in(m, cw, ow->e[i].ev, ow->e[i].broadcast,
							 ow->e[i].site);
			if (e) {
				add(&e->c, &ow->e[i].c);
				e->kinds |= ow->e[i].kinds;
			}
		}
	/* Its returns and credits die with it (it was destroyed). */
	for (unsigned i = 0; i < ow->nret; i++)
		if (m->threads[ow->ret[i].thread].wl.pend_on == oi + 1)
			m->threads[ow->ret[i].thread].wl.pend_on = 0;
	for (unsigned i = 0; i < ow->ncred; i++)
		unref(m, ow->cred[i].wake);
	sa_wl_obj_free(ow);
	m->objs[oi].wl = NULL;
}

void sa_wl_obj_free(void *p)
{
	struct sa_wl_obj *w = p;
	if (w)
		free(w->e);
	free(w);
}

void sa_wl_model_free(struct sa_wl_model *w)
{
	free(w->wakes);
	memset(w, 0, sizeof(*w));
}
