/* Contention: per lock (every family that has acquisitions), sortable,
 * and per thread. The rows each family contributes come from one table,
 * families[] below. */
#include <stdlib.h>
#include <string.h>

#include "sa_barrier.h"
#include "sa_mutex.h"
#include "sa_once.h"
#include "sa_report_util.h"
#include "sa_rwlock.h"
#include "sa_sem.h"
#include "sa_spinlock.h"
#include "sa_symbols.h"

enum {
	L_RANK, L_ID, L_CALLER = L_ID + SA_ID_N, L_ACQ, L_CONT, L_CONT_SHARE, L_SPIN, L_SLEEP,
	L_TIMEOUTS, L_TRYFAIL, L_WAIT, L_WAIT_MEAN, L_WAIT_P50, L_WAIT_P90, L_WAIT_P99,
	L_WAIT_MAX, L_HOLDS, L_HOLD, L_HOLD_MEAN, L_HOLD_MAX, L_HANDOFFS, L_MISUSE,
	L_FIRST_HELD, L_WAIT_HIST, L_HOLD_HIST, L_ACQ_KNOWN, L_CALL_SITES, L_N
};
static const struct sa_col lock_cols[L_N] = {
	[L_RANK] = { "rank", "#", SA_COL_U64, 0, 0 },
	SA_ID_COLS(L_ID),
	[L_CALLER] = { "caller", "first caller", SA_COL_HEX, SA_COL_WIDE, 0 },
	[L_ACQ] = { "acquisitions", "acquired", SA_COL_U64, 0, 0 },
	/* false: the counter's start was not seen; acquisitions is a lower bound */
	[L_ACQ_KNOWN] = { "acquisitions_exact", "exact", SA_COL_BOOL, SA_COL_WIDE, 0 },
	[L_CONT] = { "contended", "contended", SA_COL_U64, 0, 0 },
	[L_CONT_SHARE] = { "contended_share", "cont%", SA_COL_PCT, 0, 0 },
	[L_SPIN] = { "after_spin", "spin", SA_COL_U64, SA_COL_WIDE, 0 },
	[L_SLEEP] = { "after_sleep", "sleep", SA_COL_U64, SA_COL_WIDE, 0 },
	[L_TIMEOUTS] = { "timeouts", "timeouts", SA_COL_U64, 0, 0 },
	[L_TRYFAIL] = { "trylock_failed", "try fail", SA_COL_U64, SA_COL_WIDE, 0 },
	[L_WAIT] = { "wait_total_ns", "wait total", SA_COL_NS, 0, 0 },
	[L_WAIT_MEAN] = { "wait_mean_ns", "mean", SA_COL_NS, 0, 0 },
	[L_WAIT_P50] = { "wait_p50_ns", "p50", SA_COL_NS, SA_COL_WIDE, 0 },
	[L_WAIT_P90] = { "wait_p90_ns", "p90", SA_COL_NS, SA_COL_WIDE, 0 },
	[L_WAIT_P99] = { "wait_p99_ns", "p99", SA_COL_NS, SA_COL_WIDE, 0 },
	[L_WAIT_MAX] = { "wait_max_ns", "max", SA_COL_NS, 0, 0 },
	[L_HOLDS] = { "holds", "holds", SA_COL_U64, SA_COL_WIDE, 0 },
	[L_HOLD] = { "hold_total_ns", "hold total", SA_COL_NS, SA_COL_WIDE, 0 },
	[L_HOLD_MEAN] = { "hold_mean_ns", "hold mean", SA_COL_NS, 0, 0 },
	[L_HOLD_MAX] = { "hold_max_ns", "hold max", SA_COL_NS, SA_COL_WIDE, 0 },
	[L_HANDOFFS] = { "handoffs", "handoffs", SA_COL_U64, SA_COL_WIDE, 0 },
	[L_MISUSE] = { "misuse", "misuse", SA_COL_U64, SA_COL_WIDE, 0 },
	[L_FIRST_HELD] = { "first_seen_held", "held@1st", SA_COL_BOOL, SA_COL_WIDE, 0 },
	[L_WAIT_HIST] = { "wait_log2_hist", "wait log2(ns) histogram", SA_COL_HIST, SA_COL_WIDE, 0 },
	[L_HOLD_HIST] = { "hold_log2_hist", "hold log2(ns) histogram", SA_COL_HIST, SA_COL_WIDE, 0 },
	/* only with call sites (analysis/symbols) */
	[L_CALL_SITES] = { "call_sites", "call sites", SA_COL_STR, SA_COL_WIDE, 0 },
};

