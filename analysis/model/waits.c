/* The wait ledger, blame and wakers (sa_waits.h).
 *
 * BLAME (mutexes, rwlocks), per object: the waiters in progress (`nwait`,
 * +1 at requested, -1 when their wait ends) and the hold in progress (its
 * holder when known: the acquirer, or `requested`'s owner). Between two
 * events, nwait waiters waited on that hold: nwait x the time since the
 * last event is added to the hold's `caused`. When the hold ends, caused
 * goes to (holder, site): the release's call site when the release is an
 * event, else (a waiter took it and the release was not traced) the
 * holder's acquire site, 0 when unknown. So a hold that kept 3 threads
 * waiting 1 ms caused 3 ms, and the sum over holders is the waiting time.
 * The unlock wakes a waiter and emits its event after, so the release
 * event of a hold usually follows the next holder's acquisition: the hold
 * that ended is parked until it (park()).
 *
 * A condvar waiter re-acquiring the mutex after its wait is not among
 * the lock's waiters; its re-acquisition time (when it slept) goes whole
 * to the hold it waited on (the holder then, or the release just before).
 *
 * WAKERS (condvars, semaphores): a signal (its signaled events name each
 * waiter's node) or a post that found sleepers is a wake by (thread,
 * site); each waiter it released adds the time from that waiter's wait
 * begin to the wake. A post is matched with the waiter that took its
 * token, whichever of the two events comes first. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sa_model.h"

/* The object's ledger, blame, wakers and hold in progress. */
struct sa_obj_waits {
	struct sa_wait_stat ledger[2];   /* the kinds of its type, from kinds_of() */
	uint32_t pair_head;              /* its pairs, linked by sa_pair.next (index + 1) */
	/* Blame: the hold in progress. */
	uint32_t nwait;
	int have_holder;
	uint32_t holder;                 /* model thread index */
	uint64_t holder_site;            /* its acquire site, 0 unknown */
	int64_t acc_ts;                  /* caused counted up to here */
	uint64_t caused;                 /* by the hold in progress */
	uint64_t unblamed_ns;            /* waiting whose holder is unknown */
	/* The last release event: its thread, site and time. */
	int last_valid;
	uint32_t last_ti;
	uint64_t last_site;
	int64_t last_ts;
	/* A hold that ended before its release event came (park()). */
	int pk_valid, pk_have_ti;
	uint32_t pk_ti;
	uint64_t pk_site, pk_caused;
	unsigned nblame, nwakers;
	struct sa_blame blame[SA_BLAME_MAX];
	struct sa_waker wakers[SA_BLAME_MAX];
	/* Semaphores: the last post that found sleepers, not yet matched
	 * with the waiter that took its token; or the last waiter that took a
	 * token before its post's event came (pend_begin: its wait began). */
	int pend_valid;
	int64_t pend_begin;
	int have_post;
	uint32_t post_ti;
	uint64_t post_site;
	int64_t post_ts;
};

struct sa_pair {
	uint32_t ti, oi;
	uint32_t next;                   /* the object's next pair, index + 1; 0 none */
	enum sa_wait_kind kind;
	uint64_t waits, wait_ns, max_ns, timeouts, contended;
};

static const char *const kind_names[SA_WAIT_NKINDS] = {
	"mutex", "cond-relock", "rwlock-read", "rwlock-write", "cond", "sem",
	"barrier", "once", "spinlock"
};

const char *sa_wait_kind_name(enum sa_wait_kind k)
{
	return (unsigned)k < SA_WAIT_NKINDS ? kind_names[k] : "unknown";
}

/* The kinds an object type has: first, and how many (0: none). */
static unsigned kinds_of(enum sa_obj_type t, enum sa_wait_kind *first)
{
	const struct sa_family *f = sa_family_of_type(t);
	*first = f ? f->first_kind : SA_WAIT_NKINDS;
	return f && f->nkinds <= 2 ? f->nkinds : 0;
}

static struct sa_obj_waits *waits_of(struct sa_model *m, struct sa_object *o)
{
	if (!o->w && !(o->w = calloc(1, sizeof(*o->w))))
		m->oom = 1;
	return o->w;
}

