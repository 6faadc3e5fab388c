/* synctrace_summary: the summary level's per-thread aggregates
 * (tracepoints/events/summary.def), taken into the same structures the
 * events of the contention level fill: the object's family state (its
 * counts, its wait distribution), the futex and spin counters of the
 * object and of the thread, and the wait ledger (per object, thread and
 * pair). Each object event is one thread's deltas: added, maxima kept.
 *
 * What a summary cannot give (the report says so, doc/performance.md):
 * anything that needs the order of two threads' events (blame by holder,
 * hand-offs, wakers and their latency, the timeline), the waits in
 * progress, and exact percentiles (the histograms' buckets: within
 * 12.5 %, clamped to the exact min and max). */
#include <stdlib.h>

#include "sa_barrier.h"
#include "sa_cond.h"
#include "sa_model.h"
#include "sa_mutex.h"
#include "sa_rwlock.h"
#include "sa_once.h"
#include "sa_sem.h"
#include "sa_spinlock.h"

/* A histogram of the event: its buckets, sum, min and max (as a sa_dist
 * to merge: fine buckets, log2 from them). */
struct hist {
	int id;
	struct sa_dist d;
	uint64_t timeouts, contended;
};

#define NHIST 10

struct agg {
	uint64_t c[ST_SUMMARY_COUNT_N];
	struct hist h[NHIST];
	unsigned nh;
	int bad;
	uint64_t caller, caller_ns;
	int have_caller_ns;
	uint64_t life_site; /* tag LIFE: whole lives from this init site */
	int have_life;
	uint64_t unrecorded; /* b 2: lives of them with no init or destroy record */
	uint64_t unrec_acq;  /* b 3: a mutex's: those lives' acquisitions (minor 15) */
};

static struct hist *hist_of(struct agg *a, int id)
{
	for (unsigned i = 0; i < a->nh; i++)
		if (a->h[i].id == id)
			return &a->h[i];
	if (a->nh == NHIST)
		return NULL;
	struct hist *h = &a->h[a->nh++];
	h->id = id;
	h->d.log2 = calloc(SA_DIST_LOG2, sizeof(uint64_t));
	h->d.fine = calloc(SA_DIST_LOG2 * SA_DIST_SUB, sizeof(uint64_t));
	if (!h->d.log2 || !h->d.fine) {
		sa_dist_free(&h->d);
		a->nh--;
		return NULL;
	}
	return h;
}

static void decode(struct agg *a, const uint64_t *kv, unsigned n)
{
	for (unsigned i = 0; i + 1 < n; i += 2) {
		uint64_t key = kv[i], v = kv[i + 1];
		unsigned tag = (unsigned)(key >> 56), id = (unsigned)(key >> 16) & 0xFFFF,
			 b = (unsigned)key & 0xFFFF;
		struct hist *h;
		if (tag == ST_SUMMARY_TAG_COUNT) {
			if (b >= ST_SUMMARY_COUNT_N) {
				a->bad = 1;
				continue;
			}
			if (b == ST_SUMMARY_COUNT_MUTEX_ACQ_MAX || b == ST_SUMMARY_COUNT_MUTEX_CONT_MAX ||
			    b == ST_SUMMARY_COUNT_BAR_COUNT_MAX || b == ST_SUMMARY_COUNT_ONCE_ROUTINE_MAX)
				a->c[b] = v > a->c[b] ? v : a->c[b];
			else if (b == ST_SUMMARY_COUNT_SP_MODES)
				a->c[b] |= v;
			else
				a->c[b] += v;
			continue;
		}
		if (tag == ST_SUMMARY_TAG_CALLER) {
			if (b == 0)
				a->caller = v;
			else
				a->caller_ns = v, a->have_caller_ns = 1;
			continue;
		}
		if (tag == ST_SUMMARY_TAG_LIFE) {
			/* b 1, the lives: the trace's inits and destroys count
			 * them, but for those b 2 says have none (minor 14) */
			if (b == 0)
				a->life_site = v, a->have_life = 1;
			else if (b == 2)
				a->unrecorded += v;
			else if (b == 3)
				a->unrec_acq += v;
			else if (b != 1)
				a->bad = 1;
			continue;
		}
		if (tag < ST_SUMMARY_TAG_BUCKET || tag > ST_SUMMARY_TAG_LEDGER ||
		    !(h = hist_of(a, (int)id))) {
			a->bad = 1;
			continue;
		}
		switch (tag) {
		case ST_SUMMARY_TAG_BUCKET:
			if (b >= SA_DIST_LOG2 * SA_DIST_SUB) {
				a->bad = 1;
				break;
			}
			h->d.fine[b] += v;
			h->d.log2[b / SA_DIST_SUB] += v;
			h->d.n += v;
			break;
		case ST_SUMMARY_TAG_SUM:
			h->d.sum += v;
			break;
		case ST_SUMMARY_TAG_MIN:
			h->d.min = v; /* one per histogram and event */
			break;
		case ST_SUMMARY_TAG_MAX:
			h->d.max = v;
			break;
		case ST_SUMMARY_TAG_LEDGER:
			if (b == 1)
				h->timeouts += v;
			else if (b == 2)
				h->contended += v;
			break;
		default:
			break;
		}
	}
}

