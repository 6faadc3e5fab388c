/* Contention: per lock (mutexes), sortable, and per thread. */
#include <stdlib.h>
#include <string.h>

#include "sa_config.h"
#include "sa_mutex.h"
#include "sa_report.h"
#include "sa_symbols.h"
#if SA_HAVE_sem
#include "sa_sem.h"
#endif
#if SA_HAVE_rwlock
#include "sa_rwlock.h"
#endif
#if SA_HAVE_spinlock
#include "sa_spinlock.h"
#endif
#if SA_HAVE_barrier
#include "sa_barrier.h"
#endif
#if SA_HAVE_once
#include "sa_once.h"
#endif

static const struct sa_col lock_cols[] = {
	{ "rank", "#", SA_COL_U64 },
	{ "type", "type", SA_COL_STR },
	{ "vpid", "pid", SA_COL_I64 },
	{ "procname", "process", SA_COL_STR },
	{ "address", "address", SA_COL_HEX },
	{ "instance", "inst", SA_COL_U64 },
	{ "caller", "first call site", SA_COL_HEX },
	{ "acquisitions", "acquired", SA_COL_U64 },
	{ "contended", "contended", SA_COL_U64 },
	{ "contended_share", "cont%", SA_COL_PCT },
	{ "after_spin", "spin", SA_COL_U64 },
	{ "after_sleep", "sleep", SA_COL_U64 },
	{ "timeouts", "timeouts", SA_COL_U64 },
	{ "trylock_failed", "try fail", SA_COL_U64 },
	{ "wait_total_ns", "wait total", SA_COL_U64 },
	{ "wait_mean_ns", "mean", SA_COL_U64 },
	{ "wait_p50_ns", "p50", SA_COL_U64 },
	{ "wait_p90_ns", "p90", SA_COL_U64 },
	{ "wait_p99_ns", "p99", SA_COL_U64 },
	{ "wait_max_ns", "max", SA_COL_U64 },
	{ "holds", "holds", SA_COL_U64 },
	{ "hold_total_ns", "hold total", SA_COL_U64 },
	{ "hold_mean_ns", "hold mean", SA_COL_U64 },
	{ "hold_max_ns", "hold max", SA_COL_U64 },
	{ "handoffs", "handoffs", SA_COL_U64 },
	{ "misuse", "misuse", SA_COL_U64 },
	{ "first_seen_held", "held@1st", SA_COL_BOOL },
	{ "wait_log2_hist", "wait log2(ns) histogram", SA_COL_HIST },
	{ "hold_log2_hist", "hold log2(ns) histogram", SA_COL_HIST },
	{ "site", "call site", SA_COL_STR }, /* only with call sites (analysis/symbols) */
};

static const struct sa_col thread_cols[] = {
	{ "vpid", "pid", SA_COL_I64 },
	{ "vtid", "tid", SA_COL_I64 },
	{ "name", "name", SA_COL_STR },
	{ "waits", "waits", SA_COL_U64 },
	{ "wait_total_ns", "wait total", SA_COL_U64 },
	{ "timeouts", "timeouts", SA_COL_U64 },
	{ "top_object", "waited most on", SA_COL_HEX },
	{ "top_object_type", "type", SA_COL_STR },
	{ "top_object_wait_ns", "wait there", SA_COL_U64 },
	{ "futex_sleeps", "sleeps", SA_COL_U64 },
	{ "futex_slept_ns", "slept", SA_COL_U64 },
};


/* One lock's numbers, whatever its family. */
struct row {
	uint32_t obj;
	const char *type;
	uint64_t key, acq, cont, spin, sleep, timeouts, tryfail, handoffs, misuse, timeout_ns;
	int first_seen_held;
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
	r->wait = &x->wait;
	r->hold = &x->hold;
	return 1;
}

#if SA_HAVE_sem
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
#endif

#if SA_HAVE_rwlock
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
	/* One distribution for the row: the side that waited more. */
	r->wait = x->wait[1].sum >= x->wait[0].sum ? &x->wait[1] : &x->wait[0];
	return 1;
}
#endif

#if SA_HAVE_spinlock
static int spinlock_row(const struct sa_object *ob, struct row *r)
{
	const struct sa_spinlock *x = ob->ext;
	r->type = "spinlock";
	r->acq = r->cont = r->spin = x->contended;
	r->wait = &x->spin_ns;
	return 1;
}
#endif

#if SA_HAVE_barrier
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
#endif

#if SA_HAVE_once
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
#endif