const struct sa_wait_stat *sa_object_wait(const struct sa_object *o, enum sa_wait_kind k)
{
	static const struct sa_wait_stat none;
	enum sa_wait_kind first;
	unsigned n = kinds_of(o->type, &first);
	if (!n || k < first || k >= first + n)
		return NULL;
	return o->w ? &o->w->ledger[k - first] : &none;
}

const struct sa_thread_waits *sa_thread_waits(const struct sa_thread *t)
{
	return &t->w;
}

double sa_thread_wait_share(const struct sa_thread *t)
{
	if (t->last_ts <= t->first_ts)
		return -1;
	uint64_t life = (uint64_t)(t->last_ts - t->first_ts);
	return t->w.wait_ns < life ? (double)t->w.wait_ns / (double)life : 1.0;
}

void sa_model_each_pair(const struct sa_model *m,
			void (*fn)(void *ctx, uint32_t thread, uint32_t obj, enum sa_wait_kind k,
				   const struct sa_wait_stat *s),
			void *ctx)
{
	for (uint32_t i = 0; i < m->npairs; i++) {
		const struct sa_pair *p = &m->pairs[i];
		if (!p->waits)
			continue; /* a free slot */
		struct sa_wait_stat s = { .waits = p->waits, .wait_ns = p->wait_ns, .max_ns = p->max_ns,
					  .timeouts = p->timeouts, .contended = p->contended };
		fn(ctx, p->ti, p->oi, p->kind, &s);
	}
}

static struct sa_pair *pair_of(struct sa_model *m, struct sa_obj_waits *w, uint32_t ti,
			       uint32_t oi, enum sa_wait_kind k)
{
	uint64_t key = (uint64_t)oi << 8 | (unsigned)k;
	int64_t i = sa_map_get(&m->pair_map, ti, key);
	if (i >= 0)
		return &m->pairs[i];
	uint32_t n;
	if (m->free_pair) { /* slots of folded objects' pairs, linked by next */
		n = m->free_pair - 1;
		m->free_pair = m->pairs[n].next;
	} else {
		if (sa_grow((void **)&m->pairs, m->npairs, &m->cappairs, sizeof(*m->pairs))) {
			m->oom = 1;
			return NULL;
		}
		n = m->npairs++;
	}
	if (sa_map_put(&m->pair_map, ti, key, n)) {
		m->oom = 1;
		return NULL;
	}
	struct sa_pair *p = &m->pairs[n];
	*p = (struct sa_pair){ .ti = ti, .oi = oi, .kind = k, .next = w->pair_head };
	w->pair_head = n + 1;
	return p;
}

static void stat_add(struct sa_wait_stat *s, uint64_t ns, unsigned flags)
{
	int timed_out = flags & SA_WAITED_TIMEOUT;
	s->waits++;
	s->contended += !(flags & SA_WAITED_AT_ONCE);
	s->wait_ns += ns;
	if (ns > s->max_ns)
		s->max_ns = ns;
	s->timeouts += timed_out != 0;
	sa_dist_add(&s->dist, ns);
}

/* n waits of thread ti on oi (kind k): ns in all, the longest max_ns,
 * `timeouts` timed out, `contended` spun or slept; the thread's totals
 * and the (thread, object, kind) pair. */
static void waited_account(struct sa_model *m, struct sa_obj_waits *w, uint32_t ti, uint32_t oi,
			   enum sa_wait_kind k, uint64_t n, uint64_t ns, uint64_t max_ns,
			   uint64_t timeouts, uint64_t contended)
{
	struct sa_thread *t = &m->threads[ti];
	t->waits += n;
	t->wait_ns += ns;
	t->timeouts += timeouts;
	t->w.waits += n;
	t->w.wait_ns += ns;
	t->w.timeouts += timeouts;
	t->w.kind_ns[k] += ns;
	if (t->waiting && t->wait_obj == oi)
		t->waiting = 0;
	struct sa_pair *p = pair_of(m, w, ti, oi, k);
	if (!p)
		return;
	p->waits += n;
	p->contended += contended;
	p->wait_ns += ns;
	if (max_ns > p->max_ns)
		p->max_ns = max_ns;
	p->timeouts += timeouts;
	if (p->wait_ns > t->top_wait_ns || t->w.waits == n) {
		t->top_wait_ns = p->wait_ns;
		t->top_obj = oi;
	}
}