enum { T_VPID, T_VTID, T_NAME, T_WAITS, T_WAIT, T_TIMEOUTS, T_TOP, T_TOP_TYPE, T_TOP_WAIT,
       T_SLEEPS, T_SLEPT, T_N };
static const struct sa_col thread_cols[T_N] = {
	[T_VPID] = { "vpid", "pid", SA_COL_I64, 0, 0 },
	[T_VTID] = { "vtid", "tid", SA_COL_I64, 0, 0 },
	[T_NAME] = { "name", "name", SA_COL_STR, 0, 0 },
	[T_WAITS] = { "waits", "waits", SA_COL_U64, 0, 0 },
	[T_WAIT] = { "wait_total_ns", "wait total", SA_COL_NS, 0, 0 },
	[T_TIMEOUTS] = { "timeouts", "timeouts", SA_COL_U64, 0, 0 },
	[T_TOP] = { "top_object", "waited most on", SA_COL_HEX, 0, 0 },
	[T_TOP_TYPE] = { "top_object_type", "type", SA_COL_STR, 0, 0 },
	[T_TOP_WAIT] = { "top_object_wait_ns", "wait there", SA_COL_NS, 0, 0 },
	[T_SLEEPS] = { "futex_sleeps", "sleeps", SA_COL_U64, 0, 0 },
	[T_SLEPT] = { "futex_slept_ns", "slept", SA_COL_NS, 0, 0 },
};

/* One lock's numbers, whatever its family. */
struct row {
	uint32_t obj;
	const char *type;
	uint64_t key, acq, cont, spin, sleep, timeouts, tryfail, handoffs, misuse, timeout_ns;
	int first_seen_held;
	int acq_known;       /* mutexes: 1 exact, 0 a lower bound; -1 other families */
	int hold_any_level;  /* holds known at every level (once: the routine's runs) */
	const struct sa_dist *wait, *hold;
};

static int by_key(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	if (x->acq != y->acq)
		return x->acq < y->acq ? 1 : -1;
	return x->obj < y->obj ? -1 : x->obj > y->obj;
}

static int mutex_row(const struct sa_object *ob, struct row *r)
{
	const struct sa_mutex *x = ob->ext;
	r->type = "mutex";
	r->acq = sa_mutex_acquisitions(x);
	r->cont = sa_mutex_contended(x);
	r->spin = x->how[SA_HOW_SPIN];
	r->sleep = x->how[SA_HOW_SLEEP];
	r->timeouts = x->timeouts;
	r->timeout_ns = x->timeout_wait_ns;
	r->tryfail = x->trylock_failed;
	r->handoffs = x->handoffs;
	for (int k = 0; k < SA_MISUSE_N; k++)
		r->misuse += x->misuse[k];
	r->first_seen_held = x->first_seen_held;
	r->acq_known = sa_mutex_acquisitions_known(x);
	r->wait = &x->wait;
	r->hold = &x->hold;
	return 1;
}

/* Semaphores: acquisitions are the acquired events (every one at full
 * level; only those that waited at contention level). */
static int sem_row(const struct sa_object *ob, struct row *r)
{
	const struct sa_sem *s = ob->ext;
	r->type = "sem";
	r->acq = s->acquired;
	r->spin = s->how[SA_SEM_SPIN];
	r->sleep = s->how[SA_SEM_SLEEP];
	r->cont = r->spin + r->sleep;
	r->timeouts = s->timeouts + s->interrupted;
	r->timeout_ns = s->timeout_wait_ns;
	r->tryfail = s->trywait_failed;
	r->misuse = (s->destroy_nwaiters > 0) + s->over_limit; /* + SYNCTRACE_SEM_MAX findings */
	r->wait = &s->wait;
	return 1;
}

/* Read-write locks: both sides together; acquisitions are acquired events. */
static int rwlock_row(const struct sa_object *ob, struct row *r)
{
	const struct sa_rwlock *x = ob->ext;
	r->type = "rwlock";
	for (int s = 0; s < 2; s++) {
		r->acq += x->acquired[s];
		r->spin += x->how[s][1];
		r->sleep += x->how[s][2];
		r->timeouts += x->timeouts[s];
		r->tryfail += x->trylock_failed[s];
	}
	r->cont = r->spin + r->sleep;
	r->timeout_ns = x->timeout_wait_ns;
	r->misuse = x->misuse;
	/* One distribution for the row: the side that waited (held) more. */
	r->wait = x->wait[1].sum >= x->wait[0].sum ? &x->wait[1] : &x->wait[0];
	r->hold = x->hold[1].sum >= x->hold[0].sum ? &x->hold[1] : &x->hold[0];
	return 1;
}