static struct hist *find(struct agg *a, int id)
{
	for (unsigned i = 0; i < a->nh; i++)
		if (a->h[i].id == id && a->h[i].d.n)
			return &a->h[i];
	return NULL;
}

static void merge(struct sa_model *m, struct sa_dist *dst, struct agg *a, int id)
{
	struct hist *h = find(a, id);
	if (h && sa_dist_merge(dst, &h->d))
		m->oom = 1;
}

/* A counter seen (acquisitions, contended): the trace saw it from the
 * object's start when its init or its process's start is in it. */
static void note_counter(int *have, uint64_t *base, uint64_t *last, uint64_t v)
{
	if (!*have) {
		*have = 1;
		*base = 0;
		*last = 0;
	}
	if (v > *last)
		*last = v;
}

static void mutex_part(struct sa_model *m, struct sa_object *o, struct agg *a)
{
	struct sa_mutex *x = sa_mutex_of(m, o);
	const uint64_t *c = a->c;
	if (!x)
		return;
	x->requested += c[ST_SUMMARY_COUNT_MUTEX_REQUESTED];
	x->acquired_events += c[ST_SUMMARY_COUNT_MUTEX_ACQUIRED];
	x->how[ST_MUTEX_HOW_SPIN] += c[ST_SUMMARY_COUNT_MUTEX_HOW_SPIN];
	x->how[ST_MUTEX_HOW_SLEEP] += c[ST_SUMMARY_COUNT_MUTEX_HOW_SLEEP];
	x->how[ST_MUTEX_HOW_FORWARDED] += c[ST_SUMMARY_COUNT_MUTEX_HOW_FORWARDED];
	if (c[ST_SUMMARY_COUNT_MUTEX_ACQ_MAX])
		note_counter(&x->have_acq, &x->acq_base, &x->acq_last,
			     c[ST_SUMMARY_COUNT_MUTEX_ACQ_MAX]);
	if (c[ST_SUMMARY_COUNT_MUTEX_CONT_MAX])
		note_counter(&x->have_cont, &x->cont_base, &x->cont_last,
			     c[ST_SUMMARY_COUNT_MUTEX_CONT_MAX]);
	x->releases += c[ST_SUMMARY_COUNT_MUTEX_RELEASES];
	x->wakes_released += c[ST_SUMMARY_COUNT_MUTEX_WAKES];
	x->wasted_released += c[ST_SUMMARY_COUNT_MUTEX_WASTED];
	x->trylock_failed += c[ST_SUMMARY_COUNT_MUTEX_TRYLOCK_FAILED];
	x->timeouts += c[ST_SUMMARY_COUNT_MUTEX_TIMEOUTS];
	x->timeout_wait_ns += c[ST_SUMMARY_COUNT_MUTEX_TIMEOUT_NS];
	merge(m, &x->wait, a, ST_SUMMARY_HIST_MUTEX_WAIT);
}