void sa_model_waited(struct sa_model *m, uint32_t ti, uint32_t oi, enum sa_wait_kind k,
		     uint64_t ns, unsigned flags)
{
	int timed_out = flags & SA_WAITED_TIMEOUT;
	struct sa_object *o = &m->objs[oi];
	enum sa_wait_kind first;
	unsigned nk = kinds_of(o->type, &first);
	struct sa_obj_waits *w = waits_of(m, o);
	if (!w)
		return;
	if (nk && k >= first && k < first + nk)
		stat_add(&w->ledger[k - first], ns, flags);
	m->ev_wait.valid = 1;
	m->ev_wait.ti = ti;
	m->ev_wait.oi = oi;
	m->ev_wait.kind = k;
	m->ev_wait.ns = ns;
	m->ev_wait.flags = flags;
	waited_account(m, w, ti, oi, k, 1, ns, ns, timed_out != 0, !(flags & SA_WAITED_AT_ONCE));
}

void sa_model_wait_begins(struct sa_model *m, uint32_t ti, uint32_t oi, int64_t ts)
{
	struct sa_thread *t = &m->threads[ti];
	t->waiting = 1;
	t->wait_obj = oi;
	t->wait_begin = ts;
}

/* ---- blame --------------------------------------------------------------- */

/* The entry for (thread, site) of a table of at most SA_BLAME_MAX (blame
 * or wakers: both begin with thread and site; `woff`: the offset of the
 * uint64_t that ranks them), made if there is room or if `weight` would
 * outweigh the smallest entry (then it replaces that one); NULL if not. */
static void *table_entry(void *arr, size_t size, size_t woff, unsigned *n, uint32_t ti,
			 uint64_t site, uint64_t weight)
{
	unsigned lo = 0;
#define SA__AT(i) ((char *)arr + (size_t)(i) * size)
#define SA__W(i) (*(const uint64_t *)(SA__AT(i) + woff))
	for (unsigned i = 0; i < *n; i++) {
		const struct sa_blame *k = (const struct sa_blame *)SA__AT(i);
		if (k->thread == ti && k->site == site)
			return SA__AT(i);
		if (SA__W(i) < SA__W(lo))
			lo = i;
	}
	if (*n < SA_BLAME_MAX)
		lo = (*n)++;
	else if (SA__W(lo) >= weight)
		return NULL;
	memset(SA__AT(lo), 0, size);
	struct sa_blame *k = (struct sa_blame *)SA__AT(lo);
	k->thread = ti;
	k->site = site;
	return k;
#undef SA__W
#undef SA__AT
}

/* The two tables' thread and site are where table_entry looks for them. */
_Static_assert(offsetof(struct sa_waker, thread) == offsetof(struct sa_blame, thread) &&
		       offsetof(struct sa_waker, site) == offsetof(struct sa_blame, site),
	       "sa_blame and sa_waker begin alike");

static struct sa_blame *blame_entry(struct sa_obj_waits *w, uint32_t ti, uint64_t site,
				    uint64_t weight)
{
	return table_entry(w->blame, sizeof(w->blame[0]), offsetof(struct sa_blame, caused_ns),
			   &w->nblame, ti, site, weight);
}

/* Waiting up to ts is charged to the hold in progress. */
static void account(struct sa_obj_waits *w, int64_t ts)
{
	if (w->nwait && ts > w->acc_ts)
		w->caused += (uint64_t)w->nwait * (uint64_t)(ts - w->acc_ts);
	if (ts > w->acc_ts)
		w->acc_ts = ts;
}

/* Waiting `caused` goes to (ti, site) (unblamed when the holder is not
 * known or the table keeps heavier ones), a hold that kept others waiting. */
static void charge(struct sa_obj_waits *w, int have_ti, uint32_t ti, uint64_t site,
		   uint64_t caused, int have_hold, uint64_t hold_ns)
{
	if (!caused)
		return;
	struct sa_blame *b = have_ti ? blame_entry(w, ti, site, caused) : NULL;
	if (!b) {
		w->unblamed_ns += caused;
		return;
	}
	b->holds++;
	b->caused_ns += caused;
	if (have_hold) {
		b->hold_ns += hold_ns;
		if (hold_ns > b->max_hold_ns)
			b->max_hold_ns = hold_ns;
	}
}