static int spinlock_row(const struct sa_object *ob, struct row *r)
{
	const struct sa_spinlock *x = ob->ext;
	r->type = "spinlock";
	r->acq = r->cont = r->spin = x->contended;
	r->wait = &x->spin_ns;
	return 1;
}

/* Barriers: a pass per thread and round (the waiters' arrivals and the
 * last arriver's release); contended: the waiters; after sleeping: those
 * the kernel woke (released.woken), the rest left while spinning; wait:
 * the waiters' time in pthread_barrier_wait; misuse: destroy with EBUSY. */
static int barrier_row(const struct sa_object *ob, struct row *r)
{
	const struct sa_barrier *b = ob->ext;
	r->type = "barrier";
	r->acq = b->waits + b->rounds;
	r->cont = b->waits;
	r->sleep = b->woken < b->waits ? b->woken : b->waits;
	r->spin = b->waits - r->sleep;
	r->misuse = b->destroy_busy;
	r->wait = &b->wait;
	return 1;
}

/* Once objects: calls that did not find the routine done (runs and waits);
 * contended: the callers that slept while it ran; holds: the routine's
 * runs (at every level). */
static int once_row(const struct sa_object *ob, struct row *r)
{
	const struct sa_once *x = ob->ext;
	r->type = "once";
	r->acq = x->runs + x->waits;
	r->cont = r->sleep = x->waits;
	r->wait = &x->wait;
	r->hold = &x->run;
	r->hold_any_level = 1;
	return 1;
}

/* The families with lock rows: one entry each. */
static const struct lock_family {
	enum sa_obj_type type;
	int (*row)(const struct sa_object *ob, struct row *r);
} families[] = {
	{ SA_OBJ_MUTEX, mutex_row }, { SA_OBJ_SEM, sem_row }, { SA_OBJ_RWLOCK, rwlock_row },
	{ SA_OBJ_SPINLOCK, spinlock_row }, { SA_OBJ_BARRIER, barrier_row }, { SA_OBJ_ONCE, once_row },
};

static int lock_row(const struct sa_object *ob, uint32_t i, struct row *r)
{
	memset(r, 0, sizeof(*r));
	r->obj = i;
	r->acq_known = -1;
	if (!ob->ext || !ob->instances)
		return 0;
	for (unsigned k = 0; k < SA_N(families); k++)
		if (families[k].type == ob->type)
			return families[k].row(ob, r);
	return 0;
}

struct trow {
	uint32_t t;
	uint64_t w;
};

static int by_wait(const void *a, const void *b)
{
	const struct trow *x = a, *y = b;
	if (x->w != y->w)
		return x->w < y->w ? 1 : -1;
	return x->t < y->t ? -1 : x->t > y->t;
}