static void cond_part(struct sa_model *m, struct sa_object *o, struct sa_thread *t,
		      struct agg *a)
{
	struct sa_cond *x = sa_model_typed(m, o, SA_OBJ_COND);
	const uint64_t *c = a->c;
	if (!x)
		return;
	x->waits += c[ST_SUMMARY_COUNT_COND_WAITS];
	x->timed_waits += c[ST_SUMMARY_COUNT_COND_TIMED_WAITS];
	x->signals += c[ST_SUMMARY_COUNT_COND_SIGNALS];
	x->broadcasts += c[ST_SUMMARY_COUNT_COND_BROADCASTS];
	x->moved += c[ST_SUMMARY_COUNT_COND_MOVED];
	t->cond_wakeups += c[ST_SUMMARY_COUNT_COND_MOVED];
	/* who released its waiters: per thread, no site, no latency */
	if (c[ST_SUMMARY_COUNT_COND_SIGNALS] + c[ST_SUMMARY_COUNT_COND_BROADCASTS])
		sa_waker_wake(m, (uint32_t)(o - m->objs), (uint32_t)(t - m->threads), 0,
			      c[ST_SUMMARY_COUNT_COND_SIGNALS] + c[ST_SUMMARY_COUNT_COND_BROADCASTS],
			      c[ST_SUMMARY_COUNT_COND_MOVED]);
	x->leaving += c[ST_SUMMARY_COUNT_COND_LEAVING];
	x->leaving_timeout += c[ST_SUMMARY_COUNT_COND_LEAVING_TIMEOUT];
	x->leaving_cancel += c[ST_SUMMARY_COUNT_COND_LEAVING_CANCEL];
	x->met_leaving += c[ST_SUMMARY_COUNT_COND_MET_LEAVING];
	x->ref_waits += c[ST_SUMMARY_COUNT_COND_REF_WAITS];
	x->ref_wait_ns += c[ST_SUMMARY_COUNT_COND_REF_WAIT_NS];
	for (int i = 0; i < ST_COND_WOKE_N; i++)
		x->woke[i] += c[ST_SUMMARY_COUNT_COND_WOKE_SIGNALED + i];
	x->spurious += c[ST_SUMMARY_COUNT_COND_SPURIOUS];
	x->relocked += c[ST_SUMMARY_COUNT_COND_RELOCKED];
	x->relock_contended += c[ST_SUMMARY_COUNT_COND_RELOCK_CONTENDED];
	x->relock_ns += c[ST_SUMMARY_COUNT_COND_RELOCK_NS];
	x->handoff_requeue += c[ST_SUMMARY_COUNT_COND_HANDOFF_REQUEUE];
	x->handoff_wake += c[ST_SUMMARY_COUNT_COND_HANDOFF_WAKE];
	merge(m, &x->wait, a, ST_SUMMARY_HIST_COND_WAIT);
	merge(m, &x->herd, a, ST_SUMMARY_HIST_COND_HERD);
	/* The wake ledger's numbers that each thread can count alone: no call
	 * sites, no latencies, nothing that pairs a waker with its wakee. */
	struct sa_wl_counts d = {
		.calls = c[ST_SUMMARY_COUNT_COND_SIGNALS] + c[ST_SUMMARY_COUNT_COND_BROADCASTS],
		.nobody = c[ST_SUMMARY_COUNT_COND_NOBODY],
		.woken = c[ST_SUMMARY_COUNT_COND_MOVED],
		.met_leaving = c[ST_SUMMARY_COUNT_COND_MET_LEAVING],
		.went_on = c[ST_SUMMARY_COUNT_COND_WENT_ON],
		.multi = c[ST_SUMMARY_COUNT_COND_BROADCASTS],
	};
	d.out[SA_WL_WON] = c[ST_SUMMARY_COUNT_COND_WOKE_SIGNALED];
	d.out[SA_WL_FUTILE] = c[ST_SUMMARY_COUNT_COND_FUTILE];
	d.out[SA_WL_PASSED_ON] = c[ST_SUMMARY_COUNT_COND_WOKE_CANCELLED_SIGNALED];
	for (unsigned i = 0; i < a->nh; i++) /* the broadcasts' largest herd */
		if (a->h[i].id == ST_SUMMARY_HIST_COND_HERD && a->h[i].d.n)
			d.fan_max = a->h[i].d.max;
	/* (before format 2.8 / 3.8 a summary had no futile counts: none then) */
	const struct sa_proc *p = o->proc < m->nprocs ? &m->procs[o->proc] : NULL;
	if (p && p->fmt_minor >= 8 &&
	    (d.calls || d.woken || d.out[SA_WL_WON] || d.out[SA_WL_FUTILE] || d.met_leaving))
		sa_wl_aggregate(m, (uint32_t)(o - m->objs), &d,
				(c[ST_SUMMARY_COUNT_COND_SIGNALS] ? 1u : 0u) |
				(c[ST_SUMMARY_COUNT_COND_BROADCASTS] ? 2u : 0u));
}