/* A parked hold goes to its holder's acquire site: its release never came. */
static void unpark(struct sa_obj_waits *w)
{
	if (w->pk_valid)
		charge(w, w->pk_have_ti, w->pk_ti, w->pk_site, w->pk_caused, 0, 0);
	w->pk_valid = 0;
}

/* The hold in progress ended before its release was seen: the unlock
 * wakes the waiter first and emits its event after, so the next holder's
 * acquisition usually comes first. It waits (parked) for that release,
 * which names the release site and the hold time. */
static void park(struct sa_obj_waits *w)
{
	unpark(w);
	if (w->caused) {
		w->pk_valid = 1;
		w->pk_have_ti = w->have_holder;
		w->pk_ti = w->holder;
		w->pk_site = w->holder_site;
		w->pk_caused = w->caused;
	}
	w->caused = 0;
	w->have_holder = 0;
}

void sa_blame_requested(struct sa_model *m, uint32_t oi, uint32_t waiter_ti, int have_owner,
			uint32_t owner_ti, int64_t ts)
{
	struct sa_obj_waits *w = waits_of(m, &m->objs[oi]);
	if (!w)
		return;
	account(w, ts);
	if (have_owner && !(w->have_holder && w->holder == owner_ti)) {
		if (w->have_holder || w->caused) /* another hold ended, untraced so far */
			park(w);
		w->have_holder = 1;
		w->holder = owner_ti;
		w->holder_site = 0;
	}
	/* A thread waits for one thing at a time: an earlier wait of this
	 * thread whose end was not seen is over. */
	struct sa_thread *t = &m->threads[waiter_ti];
	if (t->waiting && t->wait_obj != oi) {
		struct sa_obj_waits *old = m->objs[t->wait_obj].w;
		if (old && old->nwait)
			old->nwait--;
	} else if (t->waiting && t->wait_obj == oi && w->nwait) {
		w->nwait--; /* requested again: the same wait restarted */
	}
	w->nwait++;
	sa_model_wait_begins(m, waiter_ti, oi, ts);
}

void sa_blame_wait_over(struct sa_model *m, uint32_t oi, int64_t ts)
{
	struct sa_obj_waits *w = waits_of(m, &m->objs[oi]);
	if (!w)
		return;
	account(w, ts);
	if (w->nwait)
		w->nwait--;
}

void sa_blame_acquired(struct sa_model *m, uint32_t oi, uint32_t ti, uint64_t site, int64_t ts)
{
	struct sa_obj_waits *w = waits_of(m, &m->objs[oi]);
	if (!w)
		return;
	account(w, ts);
	if ((w->have_holder && w->holder != ti) || (!w->have_holder && w->caused))
		park(w);
	w->have_holder = 1;
	w->holder = ti;
	w->holder_site = site;
}

void sa_blame_released(struct sa_model *m, uint32_t oi, uint32_t ti, uint64_t site, int64_t ts,
		       int have_hold, uint64_t hold_ns)
{
	struct sa_obj_waits *w = waits_of(m, &m->objs[oi]);
	if (!w)
		return;
	account(w, ts);
	w->last_valid = 1;
	w->last_ti = ti;
	w->last_site = site;
	w->last_ts = ts;
	/* The release of the parked hold (another thread holds it now). */
	if (w->pk_valid && (!w->pk_have_ti || w->pk_ti == ti) &&
	    !(w->have_holder && w->holder == ti)) {
		charge(w, 1, ti, site, w->pk_caused, have_hold, hold_ns);
		w->pk_valid = 0;
		return;
	}
	/* A hold parked for another thread stays parked: the waiter that took
	 * the lock often releases it before the old holder's release event. */
	if (!(w->pk_valid && w->pk_have_ti && w->pk_ti != ti))
		unpark(w);
	charge(w, 1, ti, site, w->caused, have_hold, hold_ns);
	w->caused = 0;
	w->have_holder = 0;
}