static int lock_row(const struct sa_object *ob, uint32_t i, struct row *r)
{
	memset(r, 0, sizeof(*r));
	r->obj = i;
	if (!ob->ext)
		return 0;
	if (ob->type == SA_OBJ_MUTEX)
		return mutex_row(ob, r);
#if SA_HAVE_sem
	if (ob->type == SA_OBJ_SEM)
		return sem_row(ob, r);
#endif
#if SA_HAVE_rwlock
	if (ob->type == SA_OBJ_RWLOCK)
		return rwlock_row(ob, r);
#endif
#if SA_HAVE_spinlock
	if (ob->type == SA_OBJ_SPINLOCK)
		return spinlock_row(ob, r);
#endif
#if SA_HAVE_barrier
	if (ob->type == SA_OBJ_BARRIER)
		return barrier_row(ob, r);
#endif
#if SA_HAVE_once
	if (ob->type == SA_OBJ_ONCE)
		return once_row(ob, r);
#endif
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
					     lock_cols, SA_N(lock_cols) - !m->symbols);
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
		sa_set_u(&c[0], i + 1);
		sa_cell_str(&c[1], w->type);
		if (ob->type == SA_OBJ_BARRIER || ob->type == SA_OBJ_ONCE)
			t->minor = 2; /* rows of these types: schema 1.2 */
		sa_set_i(&c[2], m->procs[ob->proc].vpid);
		sa_cell_str(&c[3], sa_proc_name(m, ob->proc));
		sa_set_u(&c[4], ob->addr);
		sa_set_u(&c[5], ob->instance);
		if (ob->caller)
			sa_set_u(&c[6], ob->caller);
		sa_set_u(&c[7], w->acq);
		sa_set_u(&c[8], w->cont);
		if (w->acq)
			sa_set_f(&c[9], (double)w->cont / (double)w->acq);
		sa_set_u(&c[10], w->spin);
		sa_set_u(&c[11], w->sleep);
		sa_set_u(&c[12], w->timeouts);
		sa_set_u(&c[13], w->tryfail);
		sa_set_u(&c[14], w->wait->sum);
		if (w->wait->n) {
			sa_set_u(&c[15], w->wait->sum / w->wait->n);
			sa_set_u(&c[16], sa_dist_pct(w->wait, 0.50));
			sa_set_u(&c[17], sa_dist_pct(w->wait, 0.90));
			sa_set_u(&c[18], sa_dist_pct(w->wait, 0.99));
			sa_set_u(&c[19], w->wait->max);
		}
		if ((lfull || w->hold_any_level) && w->hold) {
			sa_set_u(&c[20], w->hold->n);
			sa_set_u(&c[21], w->hold->sum);
			if (w->hold->n) {
				sa_set_u(&c[22], w->hold->sum / w->hold->n);
				sa_set_u(&c[23], w->hold->max);
			}
			sa_set_hist(&c[28], w->hold);
		}
		sa_set_u(&c[24], w->handoffs);
		sa_set_u(&c[25], w->misuse);
		sa_set_u(&c[26], (uint64_t)w->first_seen_held);
		sa_set_hist(&c[27], w->wait);
		char site[512];
		if (t->ncols > 29 && sa_symbols_object_site(m, ob, site, sizeof(site)))
			sa_cell_str(&c[29], site);
	}
	if (n > t->nrows)
		sa_table_note(t, "%u of %u locks shown (--top)", t->nrows, n);
	if (!full)
		sa_table_note(t, "hold times need a trace recorded at the full level");
	sa_table_note(t, "mutex acquisitions come from the mutexes' own counters; semaphore, rwlock and spinlock ones are acquired events (at contention level only those that waited: lower bounds); rwlock waits: the side that waited more; barrier: passes (threads × rounds), contended = waiters, wait = their time in pthread_barrier_wait; once: calls that found the routine not done, contended = callers that slept, holds = the routine's runs; percentiles "
		      "are exact up to %d waits per lock, then within 12.5 %%", SA_DIST_EXACT);
	free(rows);

	t = sa_report_table(r, "contention.threads", "Waiting per thread", thread_cols,
			    SA_N(thread_cols));
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
		sa_set_i(&c[0], m->procs[th->proc].vpid);
		sa_set_i(&c[1], th->vtid);
		sa_cell_str(&c[2], th->procname);
		sa_set_u(&c[3], th->waits);
		sa_set_u(&c[4], th->wait_ns);
		sa_set_u(&c[5], th->timeouts);
		if (th->waits && th->top_obj < m->nobjs) {
			sa_set_u(&c[6], m->objs[th->top_obj].addr);
			sa_cell_str(&c[7], sa_obj_type_name(m->objs[th->top_obj].type));
			sa_set_u(&c[8], th->top_wait_ns);
		}
		sa_set_u(&c[9], th->futex_waits);
		sa_set_u(&c[10], th->futex_slept_ns);
	}
	free(tr);
}