static void sem_part(struct sa_model *m, struct sa_object *o, struct sa_thread *t, struct agg *a)
{
	struct sa_sem *x = sa_model_typed(m, o, SA_OBJ_SEM);
	const uint64_t *c = a->c;
	if (!x)
		return;
	x->posts += c[ST_SUMMARY_COUNT_SEM_POSTS];
	x->overflows += c[ST_SUMMARY_COUNT_SEM_OVERFLOWS];
	x->post_wakes += c[ST_SUMMARY_COUNT_SEM_POST_WAKES];
	t->sem_wakeups += c[ST_SUMMARY_COUNT_SEM_POST_WAKES];
	/* who woke its sleepers (a post that woke one: a wake call that woke
	 * somebody): per thread, no site, no latency */
	uint64_t woke = c[ST_SUMMARY_COUNT_SEM_POST_WAKES] > c[ST_SUMMARY_COUNT_SEM_POST_WASTED]
				? c[ST_SUMMARY_COUNT_SEM_POST_WAKES] - c[ST_SUMMARY_COUNT_SEM_POST_WASTED]
				: 0;
	if (woke)
		sa_waker_wake(m, (uint32_t)(o - m->objs), (uint32_t)(t - m->threads), 0, woke, woke);
	x->post_wasted += c[ST_SUMMARY_COUNT_SEM_POST_WASTED];
	x->wait_begins += c[ST_SUMMARY_COUNT_SEM_WAIT_BEGINS];
	x->sleeps += c[ST_SUMMARY_COUNT_SEM_SLEEPS];
	x->acquired += c[ST_SUMMARY_COUNT_SEM_ACQUIRED];
	for (int i = 0; i < ST_SEM_HOW_N; i++)
		x->how[i] += c[ST_SUMMARY_COUNT_SEM_HOW_FAST + i];
	x->timeouts += c[ST_SUMMARY_COUNT_SEM_TIMEOUTS];
	x->interrupted += c[ST_SUMMARY_COUNT_SEM_INTERRUPTED];
	x->timeout_wait_ns += c[ST_SUMMARY_COUNT_SEM_TIMEOUT_NS];
	x->trywait_failed += c[ST_SUMMARY_COUNT_SEM_TRYWAIT_FAILED];
	merge(m, &x->wait, a, ST_SUMMARY_HIST_SEM_WAIT);
}

static void rwlock_part(struct sa_model *m, struct sa_object *o, struct agg *a)
{
	struct sa_rwlock *x = sa_model_typed(m, o, SA_OBJ_RWLOCK);
	const uint64_t *c = a->c;
	if (!x)
		return;
	for (int side = 0; side < 2; side++) {
		x->requested[side] += c[ST_SUMMARY_COUNT_RW_REQUESTED_READ + side];
		x->acquired[side] += c[ST_SUMMARY_COUNT_RW_ACQUIRED_READ + side];
		for (int h = 0; h < ST_RWLOCK_HOW_N; h++)
			x->how[side][h] += c[ST_SUMMARY_COUNT_RW_READ_FAST + side * ST_RWLOCK_HOW_N + h];
		x->timeouts[side] += c[ST_SUMMARY_COUNT_RW_TIMEOUTS_READ + side];
		x->trylock_failed[side] += c[ST_SUMMARY_COUNT_RW_TRYLOCK_FAILED_READ + side];
	}
	x->releases += c[ST_SUMMARY_COUNT_RW_RELEASES];
	x->release_wakes += c[ST_SUMMARY_COUNT_RW_RELEASE_WAKES];
	x->release_wasted += c[ST_SUMMARY_COUNT_RW_RELEASE_WASTED];
	x->drained += c[ST_SUMMARY_COUNT_RW_DRAINED];
	x->drained_wasted += c[ST_SUMMARY_COUNT_RW_DRAINED_WASTED];
	x->writer_waits += c[ST_SUMMARY_COUNT_RW_WRITER_WAITS];
	x->timeout_wait_ns += c[ST_SUMMARY_COUNT_RW_TIMEOUT_NS];
	merge(m, &x->wait[0], a, ST_SUMMARY_HIST_RW_WAIT_READ);
	merge(m, &x->wait[1], a, ST_SUMMARY_HIST_RW_WAIT_WRITE);
}