void sa_blame_relocked(struct sa_model *m, uint32_t oi, uint32_t ti, uint64_t ns, int64_t ts)
{
	struct sa_obj_waits *w = waits_of(m, &m->objs[oi]);
	if (!w)
		return;
	account(w, ts);
	if (w->have_holder && w->holder != ti) {
		w->caused += ns; /* its hold ends now: parked with this in it */
	} else if (w->last_valid && w->last_ts >= ts - (int64_t)ns && w->last_ti != ti) {
		struct sa_blame *b = blame_entry(w, w->last_ti, w->last_site, ns);
		if (b)
			b->caused_ns += ns; /* that hold is counted already */
		else
			w->unblamed_ns += ns;
	} else {
		w->unblamed_ns += ns;
	}
	sa_blame_acquired(m, oi, ti, 0, ts);
}

unsigned sa_object_blame(const struct sa_model *m, uint32_t obj, const struct sa_blame **out)
{
	const struct sa_obj_waits *w = obj < m->nobjs ? m->objs[obj].w : NULL;
	*out = w ? w->blame : NULL;
	return w ? w->nblame : 0;
}

/* ---- wakers -------------------------------------------------------------- */

/* A full table keeps the wakers that released the most: a new one
 * replaces one that released none or one. */
static struct sa_waker *waker_entry(struct sa_obj_waits *w, uint32_t ti, uint64_t site)
{
	return table_entry(w->wakers, sizeof(w->wakers[0]), offsetof(struct sa_waker, released),
			   &w->nwakers, ti, site, 2);
}

void sa_waker_wake(struct sa_model *m, uint32_t oi, uint32_t ti, uint64_t site, uint64_t calls,
		   uint64_t released)
{
	struct sa_obj_waits *w = waits_of(m, &m->objs[oi]);
	struct sa_waker *k = w ? waker_entry(w, ti, site) : NULL;
	if (!k)
		return;
	k->wakes += calls;
	k->released += released;
}

void sa_waker_released(struct sa_model *m, uint32_t oi, uint32_t ti, uint64_t site,
		       uint64_t latency_ns)
{
	struct sa_obj_waits *w = waits_of(m, &m->objs[oi]);
	struct sa_waker *k = w ? waker_entry(w, ti, site) : NULL;
	if (!k)
		return;
	k->released++;
	k->timed++;
	k->latency_ns += latency_ns;
}

void sa_waker_post(struct sa_model *m, uint32_t oi, uint32_t ti, uint64_t site, int64_t ts)
{
	struct sa_obj_waits *w = waits_of(m, &m->objs[oi]);
	if (!w)
		return;
	struct sa_waker *k = waker_entry(w, ti, site);
	if (k)
		k->wakes++;
	/* The post wakes the sleeper, then emits: the sleeper's acquisition
	 * may have come first. */
	if (w->pend_valid && w->pend_begin <= ts) {
		w->pend_valid = 0;
		if (k) {
			k->released++;
			k->timed++;
			k->latency_ns += (uint64_t)(ts - w->pend_begin);
		}
		return;
	}
	w->have_post = 1;
	w->post_ti = ti;
	w->post_site = site;
	w->post_ts = ts;
}

void sa_waker_took(struct sa_model *m, uint32_t oi, int64_t begin)
{
	struct sa_obj_waits *w = waits_of(m, &m->objs[oi]);
	if (!w)
		return;
	if (w->have_post && w->post_ts >= begin) {
		w->have_post = 0;
		sa_waker_released(m, oi, w->post_ti, w->post_site, (uint64_t)(w->post_ts - begin));
		return;
	}
	w->pend_valid = 1;
	w->pend_begin = begin;
}

unsigned sa_object_wakers(const struct sa_model *m, uint32_t obj, const struct sa_waker **out)
{
	const struct sa_obj_waits *w = obj < m->nobjs ? m->objs[obj].w : NULL;
	*out = w ? w->wakers : NULL;
	return w ? w->nwakers : 0;
}

void sa_obj_waits_free(struct sa_object *o)
{
	if (!o->w)
		return;
	sa_dist_free(&o->w->ledger[0].dist);
	sa_dist_free(&o->w->ledger[1].dist);
	free(o->w);
	o->w = NULL;
}

/* ---- folding (fold.c) ---------------------------------------------------- */

static void stat_merge(struct sa_model *m, struct sa_wait_stat *d, const struct sa_wait_stat *s)
{
	SA_MERGE_SUM(d, s, waits);
	SA_MERGE_SUM(d, s, wait_ns);
	SA_MERGE_MAX(d, s, max_ns);
	SA_MERGE_SUM(d, s, timeouts);
	SA_MERGE_SUM(d, s, contended);
	if (sa_dist_merge(&d->dist, &s->dist))
		m->oom = 1;
}