void sa_contention_build(const struct sa_model *m, const struct sa_report_opts *o,
			 struct sa_report *r)
{
	struct sa_table *t = sa_report_table(r, "contention.locks", "Contention per lock",
					     lock_cols, L_N - !m->symbols);
	if (t)
		t->flags = SA_TAB_WIDE;
	struct row *rows = malloc((m->nobjs + 1) * sizeof(*rows));
	uint32_t n = 0;
	if (!t || !rows) {
		free(rows);
		return;
	}
	for (uint32_t i = 0; i < m->nobjs; i++) {
		struct row *w = &rows[n];
		if (!lock_row(&m->objs[i], i, w))
			continue;
		switch (o->sort) {
		case SA_SORT_CONTENDED: w->key = w->cont; break;
		case SA_SORT_ACQUISITIONS: w->key = w->acq; break;
		case SA_SORT_HOLD: w->key = w->hold ? w->hold->sum : 0; break;
		case SA_SORT_WAIT:
		default: w->key = w->wait->sum + w->timeout_ns; break;
		}
		n++;
	}
	qsort(rows, n, sizeof(*rows), by_key);
	int full = 0;
	for (uint32_t i = 0; i < n && (!o->top || i < o->top); i++) {
		const struct row *w = &rows[i];
		const struct sa_object *ob = &m->objs[w->obj];
		struct sa_cell *c = sa_table_row(t);
		if (!c)
			break;
		int lfull = m->procs[ob->proc].level >= 2;
		full |= lfull;
		sa_set_u(&c[L_RANK], i + 1);
		sa_id_fill(m, w->obj, &c[L_ID]);
		sa_cell_str(&c[L_ID + SA_ID_TYPE], w->type);
		if (ob->type == SA_OBJ_BARRIER || ob->type == SA_OBJ_ONCE)
			t->minor = 2; /* rows of these types: schema 1.2 */
		if (ob->caller)
			sa_set_u(&c[L_CALLER], ob->caller);
		sa_set_u(&c[L_ACQ], w->acq);
		if (w->acq_known >= 0)
			sa_set_u(&c[L_ACQ_KNOWN], (uint64_t)w->acq_known);
		sa_set_u(&c[L_CONT], w->cont);
		if (w->acq)
			sa_set_f(&c[L_CONT_SHARE], (double)w->cont / (double)w->acq);
		sa_set_u(&c[L_SPIN], w->spin);
		sa_set_u(&c[L_SLEEP], w->sleep);
		sa_set_u(&c[L_TIMEOUTS], w->timeouts);
		sa_set_u(&c[L_TRYFAIL], w->tryfail);
		sa_set_u(&c[L_WAIT], w->wait->sum);
		if (w->wait->n) {
			sa_set_u(&c[L_WAIT_MEAN], w->wait->sum / w->wait->n);
			sa_set_u(&c[L_WAIT_P50], sa_dist_pct(w->wait, 0.50));
			sa_set_u(&c[L_WAIT_P90], sa_dist_pct(w->wait, 0.90));
			sa_set_u(&c[L_WAIT_P99], sa_dist_pct(w->wait, 0.99));
			sa_set_u(&c[L_WAIT_MAX], w->wait->max);
		}
		if ((lfull || w->hold_any_level) && w->hold) {
			sa_set_u(&c[L_HOLDS], w->hold->n);
			sa_set_u(&c[L_HOLD], w->hold->sum);
			if (w->hold->n) {
				sa_set_u(&c[L_HOLD_MEAN], w->hold->sum / w->hold->n);
				sa_set_u(&c[L_HOLD_MAX], w->hold->max);
			}
			sa_set_hist(&c[L_HOLD_HIST], w->hold);
		}
		sa_set_u(&c[L_HANDOFFS], w->handoffs);
		sa_set_u(&c[L_MISUSE], w->misuse);
		sa_set_u(&c[L_FIRST_HELD], (uint64_t)w->first_seen_held);
		sa_set_hist(&c[L_WAIT_HIST], w->wait);
		char site[512];
		if (t->ncols > L_CALL_SITES && sa_symbols_object_site(m, ob, site, sizeof(site)))
			sa_cell_str(&c[L_CALL_SITES], site);
	}
	if (n > t->nrows)
		sa_table_note(t, "%u of %u locks shown (--top)", t->nrows, n);
	if (!full)
		sa_table_note(t, "hold times need a trace recorded at the full level");
	sa_table_note(t, "mutex acquisitions come from the mutexes' own counters; semaphore, rwlock and spinlock ones are acquired events (at contention level only those that waited: lower bounds); rwlock waits: the side that waited more; barrier: passes (threads × rounds), contended = waiters, wait = their time in pthread_barrier_wait; once: calls that found the routine not done, contended = callers that slept, holds = the routine's runs; percentiles "
		      "are exact up to %d waits per lock, then within 12.5 %%", SA_DIST_EXACT);
	free(rows);

	t = sa_report_table(r, "contention.threads", "Lock waits per thread", thread_cols, T_N);
	if (t)
		t->flags = SA_TAB_WIDE;
	struct trow *tr = malloc((m->nthreads + 1) * sizeof(*tr));
	if (!t || !tr) {
		free(tr);
		return;
	}
	n = 0;
	for (uint32_t i = 0; i < m->nthreads; i++)
		if (m->threads[i].waits || m->threads[i].futex_waits)
			tr[n++] = (struct trow){ i, m->threads[i].wait_ns };
	qsort(tr, n, sizeof(*tr), by_wait);
	for (uint32_t i = 0; i < n && (!o->top || i < o->top); i++) {
		const struct sa_thread *th = &m->threads[tr[i].t];
		struct sa_cell *c = sa_table_row(t);
		if (!c)
			break;
		sa_set_i(&c[T_VPID], m->procs[th->proc].vpid);
		sa_set_i(&c[T_VTID], th->vtid);
		sa_cell_str(&c[T_NAME], th->procname);
		sa_set_u(&c[T_WAITS], th->waits);
		sa_set_u(&c[T_WAIT], th->wait_ns);
		sa_set_u(&c[T_TIMEOUTS], th->timeouts);
		if (th->waits && th->top_obj < m->nobjs) {
			sa_set_u(&c[T_TOP], m->objs[th->top_obj].addr);
			sa_cell_str(&c[T_TOP_TYPE], sa_obj_type_name(m->objs[th->top_obj].type));
			sa_set_u(&c[T_TOP_WAIT], th->top_wait_ns);
		}
		sa_set_u(&c[T_SLEEPS], th->futex_waits);
		sa_set_u(&c[T_SLEPT], th->futex_slept_ns);
	}
	free(tr);
}