/* A barrier: each thread's own rounds (it waited in them, or its arrival
 * released them: it was the serial thread), which is all the per-thread
 * table needs but the times that pair one thread's arrival with another's
 * release (wait_last, wakeup, spread, made_wait: not in a summary). */
static void barrier_part(struct sa_model *m, struct sa_object *o, uint32_t ti, struct agg *a)
{
	struct sa_barrier *b = sa_model_typed(m, o, SA_OBJ_BARRIER);
	const uint64_t *c = a->c;
	if (!b)
		return;
	if (!b->init_seen && c[ST_SUMMARY_COUNT_BAR_COUNT_MAX])
		b->count = (int)c[ST_SUMMARY_COUNT_BAR_COUNT_MAX];
	b->waits += c[ST_SUMMARY_COUNT_BAR_ARRIVALS];
	b->rounds += c[ST_SUMMARY_COUNT_BAR_RELEASED];
	b->woken += c[ST_SUMMARY_COUNT_BAR_WOKEN];
	b->departures += c[ST_SUMMARY_COUNT_BAR_DEPARTURES];
	b->summarized += c[ST_SUMMARY_COUNT_BAR_DEPARTURES];
	merge(m, &b->wait, a, ST_SUMMARY_HIST_BARRIER_WAIT);
	if (!c[ST_SUMMARY_COUNT_BAR_ARRIVALS] && !c[ST_SUMMARY_COUNT_BAR_RELEASED] &&
	    !c[ST_SUMMARY_COUNT_BAR_DEPARTURES])
		return;
	struct sa_bar_thread *bt = sa_barrier_thread(m, b, ti);
	if (!bt)
		return;
	const struct hist *w = find(a, ST_SUMMARY_HIST_BARRIER_WAIT);
	bt->waits += c[ST_SUMMARY_COUNT_BAR_ARRIVALS];
	bt->serial += c[ST_SUMMARY_COUNT_BAR_RELEASED];
	bt->passes += c[ST_SUMMARY_COUNT_BAR_ARRIVALS] + c[ST_SUMMARY_COUNT_BAR_RELEASED];
	bt->released_others += c[ST_SUMMARY_COUNT_BAR_RELEASED_OTHERS];
	bt->wait_ns += w ? w->d.sum : 0;
}

/* A once object: the thread that ran the routine is the one whose
 * summary has the run (runs in flight: those not finished). The most
 * callers asleep at once needs their order: not in a summary. */
static void once_part(struct sa_model *m, struct sa_object *o, uint32_t ti, struct agg *a)
{
	struct sa_once *x = sa_model_typed(m, o, SA_OBJ_ONCE);
	const uint64_t *c = a->c;
	if (!x)
		return;
	x->runs += c[ST_SUMMARY_COUNT_ONCE_RUNS];
	x->completed += c[ST_SUMMARY_COUNT_ONCE_COMPLETED];
	x->cancelled += c[ST_SUMMARY_COUNT_ONCE_CANCELLED];
	x->waits += c[ST_SUMMARY_COUNT_ONCE_WAITS];
	x->summarized += c[ST_SUMMARY_COUNT_ONCE_WAITS];
	x->waited += c[ST_SUMMARY_COUNT_ONCE_WAITED];
	x->woken += c[ST_SUMMARY_COUNT_ONCE_WOKEN];
	if (c[ST_SUMMARY_COUNT_ONCE_ROUTINE_MAX])
		x->routine = c[ST_SUMMARY_COUNT_ONCE_ROUTINE_MAX];
	if (c[ST_SUMMARY_COUNT_ONCE_COMPLETED]) {
		x->runner = m->threads[ti].vtid;
		x->run_done_ns = c[ST_SUMMARY_COUNT_ONCE_DONE_NS];
	}
	if (c[ST_SUMMARY_COUNT_ONCE_CANCELLED])
		x->cancelled_runner = m->threads[ti].vtid;
	x->running = x->runs > x->completed + x->cancelled;
	merge(m, &x->run, a, ST_SUMMARY_HIST_ONCE_RUN);
	merge(m, &x->wait, a, ST_SUMMARY_HIST_ONCE_WAIT);
}