void sa_waits_fold(struct sa_model *m, uint32_t ci, uint32_t oi)
{
	struct sa_obj_waits *ow = m->objs[oi].w, *cw;
	if (!ow)
		return;
	if (!m->objs[ci].w) { /* the class's first: it takes the object's */
		cw = m->objs[ci].w = ow;
		m->objs[oi].w = NULL;
	} else {
		cw = m->objs[ci].w;
		for (unsigned k = 0; k < 2; k++)
			stat_merge(m, &cw->ledger[k], &ow->ledger[k]);
		for (unsigned i = 0; i < ow->nblame; i++) {
			const struct sa_blame *s = &ow->blame[i];
			struct sa_blame *d = blame_entry(cw, s->thread, s->site, s->caused_ns);
			if (!d) {
				cw->unblamed_ns += s->caused_ns;
				continue;
			}
			SA_MERGE_SUM(d, s, holds);
			SA_MERGE_SUM(d, s, caused_ns);
			SA_MERGE_SUM(d, s, hold_ns);
			SA_MERGE_MAX(d, s, max_hold_ns);
		}
		for (unsigned i = 0; i < ow->nwakers; i++) {
			const struct sa_waker *s = &ow->wakers[i];
			struct sa_waker *d = waker_entry(cw, s->thread, s->site);
			if (!d)
				continue;
			SA_MERGE_SUM(d, s, wakes);
			SA_MERGE_SUM(d, s, released);
			SA_MERGE_SUM(d, s, latency_ns);
			SA_MERGE_SUM(d, s, timed);
		}
		cw->unblamed_ns += ow->unblamed_ns;
	}
	/* The object's pairs become the class's (the class's own list, when
	 * it took ow, is rebuilt as they move). */
	uint32_t head = ow->pair_head;
	if (cw == ow)
		cw->pair_head = 0;
	for (uint32_t n = head; n;) {
		struct sa_pair p = m->pairs[n - 1];
		uint32_t slot = n - 1;
		n = p.next;
		sa_map_del(&m->pair_map, p.ti, (uint64_t)p.oi << 8 | (unsigned)p.kind);
		m->pairs[slot] = (struct sa_pair){ .next = m->free_pair };
		m->free_pair = slot + 1;
		struct sa_pair *d = pair_of(m, cw, p.ti, ci, p.kind);
		if (!d)
			continue;
		SA_MERGE_SUM(d, &p, waits);
		SA_MERGE_SUM(d, &p, wait_ns);
		SA_MERGE_MAX(d, &p, max_ns);
		SA_MERGE_SUM(d, &p, timeouts);
		SA_MERGE_SUM(d, &p, contended);
		struct sa_thread *t = &m->threads[p.ti];
		if (t->top_obj == oi) {
			t->top_obj = ci;
			if (d->wait_ns > t->top_wait_ns)
				t->top_wait_ns = d->wait_ns;
		}
	}
	if (cw != ow)
		sa_obj_waits_free(&m->objs[oi]);
}

/* A thread's summary of its waits of kind k on oi (the summary level:
 * model/summary.c): d's values as so many sa_model_waited calls, of which
 * `timeouts` timed out and `contended` spun or slept. */
void sa_model_waited_many(struct sa_model *m, uint32_t ti, uint32_t oi, enum sa_wait_kind k,
			  const struct sa_dist *d, uint64_t timeouts, uint64_t contended)
{
	struct sa_object *o = &m->objs[oi];
	enum sa_wait_kind first;
	unsigned nk = kinds_of(o->type, &first);
	struct sa_obj_waits *w = waits_of(m, o);
	if (!w || !d->n)
		return;
	if (nk && k >= first && k < first + nk) {
		struct sa_wait_stat *s = &w->ledger[k - first];
		s->waits += d->n;
		s->contended += contended;
		s->wait_ns += d->sum;
		if (d->max > s->max_ns)
			s->max_ns = d->max;
		s->timeouts += timeouts;
		if (sa_dist_merge(&s->dist, d))
			m->oom = 1;
	}
	waited_account(m, w, ti, oi, k, d->n, d->sum, d->max, timeouts, contended);
}