static void spinlock_part(struct sa_model *m, struct sa_object *o, struct agg *a)
{
	struct sa_spinlock *x = sa_model_typed(m, o, SA_OBJ_SPINLOCK);
	if (!x)
		return;
	x->contended += a->c[ST_SUMMARY_COUNT_SL_CONTENDED];
	merge(m, &x->spin_ns, a, ST_SUMMARY_HIST_SPINLOCK_SPIN);
	merge(m, &x->iterations, a, ST_SUMMARY_HIST_SPINLOCK_ITER);
}

static void futex_spin_part(struct sa_model *m, struct sa_object *o, struct sa_thread *t,
			    struct agg *a)
{
	const uint64_t *c = a->c;
	o->fx_waits += c[ST_SUMMARY_COUNT_FX_WAITS];
	o->fx_slept_ns += c[ST_SUMMARY_COUNT_FX_SLEPT_NS];
	o->fx_woken_ret += c[ST_SUMMARY_COUNT_FX_WOKEN_RET];
	o->fx_eagain += c[ST_SUMMARY_COUNT_FX_EAGAIN];
	o->fx_timedout += c[ST_SUMMARY_COUNT_FX_TIMEDOUT];
	o->fx_eintr += c[ST_SUMMARY_COUNT_FX_EINTR];
	o->fx_wakes += c[ST_SUMMARY_COUNT_FX_WAKES];
	o->fx_wasted += c[ST_SUMMARY_COUNT_FX_WASTED];
	o->fx_woken += c[ST_SUMMARY_COUNT_FX_WOKEN];
	o->fx_requeues += c[ST_SUMMARY_COUNT_FX_REQUEUES];
	o->fx_requeued += c[ST_SUMMARY_COUNT_FX_REQUEUED];
	o->wake_then_block += c[ST_SUMMARY_COUNT_FX_WAKE_THEN_BLOCK];
	merge(m, &o->herd, a, ST_SUMMARY_HIST_FUTEX_HERD);
	t->futex_waits += c[ST_SUMMARY_COUNT_FX_WAITS];
	t->futex_slept_ns += c[ST_SUMMARY_COUNT_FX_SLEPT_NS];
	t->wake_then_block += c[ST_SUMMARY_COUNT_FX_WAKE_THEN_BLOCK];
	t->fx_wakes += c[ST_SUMMARY_COUNT_FX_WAKES];
	t->fx_wasted += c[ST_SUMMARY_COUNT_FX_WASTED];
	t->fx_woke += c[ST_SUMMARY_COUNT_FX_WOKEN];
	t->fx_woken += c[ST_SUMMARY_COUNT_FX_WOKEN_RET];
	o->sp_loops += c[ST_SUMMARY_COUNT_SP_LOOPS];
	o->sp_acquired += c[ST_SUMMARY_COUNT_SP_ACQUIRED];
	o->sp_gave_up += c[ST_SUMMARY_COUNT_SP_GAVE_UP];
	o->sp_saw_waiters += c[ST_SUMMARY_COUNT_SP_SAW_WAITERS];
	o->sp_ns += c[ST_SUMMARY_COUNT_SP_NS];
	o->sp_modes |= (unsigned)c[ST_SUMMARY_COUNT_SP_MODES];
	merge(m, &o->sp_iter, a, ST_SUMMARY_HIST_SPIN_ITER);
}

/* The wait ledger's kinds, from the LEDGER_ histograms (same order). */
_Static_assert(ST_SUMMARY_HIST_LEDGER_SPINLOCK - ST_SUMMARY_HIST_LEDGER_MUTEX == SA_WAIT_SPINLOCK &&
		       ST_SUMMARY_HIST_LEDGER_COND_RELOCK - ST_SUMMARY_HIST_LEDGER_MUTEX ==
			       SA_WAIT_COND_RELOCK &&
		       ST_SUMMARY_HIST_LEDGER_SEM - ST_SUMMARY_HIST_LEDGER_MUTEX == SA_WAIT_SEM,
	       "summary.def's LEDGER_ histograms follow enum sa_wait_kind");
static void ledger_part(struct sa_model *m, uint32_t ti, uint32_t oi, struct agg *a)
{
	for (unsigned i = 0; i < a->nh; i++) {
		int k = a->h[i].id - ST_SUMMARY_HIST_LEDGER_MUTEX;
		if (k < 0 || k >= SA_WAIT_NKINDS || !a->h[i].d.n)
			continue;
		sa_model_waited_many(m, ti, oi, (enum sa_wait_kind)k, &a->h[i].d, a->h[i].timeouts,
				     a->h[i].contended);
	}
}

/* When a summary's first call site was, on the trace's time line: its
 * time is of CLOCK_MONOTONIC, the clock of the event's raw cycles, placed
 * by the event's own offset (the event's time if it has none). */
static int64_t caller_at(const struct sa_event *e, const struct agg *a)
{
	int64_t at = e->ts;
	if (a->have_caller_ns && e->freq) {
		double raw_ns = e->freq == 1000000000 ? (double)e->cycles
						      : (double)e->cycles * 1e9 / (double)e->freq;
		at = e->ts - (int64_t)(raw_ns - (double)a->caller_ns);
	}
	return at;
}

/* An object is named by the call site of its first event that carried
 * one (sa_model.h): a summary's first call site, if it came before
 * whatever named the object so far and after the object's life began. */
static void name_object(struct sa_object *o, const struct sa_event *e, const struct agg *a)
{
	if (!a->caller || o->is_class) /* (a class is named by its key) */
		return;
	int64_t at = caller_at(e, a);
	/* An aggregate that spans lives at the address (another thread's:
	 * it did not see them end) carries the call site of the first. */
	if (a->have_caller_ns && o->after_ts && at <= o->after_ts)
		return;
	if (!o->caller || at < o->first_ts)
		o->caller = a->caller;
	if (at < o->first_ts)
		o->first_ts = at;
}

/* The family of an object event, as the model's type. */
static enum sa_obj_type type_of(int family)
{
	const char *name = st_summary_family_name(family);
	for (unsigned t = 1; name && t < SA_OBJ_NTYPES; t++) {
		const struct sa_family *f = sa_family_of_type(t);
		if (f && !__builtin_strcmp(f->name, name))
			return (enum sa_obj_type)t;
	}
	return SA_OBJ_UNKNOWN;
}

/* Where an aggregate of whole lives from init site `site` goes (format
 * minor 13; src/trace/summary.c, st_summary_saw): the class of that site,
 * whatever the address names by now (another object may live there). The
 * lives are folded already, as a rule (their destroys came first); else,
 * unfolded (`--by object` keeps every object), the last object of that
 * site at the address, or in the process. *oi: its row; 0: none found. */
static int life_row(struct sa_model *m, uint32_t pi, uint64_t addr, enum sa_obj_type type,
		    uint64_t site, uint32_t *oi)
{
	int64_t i = sa_map_get(&m->obj_map, pi, addr);
	const struct sa_object *o = i >= 0 ? &m->objs[i] : NULL;
	if (!o || o->caller != site || o->type != type) {
		i = sa_map_get(&m->class_map, (uint64_t)pi << 8 | (unsigned)type, site);
		if (i >= 0) {
			*oi = (uint32_t)i;
			return 1;
		}
		i = -1;
		for (uint32_t j = m->procs[pi].obj_head; j; j = m->objs[j - 1].next_in_proc)
			if (m->objs[j - 1].caller == site && m->objs[j - 1].type == type) {
				i = (int64_t)j - 1;
				break; /* the list runs newest first */
			}
		if (i < 0)
			return 0;
		o = &m->objs[i];
	}
	*oi = o->instances ? (uint32_t)i : o->klass;
	return *oi < m->nobjs;
}

static void summary_event(struct sa_model *m, const struct sa_event *e)
{
	uint64_t addr;
	uint32_t oi, ti;
	if (e->id != SA_EV_summary_object)
		return;
	if (!sa_ev_obj(e, &addr) || !e->arr_name || e->narr % 2) {
		m->malformed++;
		return;
	}
	struct agg a = { .nh = 0 };
	decode(&a, e->arr, e->narr);
	if (a.bad)
		m->malformed++;
	enum sa_obj_type type = type_of((int)e->f[SA_F_summary_object_family].v);
	/* The object as the events of its life left it: one destroyed (its
	 * last aggregates come after its destroy when other threads made
	 * them) and folded gets them in its class; whole lives go to theirs. */
	uint32_t pi;
	struct sa_object *o = NULL;
	int routed = 0;
	if (!sa_model_proc(m, e, &pi))
		goto out;
	int64_t i = sa_map_get(&m->obj_map, pi, addr);
	if (a.have_life && life_row(m, pi, addr, type, a.life_site, &oi)) {
		o = &m->objs[oi];
		routed = 1;
	} else if (i >= 0 && !m->objs[i].instances && m->objs[i].klass &&
		   (type == SA_OBJ_UNKNOWN || m->objs[m->objs[i].klass].type == type) &&
		   !(a.have_caller_ns && caller_at(e, &a) > m->objs[i].last_ts)) {
		/* (not an aggregate whose first event came after that object
		 * ended: the next life's, of an object with no init, which its
		 * destroy follows) */
		oi = m->objs[i].klass;
		o = &m->objs[oi];
	} else { /* (an object of another family there: its memory reused) */
		o = sa_model_object_as(m, e, addr, 0, type, &oi);
	}
	struct sa_thread *t = sa_model_thread(m, e, &ti);
	if (!o || !t)
		goto out;
	if (type == SA_OBJ_MUTEX)
		mutex_part(m, o, &a);
	else if (type == SA_OBJ_COND)
		cond_part(m, o, t, &a);
	else if (type == SA_OBJ_SEM)
		sem_part(m, o, t, &a);
	else if (type == SA_OBJ_RWLOCK)
		rwlock_part(m, o, &a);
	else if (type == SA_OBJ_BARRIER)
		barrier_part(m, o, ti, &a);
	else if (type == SA_OBJ_ONCE)
		once_part(m, o, ti, &a);
	else if (type == SA_OBJ_SPINLOCK)
		spinlock_part(m, o, &a);
	else if (type != SA_OBJ_UNKNOWN && !sa_model_typed(m, o, type))
		m->malformed++;
	o = &m->objs[oi]; /* (the calls above may grow the arrays) */
	t = &m->threads[ti];
	if (!routed) /* (lives: named by their init) */
		name_object(o, e, &a);
	futex_spin_part(m, o, t, &a);
	ledger_part(m, ti, oi, &a);
	if (a.unrecorded) { /* objects: a class's now, an object's once folded */
		uint64_t u = a.unrecorded;
		uint32_t *n = o->is_class ? &o->instances : &o->unrecorded;
		*n = u > UINT32_MAX - *n ? UINT32_MAX : *n + (uint32_t)u;
		m->unrecorded += u;
		/* a mutex's acquisitions that only its kept destroys knew */
		struct sa_mutex *x = a.unrec_acq && type == SA_OBJ_MUTEX ? sa_mutex_of(m, o) : NULL;
		if (x)
			x->acq_more += a.unrec_acq;
	}
out:
	for (unsigned i = 0; i < a.nh; i++)
		sa_dist_free(&a.h[i].d);
}

const struct sa_family sa_family_summary = { .name = "summary", .event = summary_event };

uint32_t sa_model_summary_procs(const struct sa_model *m)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->nprocs; i++)
		n += m->procs[i].have_start && m->procs[i].level == ST_META_LEVEL_SUMMARY;
	return n;
}
