/* The summary level's per-thread aggregation (summary.h).
 *
 * Each thread that aggregates owns one table, mapped on its first
 * aggregate and never unmapped: a table whose thread exited is free and
 * the next new thread takes it (so `st_sum_all` only grows to the most
 * threads alive at once). Events come into a table's queue (q: their
 * fields, copied) and are aggregated from it in order where the thread
 * waits for another anyway (an item between two looks of its spin,
 * st_summary_step; the rest at once at its next such point), when the
 * queue is full, and before the table is read (drain: its age, a flush,
 * an exit, an event that is noted); the
 * per-thread state below (woken_obj, in_relock, the futile-wake fields)
 * is the aggregators' alone. In a table, entries are keyed by object address
 * (open addressing, linear probing over ST_SUM_PROBE slots); an entry holds
 * the object's counts (enum st_summary_count), and up to ST_SUM_NH
 * histograms, each with up to ST_SUM_HB distinct buckets of st_hist.h.
 * Running out of slots, histograms or buckets emits the entry (or the
 * table) and starts it again: sums stay exact, as the events add up.
 *
 * Who touches a table:
 *   its owner thread  every event queued and aggregated, its own flushes
 *                     (age, full, exit)
 *   the exiting process's last thread  st_summary_flush_all, which drains
 *                     and reads tables of threads still running without
 *                     stopping them: an aggregate they make meanwhile may
 *                     be lost or, if their own drain or flush runs at once,
 *                     counted twice (a thread asleep in a wait writes
 *                     nothing meanwhile: its numbers are exact);
 *                     its object events name the table's owner (tid, set
 *                     by the owner when it claims the table)
 *   a forked child    drops every table's content (its parent's to report)
 * A table is claimed by CAS on `owned` (0 free, 1 owned): the only atomic
 * read-modify-write, once per thread. */
#include "trace/summary.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "config.h"
#include "internal/clock.h"
#include "internal/trace.h"
#include "st_hist.h"

#define ST_SUM_SLOTS 64   /* entries per table (a power of two) */
#define ST_SUM_PROBE 8    /* slots tried before the table is emitted */
#define ST_SUM_NEAR 4     /* entries remembered by object (a power of two) */
#define ST_SUM_KEPT 8     /* entries remembered to keep a caller (a power of two) */
#define ST_SUM_BORN 256   /* objects remembered with their init site (a power of
			     * two; in sets of ST_SUM_BORN_WAYS) */
#define ST_SUM_BORN_WAYS 4
#define ST_SUM_UNREC 8    /* init sites whose lives without records are counted */
#define ST_SUM_NH 6       /* histograms per entry */
#define ST_SUM_HB ST_SUMMARY_BUCKETS_MAX /* distinct buckets per histogram: 64,
			     * 8 powers of two with all 8 sub-buckets (a multiple
			     * of 16: bucket_pos; SYNCTRACE_SUMMARY_BUCKETS keeps
			     * fewer) */
#define ST_SUM_AGE_NS 1000000000ull
#define ST_SUM_KV 240     /* numbers per object event (the analyzer reads 256) */
#define ST_SUM_QW 1024    /* words of events queued before they are aggregated */
#define ST_SUM_QN 20      /* fields of an event, at most (st_probes.h's ST_NARGS) */
#define ST_SUM_ANY (~0u)  /* aggregate()'s n for fields that are whole (not queued) */

#define E_AGAIN 11
#define E_INTR 4
#define E_TIMEDOUT 110
#define E_OVERFLOW 75

struct st_sum_hist {
	uint16_t id;       /* enum st_summary_hist; 0: unused */
	uint16_t n;        /* buckets in use */
	uint16_t idx[ST_SUM_HB];
	uint32_t cnt[ST_SUM_HB];
	uint64_t count, sum, min, max;
	uint64_t timeouts, contended; /* LEDGER_ histograms only */
};

struct st_sum_entry {
	const void *obj;   /* NULL: free slot */
	int family;        /* enum st_summary_family */
	int dirty;         /* something to emit */
	const void *caller; /* of its first aggregated event that had one */
	uint64_t caller_ns; /* when (CLOCK_MONOTONIC) */
	uint8_t hs[ST_SUMMARY_HIST_N]; /* histogram id -> its slot in h + 1, 0: none */
	uint64_t c[ST_SUMMARY_COUNT_N];
	struct st_sum_hist h[ST_SUM_NH];
	/* Whole lives it holds (st_summary_saw): how many, the init site they
	 * came from; dead: the last one ended and no other began here that
	 * this thread initialised (an aggregate now is of a life begun
	 * elsewhere: begin() sends this one out first). */
	uint32_t lives;
	int dead;
	const void *life_site;
};

struct st_sum_table {
	struct st_sum_table *next; /* st_sum_all, never unlinked */
	volatile int owned;
	int tid;                   /* its owner's (summary.def, object.tid): atomic,
				    * the exiting thread reads it (flush_all)
				    * while a new owner may set it */
	unsigned used;             /* entries with an object */
	uint64_t since_ns;         /* coarse clock of the oldest aggregate, 0 none */
	const void *woken_obj;     /* woken from a futex wait on it, not yet past it */
	int in_relock;             /* between cond:woke and cond:relocked */
	const void *wait_caller;   /* its condvar wait's call site, enqueued to
				    * relocked: the mutex's entry takes it (the
				    * analyzer's cond.c names it so too) */
	unsigned ops;              /* st_tls.ops when the age was last checked */
	/* Futile wakes (doc/wakes.md, as the wake ledger sees them): its last
	 * condvar wait ended signaled (woke), then the condvar, mutex and the
	 * mutex's acquisitions counter it relocked with (fut_acq 0: none). Its
	 * next enqueue on that condvar and mutex with the same counter never
	 * let the mutex go: the wake was futile. */
	int woke_signaled;
	const void *fut_cond, *fut_mutex;
	uint64_t fut_acq;
	/* The entries of the last objects aggregated (a thread's aggregates
	 * come in runs on a few objects: a condvar hand-off's wait, the
	 * partner's condvar it signals, the mutex it relocks): found without
	 * hashing. near_e[i] is valid while near_obj[i] is not NULL; every
	 * place that empties the slots resets them (table_reset). */
	const void *near_obj[ST_SUM_NEAR];
	struct st_sum_entry *near_e[ST_SUM_NEAR];
	unsigned near_next;
	/* Entries found to keep a caller, by a hash of their object
	 * (st_summary_defer's fast path): kept_e[addr_slot(obj, ST_SUM_KEPT)]
	 * whose obj is still obj and whose caller is still set says its event
	 * needs no time; anything else is asked again (an entry emitted or
	 * reset clears its caller, so no place forgets these). */
	struct st_sum_entry *kept_e[ST_SUM_KEPT];
	/* Objects of a family that folds which this thread initialised, and
	 * where (their class): in the set of ST_SUM_BORN_WAYS at born_set(obj),
	 * kept until their destroy or until a fifth object of that set takes
	 * the place of one (its life then goes out whole), so that a thread
	 * with tens of such objects alive at once (CPython's futures, each
	 * with its lock) keeps them. */
	struct {
		const void *obj, *site;
		uint64_t iw[2]; /* the init's fields after obj and caller */
		int fresh;      /* no init, and the first life of its run here:
				 * its aggregate goes out at its destroy (it
				 * names the object: st_summary_saw) */
	} born[ST_SUM_BORN];
	unsigned born_next;        /* the way born_put evicts next */
	unsigned graves;           /* graves it kept (some may be gone) */
	/* Lives whose init and destroy records were left out (a grave taken
	 * back, st_summary_saw), by init site: the analyzer counts them as
	 * objects of its class (table_emit; summary.def, LIFE b 2). obj: one
	 * address of that site's, for the analyzer to find the class by. */
	struct {
		const void *site, *obj;
		int family;
		uint32_t n;
		uint64_t acq; /* a mutex's: its lives' acquisitions (LIFE b 3) */
	} unrec[ST_SUM_UNREC];
	unsigned nunrec;
	struct st_sum_entry e[ST_SUM_SLOTS];
	/* The events not aggregated yet (st_summary_defer): the words q[qh]
	 * to q[qn] (qh: those before it are aggregated, st_summary_step), of
	 * items, each a header (evi | n << 16) and the event's n fields as
	 * batched words, in the order they happened. draining: its owner
	 * aggregates from the queue (a spin inside, e.g. of a lock the
	 * tracer takes while an aggregator emits, does not step). */
	unsigned qh, qn;
	int draining;
	uint64_t q[ST_SUM_QW];
};

_Static_assert(ST_SUM_HB % 16 == 0 && ST_SUM_HB <= 0xffff, "bucket_pos reads 16 at a time");
_Static_assert(2 * (ST_SUM_HB + 5) + 4 <= ST_SUM_KV, "a histogram's pairs fit one event");

static struct st_sum_table *volatile st_sum_all;
static volatile int st_sum_atfork;
static __thread struct st_sum_table *st_sum_mine __attribute__((tls_model("initial-exec")));

static uint64_t coarse_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void entry_clear(struct st_sum_entry *e)
{
	const void *obj = e->obj;
	int family = e->family;
	memset(e, 0, sizeof(*e));
	e->obj = obj;
	e->family = family;
}

/* Empty every slot of t (and so forget the last entry found). Only the
 * slots in use are written: a table is ~250 KB, of which a thread touches
 * the pages of the objects it aggregated. */
static void table_reset(struct st_sum_table *t)
{
	for (unsigned i = 0; t->used && i < ST_SUM_SLOTS; i++)
		if (t->e[i].obj)
			memset(&t->e[i], 0, sizeof(t->e[i]));
	t->used = 0;
	memset(t->near_obj, 0, sizeof(t->near_obj));
	memset(t->near_e, 0, sizeof(t->near_e));
	memset(t->born, 0, sizeof(t->born));
	t->nunrec = 0;
}

/* ---- graves: destroys kept back (st_summary_saw) --------------------------
 * Process-wide, in .bss: ST_SUM_GRAVES keys in buckets of 8 (a cache
 * line: a look at an address reads one line), each with its grave beside.
 * A key is 0 (free), addr | G_SET (a destroy kept) or addr | G_BUSY (being
 * written in, or taken out); the objects are 4-aligned (a futex word), so
 * those bits are free. A key leaves 0 or G_SET only by CAS: the thread
 * that makes it G_BUSY owns the grave until it stores the next key, so a
 * kept destroy is written once, by one thread. A grave holds numbers, not
 * pointers to follow: the object may be freed or reused meanwhile. */
#define ST_SUM_GRAVES 256 /* a multiple of 8 */
#define G_SET 1u
#define G_BUSY 2u

struct st_sum_grave {
	const struct st_sum_table *owner; /* the thread (its table) that kept it */
	int family;                       /* summary.def's */
	const void *site, *caller;        /* the life's init site, the destroy's caller */
	uint64_t iw[2], dw[2];            /* the init's, the destroy's fields after obj, caller */
};

static uint64_t st_sum_gkey[ST_SUM_GRAVES] __attribute__((aligned(64)));
static struct st_sum_grave st_sum_grave[ST_SUM_GRAVES];

_Static_assert(ST_SUMMARY_FAMILY_MUTEX == 1 && ST_SUMMARY_FAMILY_COND == 2 &&
		       ST_SUMMARY_FAMILY_SEM == 3 && ST_SUMMARY_FAMILY_RWLOCK == 4,
	       "internal/trace.h's ST_SUM_FOLDS_ are summary.def's families");

/* An address's bits mixed into the top ones (entries, graves). */
static inline uint64_t addr_mix(uintptr_t x)
{
	return (uint64_t)(x >> 3) * 0x9E3779B97F4A7C15ull;
}

static unsigned grave_bucket(uintptr_t x)
{
	return (unsigned)(addr_mix(x) >> 40) % (ST_SUM_GRAVES / 8) * 8;
}

static int gkey_cas(uint64_t *k, uint64_t expected, uint64_t desired)
{
	return __atomic_compare_exchange_n(k, &expected, desired, 0, __ATOMIC_ACQ_REL,
					   __ATOMIC_ACQUIRE);
}

/* The grave kept at x, now G_BUSY (the caller's: grave_free it), or -1.
 * One being written or taken out by another thread is waited for: what
 * is written about x stays in the order it happened. */
static int grave_take(uintptr_t x)
{
	unsigned b = grave_bucket(x);
	for (unsigned i = b; i < b + 8; i++) {
		uint64_t k = st_load_acquire(&st_sum_gkey[i]);
		for (unsigned spins = 0; (k & ~(uint64_t)3) == x; spins++) {
			if (k == (x | G_SET) && gkey_cas(&st_sum_gkey[i], k, x | G_BUSY))
				return (int)i;
			if (spins > 100)
				sched_yield();
			else
				st_cpu_relax();
			k = st_load_acquire(&st_sum_gkey[i]);
		}
	}
	return -1;
}

static void grave_free(int g)
{
	st_store_release(&st_sum_gkey[g], 0);
}

/* Write grave g's destroy (its thread's, late). Inside the trace guard. */
static void grave_write(int g)
{
	const struct st_sum_grave *r = &st_sum_grave[g];
	const void *obj = (const void *)(uintptr_t)(st_sum_gkey[g] & ~(uint64_t)3);
	const void *caller = st_tls.caller;
	const struct st_probes *p = st_load_acquire(&st_probes_in);
	if (r->family == ST_SUMMARY_FAMILY_MUTEX) /* (kept only with no contended) */
		p->mutex_destroy(obj, r->caller, (int)r->dw[0], r->dw[1], 0);
	else if (r->family == ST_SUMMARY_FAMILY_SEM)
		p->sem_destroy(obj, r->caller, (int)r->dw[0], (int)r->dw[1]);
	else if (r->family == ST_SUMMARY_FAMILY_COND)
		p->cond_destroy(obj, r->caller, (uint32_t)r->dw[0], (uint32_t)r->dw[1]);
	else if (r->family == ST_SUMMARY_FAMILY_RWLOCK)
		p->rwlock_destroy(obj, r->caller);
	st_tls.caller = caller;
}

/* Keep t's destroy of x (family, the life's init site and fields, the
 * destroy's caller and fields) in a grave; 0: none free in x's bucket
 * (the destroy is written now). */
static int grave_keep(struct st_sum_table *t, uintptr_t x, int family, const void *site,
		      const uint64_t *iw, const void *caller, const uint64_t *dw)
{
	if (x & 3)
		return 0;
	unsigned b = grave_bucket(x);
	for (unsigned i = b; i < b + 8; i++)
		if (!st_load_relaxed(&st_sum_gkey[i]) && gkey_cas(&st_sum_gkey[i], 0, x | G_BUSY)) {
			struct st_sum_grave *r = &st_sum_grave[i];
			r->owner = t;
			r->family = family;
			r->site = site;
			r->caller = caller;
			r->iw[0] = iw[0], r->iw[1] = iw[1];
			r->dw[0] = dw[0], r->dw[1] = dw[1];
			st_store_release(&st_sum_gkey[i], x | G_SET);
			t->graves++;
			return 1;
		}
	return 0;
}

/* Write the graves t kept (every grave: NULL). Inside the trace guard. */
static void graves_out(const struct st_sum_table *t)
{
	for (unsigned i = 0; i < ST_SUM_GRAVES; i++) {
		uint64_t k = st_load_acquire(&st_sum_gkey[i]);
		/* (owner read first, so as not to hold others' graves: checked
		 * again once the grave is ours) */
		if (!(k & G_SET) || (t && st_sum_grave[i].owner != t) ||
		    !gkey_cas(&st_sum_gkey[i], k, (k & ~(uint64_t)3) | G_BUSY))
			continue;
		if (t && st_sum_grave[i].owner != t) {
			st_store_release(&st_sum_gkey[i], k); /* another thread's by now */
			continue;
		}
		grave_write((int)i);
		grave_free((int)i);
	}
}

/* graves_out from outside the trace guard (an exit). */
static void graves_out_now(const struct st_sum_table *t)
{
	int guard = st_tls.guard;
	st_tls.guard = 1;
	graves_out(t);
	st_tls.guard = guard;
}

/* In a forked child: what every table holds is the parent's, and so are
 * the graves (the parent writes them). */
static void forked_child(void)
{
	memset(st_sum_gkey, 0, sizeof(st_sum_gkey));
	for (struct st_sum_table *t = st_sum_all; t; t = t->next) {
		table_reset(t);
		t->graves = 0;
		t->qh = t->qn = 0;
		t->since_ns = 0;
		t->woken_obj = 0;
		t->in_relock = 0;
		if (t != st_sum_mine)
			t->owned = 0;
		else /* (the child's thread: its own tid, not the cached one) */
			st_store_relaxed(&t->tid, st_tid_fresh());
	}
}

static struct st_sum_table *table_claim(void)
{
	struct st_sum_table *t;
	for (t = st_load_acquire(&st_sum_all); t; t = t->next)
		if (!t->owned && st_cas_acq_rel(&t->owned, 0, 1)) {
			st_store_relaxed(&t->tid, st_tid());
			return t;
		}
	if (!st_load_acquire(&st_sum_atfork) && st_cas_acq_rel(&st_sum_atfork, 0, 1))
		pthread_atfork(0, 0, forked_child);
	t = mmap(0, sizeof(*t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED)
		return 0;
	t->owned = 1; /* zeroed by mmap otherwise */
	st_store_relaxed(&t->tid, st_tid());
	struct st_sum_table *head;
	do {
		head = st_load_acquire(&st_sum_all);
		t->next = head;
	} while (!__atomic_compare_exchange_n(&st_sum_all, &head, t, 0, __ATOMIC_ACQ_REL,
					      __ATOMIC_ACQUIRE));
	return t;
}

/* ---- emission ------------------------------------------------------------ */

struct kv {
	const void *obj;
	int family, events;
	int tid;            /* whose aggregate (object.tid) */
	unsigned n;
	unsigned reserve;   /* tail's numbers, added to each event */
	uint64_t tail[4];
	uint64_t v[ST_SUM_KV];
};

static void kv_emit(struct kv *k)
{
	if (!k->n)
		return;
	for (unsigned i = 0; i < k->reserve; i++)
		k->v[k->n++] = k->tail[i];
	st_summary_ev_object(k->obj, k->family, k->n, k->v, k->tid);
	k->events++;
	k->n = 0;
}

static void kv_put(struct kv *k, uint64_t tag, uint64_t a, uint64_t b, uint64_t v)
{
	if (k->n + 2 + k->reserve > ST_SUM_KV)
		kv_emit(k);
	k->v[k->n++] = tag << 56 | a << 16 | b;
	k->v[k->n++] = v;
}

/* Histogram h's pairs, as histogram id, its ledger numbers those given;
 * in one event (a reader takes each event whole). */
static void hist_emit(struct kv *k, const struct st_sum_hist *h, unsigned id, uint64_t timeouts,
		      uint64_t contended)
{
	if (k->n + 2 * (h->n + 5u) + k->reserve > ST_SUM_KV)
		kv_emit(k);
	for (unsigned b = 0; b < h->n; b++)
		kv_put(k, ST_SUMMARY_TAG_BUCKET, id, h->idx[b], h->cnt[b]);
	kv_put(k, ST_SUMMARY_TAG_SUM, id, 0, h->sum);
	kv_put(k, ST_SUMMARY_TAG_MIN, id, 0, h->min);
	kv_put(k, ST_SUMMARY_TAG_MAX, id, 0, h->max);
	if (timeouts)
		kv_put(k, ST_SUMMARY_TAG_LEDGER, id, 1, timeouts);
	if (contended)
		kv_put(k, ST_SUMMARY_TAG_LEDGER, id, 2, contended);
}

/* One entry's events; it starts again empty. */
static int entry_emit(struct st_sum_entry *e, int tid)
{
	struct kv k = { .obj = e->obj, .family = e->family, .tid = tid };
	if (!e->dirty)
		return 0;
	if (e->lives) {
		/* in every piece of a split entry: each is routed by them */
		k.tail[0] = (uint64_t)ST_SUMMARY_TAG_LIFE << 56;
		k.tail[1] = (uint64_t)(uintptr_t)e->life_site;
		k.tail[2] = (uint64_t)ST_SUMMARY_TAG_LIFE << 56 | 1;
		k.tail[3] = e->lives;
		k.reserve = 4;
	}
	for (unsigned i = 0; i < ST_SUMMARY_COUNT_N; i++)
		if (e->c[i])
			kv_put(&k, ST_SUMMARY_TAG_COUNT, 0, i, e->c[i]);
	for (unsigned j = 0; j < ST_SUM_NH; j++) {
		const struct st_sum_hist *h = &e->h[j];
		if (h->id)
			hist_emit(&k, h, h->id, h->timeouts, h->contended);
	}
	/* A condvar's waits in the ledger: its wait histogram again (every
	 * wake's wait, none at once), those that did not end signaled its
	 * timeouts (agg_cond_woke counts a wake after its histogram's value:
	 * both are in the same piece of a split entry). */
	unsigned cw = e->hs[ST_SUMMARY_HIST_COND_WAIT];
	if (cw) {
		const struct st_sum_hist *h = &e->h[cw - 1];
		hist_emit(&k, h, ST_SUMMARY_HIST_LEDGER_COND,
			  h->count - e->c[ST_SUMMARY_COUNT_COND_WOKE_SIGNALED], h->count);
	}
	if (e->caller) {
		kv_put(&k, ST_SUMMARY_TAG_CALLER, 0, 0, (uint64_t)(uintptr_t)e->caller);
		kv_put(&k, ST_SUMMARY_TAG_CALLER, 0, 1, e->caller_ns);
	}
	kv_emit(&k);
	entry_clear(e);
	return k.events;
}

/* Emit table t. inside: called from an aggregator (the trace guard is
 * held: lift it for our own events, which take it again). */
static void table_emit(struct st_sum_table *t, int reason, int inside)
{
	int guard = st_tls.guard;
	const void *caller = st_tls.caller;
	int n = 0;
	if (!t || !t->since_ns)
		return;
	if (inside)
		st_tls.guard = 0;
	st_set_caller(0);
	for (unsigned i = 0; i < ST_SUM_SLOTS; i++)
		if (t->e[i].obj)
			n += entry_emit(&t->e[i], st_load_relaxed(&t->tid));
	for (unsigned i = 0; i < t->nunrec; i++) {
		struct kv k = { .obj = t->unrec[i].obj, .family = t->unrec[i].family,
				 .tid = st_load_relaxed(&t->tid) };
		kv_put(&k, ST_SUMMARY_TAG_LIFE, 0, 0, (uint64_t)(uintptr_t)t->unrec[i].site);
		kv_put(&k, ST_SUMMARY_TAG_LIFE, 0, 2, t->unrec[i].n);
		if (t->unrec[i].acq)
			kv_put(&k, ST_SUMMARY_TAG_LIFE, 0, 3, t->unrec[i].acq);
		kv_emit(&k);
		n++;
	}
	t->nunrec = 0;
	if (n)
		st_summary_ev_flushed(reason, n, t->since_ns);
	t->since_ns = 0;
	st_tls.caller = caller;
	st_tls.guard = guard;
}

/* ---- aggregation ----------------------------------------------------------- */

static void drain(struct st_sum_table *t);

static inline __attribute__((always_inline)) struct st_sum_table *mine(void)
{
	struct st_sum_table *t = st_sum_mine;
	if (st_unlikely(!t))
		t = st_sum_mine = table_claim();
	return t;
}

/* The slot where obj's probe sequence starts. */
static unsigned slot_home(const void *obj)
{
	return (unsigned)(addr_mix((uintptr_t)obj) >> 58) & (ST_SUM_SLOTS - 1);
}

/* obj's slot among n remembered (n a power of two: kept_e, born). */
static inline unsigned addr_slot(uint64_t obj, unsigned n)
{
	return (unsigned)(obj >> 4) & (n - 1);
}

/* obj's entry in t, NULL if it has none. */
static struct st_sum_entry *entry_find(struct st_sum_table *t, const void *obj)
{
	unsigned k0 = slot_home(obj);
	for (unsigned i = 0; i < ST_SUM_PROBE; i++) {
		struct st_sum_entry *e = &t->e[(k0 + i) & (ST_SUM_SLOTS - 1)];
		if (e->obj == obj)
			return e;
		if (!e->obj)
			break;
	}
	return 0;
}

/* Emit entry e from inside the trace guard (an aggregator, or an event
 * being emitted); reason: a flushed event follows, else 0. */
static void emit_inside(struct st_sum_entry *e, int reason)
{
	int guard = st_tls.guard;
	const void *caller = st_tls.caller;
	st_tls.guard = 0;
	st_set_caller(0);
	int n = entry_emit(e, st_load_relaxed(&st_sum_mine->tid));
	if (reason)
		st_summary_ev_flushed(reason, n, st_sum_mine->since_ns);
	st_tls.caller = caller;
	st_tls.guard = guard;
}

/* entry_of's lookup; none for NULL (a free slot's key). */
static __attribute__((noinline)) struct st_sum_entry *entry_slot(struct st_sum_table *t, const void *obj)
{
	if (st_unlikely(!obj))
		return 0;
	unsigned k0 = slot_home(obj);
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < ST_SUM_PROBE; i++) {
			struct st_sum_entry *e = &t->e[(k0 + i) & (ST_SUM_SLOTS - 1)];
			if (e->obj == obj)
				return e;
			if (!e->obj) {
				e->obj = obj;
				t->used++;
				return e;
			}
		}
		/* Crowded: emit and forget every entry. */
		table_emit(t, ST_SUMMARY_REASON_FULL, 1);
		table_reset(t);
	}
	return 0;
}

/* Whether obj is among the entries remembered; *e then gets its entry
 * (NULL for a NULL obj: it matches a free one, whose near_e is NULL). */
static inline __attribute__((always_inline)) int entry_near(struct st_sum_table *t,
							     const void *obj,
							     struct st_sum_entry **e)
{
	for (unsigned i = 0; i < ST_SUM_NEAR; i++)
		if (t->near_obj[i] == obj) {
			*e = t->near_e[i];
			return 1;
		}
	return 0;
}

/* obj's entry in t, made if new; the table is emitted when crowded. */
static inline __attribute__((always_inline)) struct st_sum_entry *entry_of(struct st_sum_table *t, const void *obj)
{
	struct st_sum_entry *e;
	if (entry_near(t, obj, &e))
		return e;
	e = entry_slot(t, obj);
	if (e) {
		unsigned k = t->near_next++ & (ST_SUM_NEAR - 1);
		t->near_obj[k] = obj;
		t->near_e[k] = e;
	}
	return e;
}

/* The table's age: emitted once its oldest aggregate (queued or not) is
 * a second old, with what it queued. */
static __attribute__((noinline)) void table_age(struct st_sum_table *t)
{
	uint64_t now = coarse_ns();
	if (!t->since_ns) {
		t->since_ns = now;
	} else if (now - t->since_ns >= ST_SUM_AGE_NS) {
		drain(t);
		table_emit(t, ST_SUMMARY_REASON_AGE, 1);
		t->since_ns = now;
		if (t->graves) { /* a kept destroy as late as the aggregates */
			t->graves = 0;
			graves_out(t);
		}
	}
}

/* The age is checked at the first event of each operation (a slow path
 * begun: st_tls.ops, counted by st_set_caller), not at its later ones (its
 * spin, its futex calls, its end): an operation reads the coarse clock
 * once (~6 ns here), and a table a second old goes out at the start of the
 * thread's next operation, whole operations before it (an operation that
 * sleeps long sends it at the next one). */
static inline __attribute__((always_inline)) void age_check(struct st_sum_table *t)
{
	if (t->ops != st_tls.ops || st_unlikely(!t->since_ns)) {
		t->ops = st_tls.ops;
		table_age(t);
	}
}

/* The time of the queued event being aggregated, if it was read (drain),
 * else 0. */
static __thread uint64_t st_sum_when __attribute__((tls_model("initial-exec")));

static __attribute__((noinline)) void entry_caller(struct st_sum_entry *e, const void *caller)
{
	e->caller = caller;
	/* placed on the trace's clock (summary.def); read now if its event's
	 * was not (its entry had a caller when it was queued, then went out:
	 * a time up to a queue's stay late) */
	e->caller_ns = st_sum_when ? st_sum_when : st_mono_ns();
}

/* The entry an aggregate of obj goes to; NULL: no table (the age was
 * checked when the event was queued: age_check). */
static inline __attribute__((always_inline)) struct st_sum_entry *
begin(const void *obj, int family, int past_woken, const void *caller)
{
	struct st_sum_table *t = mine();
	if (st_unlikely(!t))
		return 0;
	if (past_woken && t->woken_obj == obj)
		t->woken_obj = 0;
	struct st_sum_entry *e = entry_of(t, obj);
	if (st_unlikely(!e))
		return 0;
	if (st_unlikely(e->dead)) /* a life begun elsewhere (st_summary_saw) */
		emit_inside(e, 0);
	if (family)
		e->family = family;
	if (st_unlikely(!e->caller && caller))
		entry_caller(e, caller);
	e->dirty = 1;
	if (st_unlikely(!t->since_ns)) /* entry_of emitted a crowded table */
		t->since_ns = coarse_ns();
	return e;
}

static struct st_sum_hist *hist_of(struct st_sum_entry *e, unsigned id)
{
	unsigned s = e->hs[id];
	if (s)
		return &e->h[s - 1];
	for (unsigned j = 0; j < ST_SUM_NH; j++)
		if (!e->h[j].id) {
			e->h[j].id = (uint16_t)id;
			e->hs[id] = (uint8_t)(j + 1);
			return &e->h[j];
		}
	return 0;
}

/* Where bucket b is among h's buckets in use; h->n if it is not. */
static inline unsigned bucket_pos(const struct st_sum_hist *h, unsigned b)
{
	unsigned n = h->n;
#ifdef __SSE2__
	/* 16 at a time (those past n are masked off: bucket 0 is a value). */
	__m128i key = _mm_set1_epi16((short)b);
	for (unsigned g = 0; g < n; g += 16) {
		const __m128i *p = (const __m128i *)(const void *)(h->idx + g);
		__m128i lo = _mm_cmpeq_epi16(_mm_loadu_si128(p), key);
		__m128i hi = _mm_cmpeq_epi16(_mm_loadu_si128(p + 1), key);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(lo, hi));
		if (n - g < 16)
			m &= (1u << (n - g)) - 1;
		if (m)
			return g + (unsigned)__builtin_ctz(m);
	}
	return n;
#else
	unsigned i = 0;
	while (i < n && h->idx[i] != b)
		i++;
	return i;
#endif
}

/* One more value v in histogram h, at position i of its buckets. */
static inline __attribute__((always_inline)) void hist_put(struct st_sum_hist *h, unsigned i,
							    uint64_t v)
{
	h->cnt[i]++;
	if (!h->count++ || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->sum += v;
}

/* hist_add for a histogram or a bucket not in e yet (e emitted first if it
 * has no room for it). */
static __attribute__((noinline)) struct st_sum_hist *hist_add_new(struct st_sum_entry *e,
								   unsigned id, unsigned b,
								   uint64_t v)
{
	for (int pass = 0; pass < 2; pass++) {
		struct st_sum_hist *h = hist_of(e, id);
		if (h) {
			unsigned i = bucket_pos(h, b);
			if (i < h->n || h->n < st_summary_buckets) {
				if (i == h->n)
					h->idx[h->n++] = (uint16_t)b, h->cnt[i] = 0;
				hist_put(h, i, v);
				return h;
			}
		}
		emit_inside(e, ST_SUMMARY_REASON_FULL);
		e->dirty = 1;
	}
	return 0;
}

/* One more value v in histogram id of e. Inlined for a bucket it has. */
static inline __attribute__((always_inline)) struct st_sum_hist *
hist_add(struct st_sum_entry *e, unsigned id, uint64_t v)
{
	unsigned b = st_hist_index(v), s = e->hs[id];
	if (st_likely(s)) {
		struct st_sum_hist *h = &e->h[s - 1];
		unsigned i = bucket_pos(h, b);
		if (st_likely(i < h->n)) {
			hist_put(h, i, v);
			return h;
		}
	}
	return hist_add_new(e, id, b, v);
}

/* A wait in the ledger (the analyzer's sa_model_waited); at_once: it
 * neither spun nor slept. */
static void ledger(struct st_sum_entry *e, unsigned id, uint64_t ns, int timed_out, int at_once)
{
	struct st_sum_hist *h = hist_add(e, id, ns);
	if (h) {
		h->timeouts += timed_out != 0;
		h->contended += !at_once;
	}
}

static void put_max(uint64_t *slot, uint64_t v)
{
	if (v > *slot)
		*slot = v;
}

/* The entry of obj in family's aggregates, or return (no table). */
#define FAMILY_ENTRY(family, obj, caller)                                       \
	struct st_sum_entry *e = begin(obj, ST_SUMMARY_FAMILY_##family, 1, caller); \
	if (!e)                                                                 \
		return

/* A count an event gives as int, negative for "none": 0 then. */
static uint64_t pos(int64_t v)
{
	return v > 0 ? (uint64_t)v : 0;
}

/* A spin loop of obj, in its entry e. */
static void spin_add(struct st_sum_entry *e, int iterations, int outcome, int mode,
		     uint64_t spin_ns)
{
	e->c[ST_SUMMARY_COUNT_SP_LOOPS]++;
	switch (outcome) {
	case ST_SPIN_OUTCOME_ACQUIRED: e->c[ST_SUMMARY_COUNT_SP_ACQUIRED]++; break;
	case ST_SPIN_OUTCOME_GAVE_UP: e->c[ST_SUMMARY_COUNT_SP_GAVE_UP]++; break;
	case ST_SPIN_OUTCOME_SAW_WAITERS: e->c[ST_SUMMARY_COUNT_SP_SAW_WAITERS]++; break;
	default: break;
	}
	e->c[ST_SUMMARY_COUNT_SP_NS] += spin_ns;
	if (mode >= 0 && mode < 31)
		e->c[ST_SUMMARY_COUNT_SP_MODES] |= 1u << mode;
	hist_add(e, ST_SUMMARY_HIST_SPIN_ITER, pos(iterations));
}

/* The loop of a spin folded into the event aggregated (src/wait/wait.h,
 * st_spin_from_folded): an acquired with how SPIN where st_spin_folds
 * (its time the wait's), a departure or woke with spins >= 0. */
static void spin_folded(struct st_sum_entry *e, int spins, uint64_t spin_ns)
{
	spin_add(e, spins, ST_SPIN_OUTCOME_ACQUIRED, st_spin_mode, spin_ns);
}

static void agg_mutex_requested(const void *obj, const void *caller, int owner, int waiters)
{
	(void)owner, (void)waiters;
	FAMILY_ENTRY(MUTEX, obj, caller);
	e->c[ST_SUMMARY_COUNT_MUTEX_REQUESTED]++;
}

static void agg_mutex_acquired(const void *obj, const void *caller, int how, int spins,
			       int sleeps, uint64_t wait_ns, uint64_t acquisitions,
			       uint32_t contended)
{
	(void)sleeps;
	FAMILY_ENTRY(MUTEX, obj, caller);
	if (how == ST_MUTEX_HOW_SPIN && st_load_relaxed(&st_spin_folds))
		spin_folded(e, spins, wait_ns);
	e->c[ST_SUMMARY_COUNT_MUTEX_ACQUIRED]++;
	e->c[how == ST_MUTEX_HOW_SPIN	     ? ST_SUMMARY_COUNT_MUTEX_HOW_SPIN
	     : how == ST_MUTEX_HOW_SLEEP     ? ST_SUMMARY_COUNT_MUTEX_HOW_SLEEP
	     : how == ST_MUTEX_HOW_FORWARDED ? ST_SUMMARY_COUNT_MUTEX_HOW_FORWARDED
					     : ST_SUMMARY_COUNT_MUTEX_HOW_OTHER]++;
	put_max(&e->c[ST_SUMMARY_COUNT_MUTEX_ACQ_MAX], acquisitions);
	if (how == ST_MUTEX_HOW_SPIN || how == ST_MUTEX_HOW_SLEEP) {
		put_max(&e->c[ST_SUMMARY_COUNT_MUTEX_CONT_MAX], contended);
		hist_add(e, ST_SUMMARY_HIST_MUTEX_WAIT, wait_ns);
		if (st_sum_mine->in_relock)
			st_sum_mine->in_relock = 0; /* the condvar's re-acquisition */
		else
			ledger(e, ST_SUMMARY_HIST_LEDGER_MUTEX, wait_ns, 0, 0);
	}
}

static void agg_mutex_released(const void *obj, const void *caller, int waiters, int woken,
			       uint64_t acquisitions, uint64_t acq_ts, int acq_how)
{
	(void)waiters, (void)acq_ts, (void)acq_how;
	FAMILY_ENTRY(MUTEX, obj, caller);
	e->c[ST_SUMMARY_COUNT_MUTEX_RELEASES]++;
	put_max(&e->c[ST_SUMMARY_COUNT_MUTEX_ACQ_MAX], acquisitions);
	if (woken >= 0) {
		e->c[ST_SUMMARY_COUNT_MUTEX_WAKES]++;
		e->c[ST_SUMMARY_COUNT_MUTEX_WASTED] += woken == 0;
	}
}

static void agg_mutex_trylock_failed(const void *obj, const void *caller, int result,
				     int owner)
{
	(void)result, (void)owner;
	FAMILY_ENTRY(MUTEX, obj, caller);
	e->c[ST_SUMMARY_COUNT_MUTEX_TRYLOCK_FAILED]++;
}

static void agg_mutex_timeout(const void *obj, const void *caller, int sleeps, uint64_t wait_ns)
{
	(void)sleeps;
	FAMILY_ENTRY(MUTEX, obj, caller);
	e->c[ST_SUMMARY_COUNT_MUTEX_TIMEOUTS]++;
	e->c[ST_SUMMARY_COUNT_MUTEX_TIMEOUT_NS] += wait_ns;
	ledger(e, ST_SUMMARY_HIST_LEDGER_MUTEX, wait_ns, 1, 0);
}

/* The wake-then-block machine of analysis/model/futex.c, per thread. */
static void agg_futex_wait(const void *obj, const void *uaddr, int expected, int result,
			   uint64_t slept_ns)
{
	(void)uaddr, (void)expected;
	struct st_sum_entry *e = begin(obj, 0, 0, 0);
	if (!e)
		return;
	struct st_sum_table *t = st_sum_mine;
	e->c[ST_SUMMARY_COUNT_FX_WAITS]++;
	e->c[ST_SUMMARY_COUNT_FX_SLEPT_NS] += slept_ns;
	if (result != E_AGAIN && t->woken_obj == obj)
		e->c[ST_SUMMARY_COUNT_FX_WAKE_THEN_BLOCK]++;
	switch (result) {
	case 0:
		e->c[ST_SUMMARY_COUNT_FX_WOKEN_RET]++;
		t->woken_obj = obj;
		break;
	case E_AGAIN:
		e->c[ST_SUMMARY_COUNT_FX_EAGAIN]++;
		break;
	case E_TIMEDOUT:
		e->c[ST_SUMMARY_COUNT_FX_TIMEDOUT]++;
		t->woken_obj = 0;
		break;
	case E_INTR:
		e->c[ST_SUMMARY_COUNT_FX_EINTR]++;
		t->woken_obj = 0;
		break;
	default:
		break;
	}
}

static void agg_futex_wake(const void *obj, const void *uaddr, int requested, int woken)
{
	(void)uaddr;
	struct st_sum_entry *e = begin(obj, 0, 0, 0);
	if (!e)
		return;
	e->c[ST_SUMMARY_COUNT_FX_WAKES]++;
	if (woken <= 0)
		e->c[ST_SUMMARY_COUNT_FX_WASTED]++;
	else
		e->c[ST_SUMMARY_COUNT_FX_WOKEN] += (uint64_t)woken;
	if (requested > 1)
		hist_add(e, ST_SUMMARY_HIST_FUTEX_HERD, pos(woken));
}

static void agg_futex_requeue(const void *obj, const void *uaddr, const void *uaddr2,
			      int nwake, int nmove, int result)
{
	(void)uaddr, (void)uaddr2, (void)nwake, (void)nmove;
	struct st_sum_entry *e = begin(obj, 0, 0, 0);
	if (!e)
		return;
	e->c[ST_SUMMARY_COUNT_FX_REQUEUES]++;
	if (result > 0)
		e->c[ST_SUMMARY_COUNT_FX_REQUEUED] += (uint64_t)result;
}

static void agg_spin_loop(const void *obj, int iterations, int outcome, int mode,
			  uint64_t spin_ns)
{
	struct st_sum_entry *e = begin(obj, 0, 0, 0);
	if (e)
		spin_add(e, iterations, outcome, mode, spin_ns);
}

/* The first way of obj's set of births. */
static unsigned born_set(const void *obj)
{
	return addr_slot((uintptr_t)obj, ST_SUM_BORN / ST_SUM_BORN_WAYS) * ST_SUM_BORN_WAYS;
}

/* Where obj's birth is remembered in t, or -1. */
static int born_find(const struct st_sum_table *t, const void *obj)
{
	unsigned set = born_set(obj);
	for (unsigned i = set; i < set + ST_SUM_BORN_WAYS; i++)
		if (t->born[i].obj == obj)
			return (int)i;
	return -1;
}

/* Remember obj's birth at site, with its init's fields: in its place if
 * it has one, else a free way of its set, else one in turn (a birth
 * forgotten is a life that goes out whole at its destroy, as before). */
static void born_put(struct st_sum_table *t, const void *obj, const void *site, const uint64_t *fw,
		     int fresh)
{
	int b = born_find(t, obj);
	unsigned set = born_set(obj);
	for (unsigned i = set; b < 0 && i < set + ST_SUM_BORN_WAYS; i++)
		if (!t->born[i].obj)
			b = (int)i;
	if (b < 0)
		b = (int)(set + t->born_next++ % ST_SUM_BORN_WAYS);
	t->born[b].obj = obj;
	t->born[b].site = site;
	t->born[b].iw[0] = fw[0];
	t->born[b].iw[1] = fw[1];
	t->born[b].fresh = fresh;
}

/* Whether a mutex's life may fold, its aggregate in entry e (NULL: none)
 * and its destroy's result and contended counter given: only what adds
 * up across lives (no counter's maximum, an acquired or released event's:
 * the analyzer reads a life's counters from its records, and a kept
 * destroy's acquisitions are summed instead, LIFE b 3), no contended
 * acquisition, and a destroy that ended it (not EBUSY). */
static int mutex_folds(const struct st_sum_entry *e, uint64_t result, uint64_t contended)
{
	return !result && !contended &&
	       !(e && (e->c[ST_SUMMARY_COUNT_MUTEX_ACQ_MAX] || e->c[ST_SUMMARY_COUNT_MUTEX_CONT_MAX]));
}

/* One more life of obj's init site without records, in t (0: no room). */
static int unrecorded(struct st_sum_table *t, const void *obj, int family, const void *site,
		      uint64_t acq)
{
	unsigned i = 0;
	while (i < t->nunrec && (t->unrec[i].site != site || t->unrec[i].family != family))
		i++;
	if (i == ST_SUM_UNREC)
		return 0;
	if (i == t->nunrec) {
		t->unrec[i].site = site;
		t->unrec[i].family = family;
		t->unrec[i].n = 0;
		t->unrec[i].acq = 0;
		t->nunrec++;
	}
	t->unrec[i].obj = obj;
	t->unrec[i].n++;
	t->unrec[i].acq += acq;
	if (!t->since_ns) /* (table_emit sends a table with an age) */
		t->since_ns = coarse_ns();
	return 1;
}

/* Lives, for families that fold (summary.h): an init by this thread is
 * remembered with its site (born); its destroy, by this thread, finds it
 * there and leaves the object's entry holding that life (lives, life_site,
 * dead) instead of sending it out; the next init there from the same site
 * takes the entry on (not dead: its events are this thread's new life's).
 * Every other case sends the entry out as before: the analyzer gives an
 * aggregate without LIFE keys to the object the address names when it
 * arrives, one with them to the class of its init site.
 * The records: such a destroy (one that tells nothing but the end: no
 * sleeper left on a semaphore) goes to a grave instead of the trace; the
 * same thread's next init there, same site and fields, takes it back and
 * neither is written (t->unrec counts it); any other init or destroy of
 * that address writes it first. So the analyzer sees the lives as one,
 * named by its first init, and posters' aggregates meanwhile go to it as
 * the address names it; no other init can come between unseen.
 * A life with no init (a private condvar's static initializer, C++'s
 * std::condition_variable) is begun by its first wait (FIRST_USE: the
 * wait's site is the life's, as it is its first record's at the contention
 * level, a signal with no waiter writing none): the same, but that a
 * first use the grave did not carry on (a run's first life) has no record
 * that would name the object, so its aggregate goes out plain at its
 * destroy (fresh) and does that; the destroy is kept, and the lives after
 * it fold. */
int st_summary_saw(const void *first, int life, unsigned n, const uint64_t *w)
{
	struct st_sum_table *t = st_sum_mine;
	int kind = life & (ST_SUM_LIFE_INIT | ST_SUM_LIFE_DESTROY);
	int first_use = life & ST_SUM_LIFE_FIRST_USE;
	int family = life >> ST_SUM_LIFE_FAMILY;
	const void *caller = kind && w && n >= 2 ? (const void *)(uintptr_t)w[1] : 0;
	/* (a grave keeps two of an init's or destroy's fields after obj and
	 * caller, all they have but a mutex destroy's contended counter,
	 * which must be 0 to keep it: mutex_folds) */
	int folds = family && first && caller && st_summary_lives;
	uint64_t fw[2] = { 0, 0 }; /* its fields after obj and caller */
	for (unsigned i = 2; kind && w && i < n && i < 4; i++)
		fw[i - 2] = w[i];
	if (first_use) /* (no init's fields: never one an init record has) */
		fw[0] = fw[1] = ~(uint64_t)0;
	if (!t && kind == ST_SUM_LIFE_INIT && folds)
		t = mine(); /* to remember the birth */
	if (t) {
		drain(t); /* what it notes comes after them */
		if (t->woken_obj == first)
			t->woken_obj = 0;
		if (kind)
			age_check(t);
	}
	/* A destroy kept at this address: taken back by this thread's next
	 * life there, else written now (before this record). */
	int g = kind && first ? grave_take((uintptr_t)first) : -1;
	int taken = 0; /* the grave: no record of its destroy nor of this init */
	if (g >= 0) {
		const struct st_sum_grave *r = &st_sum_grave[g];
		if (kind == ST_SUM_LIFE_INIT && folds && r->owner == t && r->family == family &&
		    r->site == caller && r->iw[0] == fw[0] && r->iw[1] == fw[1])
			/* (0: no room; a mutex's kept destroy says its
			 * life's acquisitions, its record now never will) */
			taken = unrecorded(t, first, family, caller,
					   family == ST_SUMMARY_FAMILY_MUTEX ? r->dw[1] : 0);
		if (!taken)
			grave_write(g);
		grave_free(g);
	}
	if (!t || !kind)
		return 0;
	struct st_sum_entry *e;
	if (kind == ST_SUM_LIFE_INIT) {
		/* A first use whose life the grave did not carry on begins a
		 * run: nothing named the object yet (no init record). */
		int fresh = first_use && !taken;
		e = entry_find(t, first);
		if (e && e->dirty && !(folds && !fresh && e->dead && e->life_site == caller))
			emit_inside(e, 0);
		else if (e)
			e->dead = 0; /* the next life from the same site: taken on */
		if (folds)
			born_put(t, first, caller, fw, fresh);
		return taken;
	}
	e = entry_find(t, first);
	int b = born_find(t, first);
	const void *site = b >= 0 ? t->born[b].site : 0;
	int fresh = site && t->born[b].fresh;
	if (site)
		t->born[b].obj = 0;
	/* A mutex's life folds only with what adds up across lives (and
	 * its destroy keeps its counters only where they are all it has). */
	int mutex_ok = family != ST_SUMMARY_FAMILY_MUTEX ||
		       mutex_folds(e && e->dirty ? e : 0, fw[0], n > 4 && w ? w[4] : 1);
	if (e && e->dirty) {
		/* (a fresh life's aggregate goes out: it names the object at
		 * the address, as an init record would have) */
		if (folds && site && !fresh && mutex_ok && (!e->lives || e->life_site == site)) {
			e->lives++;
			e->life_site = site;
			e->dead = 1;
		} else {
			emit_inside(e, 0);
		}
	}
	/* A semaphore with sleepers left is misuse the record must tell. */
	if (folds && site && mutex_ok && !(family == ST_SUMMARY_FAMILY_SEM && fw[1]))
		return grave_keep(t, (uintptr_t)first, family, site, t->born[b].iw, caller, fw);
	return 0;
}

/* ---- condvars (analysis/model/cond.c) ---------------------------------- */

static void agg_cond_enqueued(const void *cond, const void *caller, const void *mutex,
			      const void *node, int clock, int timed, int64_t abs_sec,
			      int64_t abs_nsec, int queued, uint64_t mutex_acq)
{
	(void)node, (void)clock, (void)abs_sec, (void)abs_nsec, (void)queued;
	FAMILY_ENTRY(COND, cond, caller);
	e->c[ST_SUMMARY_COUNT_COND_WAITS]++;
	e->c[ST_SUMMARY_COUNT_COND_TIMED_WAITS] += timed != 0;
	struct st_sum_table *t = st_sum_mine; /* begin found it */
	e->c[ST_SUMMARY_COUNT_COND_FUTILE] += t->fut_acq && t->fut_acq == mutex_acq &&
					     t->fut_cond == cond && t->fut_mutex == mutex;
	t->fut_acq = 0;
	t->wait_caller = caller;
}

static void agg_cond_leaving(const void *cond, const void *node, int reason)
{
	(void)node;
	FAMILY_ENTRY(COND, cond, 0);
	e->c[ST_SUMMARY_COUNT_COND_LEAVING]++;
	e->c[ST_SUMMARY_COUNT_COND_LEAVING_TIMEOUT] += reason == ST_COND_WOKE_TIMEDOUT;
	e->c[ST_SUMMARY_COUNT_COND_LEAVING_CANCEL] += reason == ST_COND_WOKE_CANCELLED;
}

static void agg_cond_met_leaving(const void *cond, const void *caller, const void *node,
				 int refs)
{
	(void)node, (void)refs;
	FAMILY_ENTRY(COND, cond, caller);
	e->c[ST_SUMMARY_COUNT_COND_MET_LEAVING]++;
}

static void agg_cond_ref_wait_begin(const void *cond, const void *caller, int refs)
{
	(void)refs;
	FAMILY_ENTRY(COND, cond, caller);
}

static void agg_cond_ref_wait_end(const void *cond, const void *caller, int refs,
				  uint64_t waited_ns)
{
	(void)refs;
	FAMILY_ENTRY(COND, cond, caller);
	e->c[ST_SUMMARY_COUNT_COND_REF_WAITS]++;
	e->c[ST_SUMMARY_COUNT_COND_REF_WAIT_NS] += waited_ns;
}

static void agg_cond_handoff(const void *cond, const void *from, const void *to, int how,
			     int result)
{
	(void)from, (void)to, (void)result;
	FAMILY_ENTRY(COND, cond, 0);
	e->c[how == ST_COND_RELEASE_REQUEUED ? ST_SUMMARY_COUNT_COND_HANDOFF_REQUEUE
					     : ST_SUMMARY_COUNT_COND_HANDOFF_WAKE]++;
}

static void agg_cond_woke(const void *cond, const void *node, int how, int spurious,
			  uint64_t wait_ns, int spins, uint64_t spin_ns)
{
	(void)node;
	FAMILY_ENTRY(COND, cond, 0);
	if (spins >= 0) /* cond/wait.c */
		spin_folded(e, spins, spin_ns);
	/* First: a histogram with no room sends the entry out and starts
	 * it again, and the counts below go with this value (the ledger that
	 * entry_emit makes of it). */
	if (hist_add(e, ST_SUMMARY_HIST_COND_WAIT, wait_ns)) {
		if (how >= 0 && how < ST_COND_WOKE_N)
			e->c[ST_SUMMARY_COUNT_COND_WOKE_SIGNALED + how]++;
		e->c[ST_SUMMARY_COUNT_COND_SPURIOUS] += pos(spurious);
	}
	st_sum_mine->in_relock = 1;
	st_sum_mine->woke_signaled = how == ST_COND_WOKE_SIGNALED;
}

/* The re-acquisition: its own wait kind, on the mutex. */
static void agg_cond_relocked(const void *cond, const void *mutex, const void *node,
			      int contended, int result, uint64_t relock_ns, uint64_t mutex_acq)
{
	(void)node;
	FAMILY_ENTRY(COND, cond, 0);
	e->c[ST_SUMMARY_COUNT_COND_RELOCKED]++;
	e->c[ST_SUMMARY_COUNT_COND_RELOCK_CONTENDED] += contended != 0;
	e->c[ST_SUMMARY_COUNT_COND_RELOCK_NS] += relock_ns;
	struct st_sum_table *t = st_sum_mine;
	t->in_relock = 0;
	t->fut_cond = cond;
	t->fut_mutex = mutex;
	t->fut_acq = t->woke_signaled ? mutex_acq : 0;
	t->woke_signaled = 0;
	const void *wait_caller = t->wait_caller;
	t->wait_caller = 0;
	if (result || !mutex)
		return;
	/* (its first use, if nothing of its own came before: a mutex only
	 * ever taken there without contention has no event of its own) */
	struct st_sum_entry *me = begin(mutex, ST_SUMMARY_FAMILY_MUTEX, 1, wait_caller);
	if (me)
		ledger(me, ST_SUMMARY_HIST_LEDGER_COND_RELOCK, relock_ns, 0, !contended);
}

static void agg_cond_signal(const void *cond, const void *caller, int broadcast, int moved,
			    int leaving, const void *first, int first_how)
{
	(void)first, (void)first_how;
	FAMILY_ENTRY(COND, cond, caller);
	uint64_t n = pos(moved);
	e->c[ST_SUMMARY_COUNT_COND_NOBODY] += moved <= 0;
	e->c[ST_SUMMARY_COUNT_COND_WENT_ON] += !broadcast && leaving > 0 && moved > 0;
	if (broadcast) {
		e->c[ST_SUMMARY_COUNT_COND_BROADCASTS]++;
		hist_add(e, ST_SUMMARY_HIST_COND_HERD, n);
	} else {
		e->c[ST_SUMMARY_COUNT_COND_SIGNALS]++;
	}
	e->c[ST_SUMMARY_COUNT_COND_MOVED] += n;
}

/* ---- semaphores (analysis/model/sem.c) ---------------------------------- */

static void agg_sem_post(const void *obj, const void *caller, int result, int value,
			 int nwaiters, int woken)
{
	(void)value, (void)nwaiters;
	FAMILY_ENTRY(SEM, obj, caller);
	e->c[ST_SUMMARY_COUNT_SEM_POSTS]++;
	e->c[ST_SUMMARY_COUNT_SEM_OVERFLOWS] += result == E_OVERFLOW;
	if (woken >= 0) {
		e->c[ST_SUMMARY_COUNT_SEM_POST_WAKES]++;
		e->c[ST_SUMMARY_COUNT_SEM_POST_WASTED] += woken == 0;
	}
}

static void agg_sem_wait_begin(const void *obj, const void *caller, int value, int nwaiters)
{
	(void)value, (void)nwaiters;
	FAMILY_ENTRY(SEM, obj, caller);
	e->c[ST_SUMMARY_COUNT_SEM_WAIT_BEGINS]++;
}

static void agg_sem_sleep(const void *obj, const void *caller, int nwaiters)
{
	(void)nwaiters;
	FAMILY_ENTRY(SEM, obj, caller);
	e->c[ST_SUMMARY_COUNT_SEM_SLEEPS]++;
}

static void agg_sem_acquired(const void *obj, const void *caller, int how, int spins,
			     int sleeps, uint64_t wait_ns)
{
	(void)sleeps;
	FAMILY_ENTRY(SEM, obj, caller);
	if (how == ST_SEM_HOW_SPIN && st_load_relaxed(&st_spin_folds))
		spin_folded(e, spins, wait_ns);
	e->c[ST_SUMMARY_COUNT_SEM_ACQUIRED]++;
	if (how >= 0 && how < ST_SEM_HOW_N)
		e->c[ST_SUMMARY_COUNT_SEM_HOW_FAST + how]++;
	if (how == ST_SEM_HOW_SPIN || how == ST_SEM_HOW_SLEEP) {
		hist_add(e, ST_SUMMARY_HIST_SEM_WAIT, wait_ns);
		ledger(e, ST_SUMMARY_HIST_LEDGER_SEM, wait_ns, 0, 0);
	}
}

static void agg_sem_timeout(const void *obj, const void *caller, int result, int sleeps,
			    uint64_t wait_ns)
{
	(void)sleeps;
	FAMILY_ENTRY(SEM, obj, caller);
	e->c[result == E_INTR ? ST_SUMMARY_COUNT_SEM_INTERRUPTED : ST_SUMMARY_COUNT_SEM_TIMEOUTS]++;
	e->c[ST_SUMMARY_COUNT_SEM_TIMEOUT_NS] += wait_ns;
	ledger(e, ST_SUMMARY_HIST_LEDGER_SEM, wait_ns, 1, 0);
}

static void agg_sem_trywait_failed(const void *obj, const void *caller, int nwaiters)
{
	(void)nwaiters;
	FAMILY_ENTRY(SEM, obj, caller);
	e->c[ST_SUMMARY_COUNT_SEM_TRYWAIT_FAILED]++;
}

/* ---- rwlocks (analysis/model/rwlock.c); side: 0 read, 1 write ---------- */

static void agg_rwlock_requested(const void *obj, const void *caller, int write, int readers,
				 int writer, int writers_waiting)
{
	(void)readers, (void)writer, (void)writers_waiting;
	FAMILY_ENTRY(RWLOCK, obj, caller);
	e->c[ST_SUMMARY_COUNT_RW_REQUESTED_READ + (write != 0)]++;
}

static void agg_rwlock_acquired(const void *obj, const void *caller, int write, int how,
				int readers, int spins, int sleeps, uint64_t wait_ns)
{
	(void)readers, (void)sleeps;
	FAMILY_ENTRY(RWLOCK, obj, caller);
	if (how == ST_RWLOCK_HOW_SPIN && st_load_relaxed(&st_spin_folds))
		spin_folded(e, spins, wait_ns);
	int side = write != 0;
	e->c[ST_SUMMARY_COUNT_RW_ACQUIRED_READ + side]++;
	if (how >= 0 && how < ST_RWLOCK_HOW_N)
		e->c[ST_SUMMARY_COUNT_RW_READ_FAST + side * ST_RWLOCK_HOW_N + how]++;
	if (how == ST_RWLOCK_HOW_SPIN || how == ST_RWLOCK_HOW_SLEEP) {
		hist_add(e, side ? ST_SUMMARY_HIST_RW_WAIT_WRITE : ST_SUMMARY_HIST_RW_WAIT_READ,
			 wait_ns);
		ledger(e, side ? ST_SUMMARY_HIST_LEDGER_RWLOCK_WRITE : ST_SUMMARY_HIST_LEDGER_RWLOCK_READ,
		       wait_ns, 0, 0);
	}
}

static void agg_rwlock_released(const void *obj, const void *caller, int write, int readers_left,
				int sleepers, int woken)
{
	(void)write, (void)readers_left, (void)sleepers;
	FAMILY_ENTRY(RWLOCK, obj, caller);
	e->c[ST_SUMMARY_COUNT_RW_RELEASES]++;
	if (woken >= 0) {
		e->c[ST_SUMMARY_COUNT_RW_RELEASE_WAKES]++;
		e->c[ST_SUMMARY_COUNT_RW_RELEASE_WASTED] += woken == 0;
	}
}

static void agg_rwlock_writer_waiting(const void *obj, const void *caller, int readers,
				      int writers_waiting)
{
	(void)readers, (void)writers_waiting;
	FAMILY_ENTRY(RWLOCK, obj, caller);
	e->c[ST_SUMMARY_COUNT_RW_WRITER_WAITS]++;
}

static void agg_rwlock_readers_drained(const void *obj, const void *caller, int sleepers,
				       int woken)
{
	(void)sleepers;
	FAMILY_ENTRY(RWLOCK, obj, caller);
	e->c[ST_SUMMARY_COUNT_RW_DRAINED]++;
	e->c[ST_SUMMARY_COUNT_RW_DRAINED_WASTED] += woken == 0;
}

static void agg_rwlock_timeout(const void *obj, const void *caller, int write, int sleeps,
			       uint64_t wait_ns)
{
	(void)sleeps;
	FAMILY_ENTRY(RWLOCK, obj, caller);
	e->c[ST_SUMMARY_COUNT_RW_TIMEOUTS_READ + (write != 0)]++;
	e->c[ST_SUMMARY_COUNT_RW_TIMEOUT_NS] += wait_ns;
	ledger(e, write ? ST_SUMMARY_HIST_LEDGER_RWLOCK_WRITE : ST_SUMMARY_HIST_LEDGER_RWLOCK_READ,
	       wait_ns, 1, 0);
}

static void agg_rwlock_trylock_failed(const void *obj, const void *caller, int write,
				      int result, int readers, int writer)
{
	(void)result, (void)readers, (void)writer;
	FAMILY_ENTRY(RWLOCK, obj, caller);
	e->c[ST_SUMMARY_COUNT_RW_TRYLOCK_FAILED_READ + (write != 0)]++;
}

/* ---- barriers, once, spinlocks (analysis/model/{barrier,once,spinlock}.c) --
 * All per thread: the serial thread is the one whose wait released the
 * round, so "who arrived last" needs no other thread's events. */

static void agg_barrier_arrival(const void *obj, const void *caller, int round, int arrived,
				int count)
{
	(void)round, (void)arrived;
	FAMILY_ENTRY(BARRIER, obj, caller);
	e->c[ST_SUMMARY_COUNT_BAR_ARRIVALS]++;
	put_max(&e->c[ST_SUMMARY_COUNT_BAR_COUNT_MAX], pos(count));
}

static void agg_barrier_released(const void *obj, const void *caller, int round, int count,
				 int woken)
{
	(void)round;
	FAMILY_ENTRY(BARRIER, obj, caller);
	e->c[ST_SUMMARY_COUNT_BAR_RELEASED]++;
	e->c[ST_SUMMARY_COUNT_BAR_RELEASED_OTHERS] += pos((int64_t)count - 1);
	e->c[ST_SUMMARY_COUNT_BAR_WOKEN] += pos(woken);
	put_max(&e->c[ST_SUMMARY_COUNT_BAR_COUNT_MAX], pos(count));
}

static void agg_barrier_departure(const void *obj, const void *caller, int round,
				  uint64_t wait_ns, int spins)
{
	(void)round;
	FAMILY_ENTRY(BARRIER, obj, caller);
	if (spins >= 0) /* barrier.c */
		spin_folded(e, spins, wait_ns);
	e->c[ST_SUMMARY_COUNT_BAR_DEPARTURES]++;
	hist_add(e, ST_SUMMARY_HIST_BARRIER_WAIT, wait_ns);
	ledger(e, ST_SUMMARY_HIST_LEDGER_BARRIER, wait_ns, 0, 0);
}

static void agg_once_run(const void *obj, const void *caller, const void *routine)
{
	FAMILY_ENTRY(ONCE, obj, caller);
	e->c[ST_SUMMARY_COUNT_ONCE_RUNS]++;
	put_max(&e->c[ST_SUMMARY_COUNT_ONCE_ROUTINE_MAX], (uint64_t)(uintptr_t)routine);
}

static void agg_once_finished(const void *obj, const void *caller, int cancelled, int woken,
			      uint64_t run_ns)
{
	FAMILY_ENTRY(ONCE, obj, caller);
	if (cancelled) {
		e->c[ST_SUMMARY_COUNT_ONCE_CANCELLED]++;
	} else {
		e->c[ST_SUMMARY_COUNT_ONCE_COMPLETED]++;
		e->c[ST_SUMMARY_COUNT_ONCE_DONE_NS] += run_ns;
	}
	e->c[ST_SUMMARY_COUNT_ONCE_WOKEN] += pos(woken);
	hist_add(e, ST_SUMMARY_HIST_ONCE_RUN, run_ns);
}

static void agg_once_wait(const void *obj, const void *caller)
{
	FAMILY_ENTRY(ONCE, obj, caller);
	e->c[ST_SUMMARY_COUNT_ONCE_WAITS]++;
}

static void agg_once_waited(const void *obj, const void *caller, uint64_t wait_ns)
{
	FAMILY_ENTRY(ONCE, obj, caller);
	e->c[ST_SUMMARY_COUNT_ONCE_WAITED]++;
	hist_add(e, ST_SUMMARY_HIST_ONCE_WAIT, wait_ns);
	ledger(e, ST_SUMMARY_HIST_LEDGER_ONCE, wait_ns, 0, 0);
}

static void agg_spinlock_contended(const void *obj, const void *caller, int iterations,
				   uint64_t spin_ns)
{
	FAMILY_ENTRY(SPINLOCK, obj, caller);
	e->c[ST_SUMMARY_COUNT_SL_CONTENDED]++;
	hist_add(e, ST_SUMMARY_HIST_SPINLOCK_SPIN, spin_ns);
	hist_add(e, ST_SUMMARY_HIST_SPINLOCK_ITER, pos(iterations));
	ledger(e, ST_SUMMARY_HIST_LEDGER_SPINLOCK, spin_ns, 0, 0);
}

/* ---- the queue ------------------------------------------------------------ */

/* A batched word back into the field's type (st_probes.h's st_word). */
#define ST_UNW(...) ST_CAT(ST_UNW_, ST_NARGS(__VA_ARGS__))(0, __VA_ARGS__)
#define ST_UNW_2(i, t, n) (t)(a[i])
#define ST_UNW_4(i, t, n, ...) (t)(a[i]), ST_UNW_2(i + 1, __VA_ARGS__)
#define ST_UNW_6(i, t, n, ...) (t)(a[i]), ST_UNW_4(i + 1, __VA_ARGS__)
#define ST_UNW_8(i, t, n, ...) (t)(a[i]), ST_UNW_6(i + 1, __VA_ARGS__)
#define ST_UNW_10(i, t, n, ...) (t)(a[i]), ST_UNW_8(i + 1, __VA_ARGS__)
#define ST_UNW_12(i, t, n, ...) (t)(a[i]), ST_UNW_10(i + 1, __VA_ARGS__)
#define ST_UNW_14(i, t, n, ...) (t)(a[i]), ST_UNW_12(i + 1, __VA_ARGS__)
#define ST_UNW_16(i, t, n, ...) (t)(a[i]), ST_UNW_14(i + 1, __VA_ARGS__)
#define ST_UNW_18(i, t, n, ...) (t)(a[i]), ST_UNW_16(i + 1, __VA_ARGS__)
#define ST_UNW_20(i, t, n, ...) (t)(a[i]), ST_UNW_18(i + 1, __VA_ARGS__)

/* A case for each event with an aggregator (ST_SUMMARY_TAKES 1): its
 * fields count n (0 with a NULL: only say it is taken). */
#define ST_SUM_CASE_0(fam, name, args)
#define ST_SUM_CASE_2(fam, name, args)
#define ST_SUM_CASE_3(fam, name, args) \
	case ST_EVI_##fam##_##name:    \
		return 1;
#define ST_SUM_CASE_1(fam, name, args)                       \
	case ST_EVI_##fam##_##name:                          \
		if (a && (n == ST_SUM_ANY || n == ST_NARGS args / 2)) \
			agg_##fam##_##name(ST_UNW args);     \
		return 1;

/* Aggregate event evi, its n fields a[] (the calling thread's table is
 * st_sum_mine). 1: it has an aggregator. */
static int aggregate(unsigned evi, unsigned n, const uint64_t *a)
{
	switch (evi) {
#define ST_EVENT(fam, name, args, fields) ST_CAT(ST_SUM_CASE_, ST_SUMMARY_TAKES(fam, name))(fam, name, args)
#include "st_all_events.h"
#undef ST_EVENT
	default:
		return 0;
	}
}

/* An item's header: its event, its fields, whether its time follows them. */
#define ST_SUM_ITEM(evi, n, timed) ((uint64_t)(evi) | (uint64_t)(n) << 16 | (uint64_t)(timed) << 24)
#define ST_SUM_ITEM_EVI(h) ((unsigned)((h) & 0xffff))
#define ST_SUM_ITEM_N(h) ((unsigned)((h) >> 16 & 0xff))
#define ST_SUM_ITEM_TIMED(h) ((unsigned)((h) >> 24 & 1))

/* The end of the item at word at of t's queue (n words written), or 0
 * if it does not fit them: an item is checked before it is read, so a
 * table another thread still writes (st_summary_flush_all) gives a torn
 * item at worst, never a read outside the queue. */
static unsigned item_end(const struct st_sum_table *t, unsigned at, unsigned n)
{
	uint64_t h = t->q[at];
	unsigned k = ST_SUM_ITEM_N(h), end = at + 1 + k + ST_SUM_ITEM_TIMED(h);
	return k <= ST_SUM_QN && end <= n ? end : 0;
}

/* Aggregate the item at word at of t's queue (item_end said it fits),
 * inside the trace guard, st_sum_mine being t. */
static void item_take(struct st_sum_table *t, unsigned at)
{
	uint64_t h = t->q[at];
	unsigned k = ST_SUM_ITEM_N(h);
	st_sum_when = ST_SUM_ITEM_TIMED(h) ? t->q[at + 1 + k] : 0;
	aggregate(ST_SUM_ITEM_EVI(h), k, &t->q[at + 1]);
	st_sum_when = 0;
}

/* Aggregate what t queued, in order. The aggregators act on st_sum_mine:
 * it is t meanwhile (the process's last thread drains the others' at its
 * exit). */
static void drain(struct st_sum_table *t)
{
	struct st_sum_table *mine_was = st_sum_mine;
	int guard = st_tls.guard, draining = t->draining;
	unsigned at = t->qh, n = t->qn, end;
	if (at >= n)
		return;
	if (n > ST_SUM_QW)
		n = ST_SUM_QW;
	t->qh = t->qn = 0;
	if (t == mine_was)
		st_tls.sum_pending = 0;
	st_sum_mine = t;
	st_tls.guard = 1;
	t->draining = 1;
	for (; at < n && (end = item_end(t, at, n)); at = end)
		item_take(t, at);
	t->draining = draining;
	st_tls.guard = guard;
	st_sum_mine = mine_was;
}

int st_summary_step(void)
{
	struct st_sum_table *t = st_sum_mine;
	if (!t) {
		st_tls.sum_pending = 0;
		return 0;
	}
	if (st_tls.guard || t->draining)
		return 0;
	unsigned at = t->qh, end;
	if (at < t->qn && (end = item_end(t, at, t->qn))) {
		/* The aggregator may emit (a crowded table), and the tracer
		 * lock a primitive of ours meanwhile: its spin sees
		 * draining. */
		st_tls.guard = 1;
		t->draining = 1;
		t->qh = end;
		item_take(t, at);
		t->draining = 0;
		st_tls.guard = 0;
		if (t->qh < t->qn)
			return 1;
	}
	t->qh = t->qn = 0;
	st_tls.sum_pending = 0;
	return 0;
}

/* An event after which the thread waits, the one it waits for not
 * depending on it: a queue is aggregated there (the idle points of the
 * contention level's write-outs, tracepoints/batch.c). A written spin
 * loop gave up (it sleeps next), or is not folded into its wait's end.
 * IDLE_NOW: aggregated at once; IDLE_SPIN: by the spin that follows,
 * between its looks (queued_idle). Only a condvar wait is left to its
 * spin: it waits for its partner's whole turn (woken, relocked,
 * returned, and signalling), which an item at a time fits in; a barrier's
 * or semaphore's partner answers sooner, and what its short spins left
 * went out at the next wait in a larger piece, later on the partner's
 * path (bench/README.md, "Aggregated between a spin's looks, session
 * 25": barrier round trips 6-10 % slower when left to their spins; cond
 * ping-pong up to 1.44x faster where both threads spin). */
enum { IDLE_NOW = 1, IDLE_SPIN = 2 };
static const unsigned char idle_after[ST_EVI_N] = {
	[ST_EVI_cond_enqueued] = IDLE_SPIN, [ST_EVI_sem_wait_begin] = IDLE_NOW,
	[ST_EVI_sem_sleep] = IDLE_NOW,      [ST_EVI_barrier_arrival] = IDLE_NOW,
	[ST_EVI_spin_loop] = IDLE_NOW,
};

/* Whether obj's entry keeps a caller already (from what was aggregated);
 * remembered in kept_e if so. */
static int caller_kept(struct st_sum_table *t, const void *obj)
{
	struct st_sum_entry *e;
	if (!entry_near(t, obj, &e))
		e = entry_find(t, obj);
	if (!e || !e->caller)
		return 0;
	t->kept_e[addr_slot((uintptr_t)obj, ST_SUM_KEPT)] = e;
	return 1;
}

/* After an item was queued at the thread's idle point: its spin
 * aggregates the queue an item at a time (st_summary_step), so the
 * release it waits for is seen an item after it came, not a queue after.
 * What the last spin left (it saw its release first), or a queue over
 * half full, is aggregated here at once, as before a spin: a thread whose
 * spins are too short to keep up, or that sleeps at once, has its queue
 * aggregated at each idle point, not in a burst at the full queue. */
static void queued_idle(struct st_sum_table *t, unsigned how)
{
	if (how == IDLE_NOW || st_tls.sum_pending || t->qn - t->qh > ST_SUM_QW / 2)
		drain(t);
	else
		st_tls.sum_pending = 1;
}

/* Item evi (its n fields w, its time when if not 0) written at the
 * queue's word at, where it fits. */
static inline __attribute__((always_inline)) void put(struct st_sum_table *t, unsigned at,
						       unsigned evi, unsigned n, const uint64_t *w,
						       uint64_t when)
{
	unsigned timed = when != 0;
	uint64_t *q = &t->q[at];
	q[0] = ST_SUM_ITEM(evi, n, timed);
	for (unsigned i = 0; i < n; i++)
		q[1 + i] = w[i];
	if (timed)
		q[1 + n] = when;
	t->qn = at + 1 + n + timed;
	if (st_unlikely(idle_after[evi]))
		queued_idle(t, idle_after[evi]);
}

/* st_summary_defer past its fast path: a new table, a time to read, a
 * full queue. */
static __attribute__((noinline)) void defer_slow(unsigned evi, unsigned n, const uint64_t *w,
						  int caller)
{
	struct st_sum_table *t = mine();
	if (st_unlikely(!t))
		return;
	age_check(t);
	/* Its time, if its caller may be the one its object's entry keeps
	 * (the first in a table's second): seldom. */
	uint64_t when = 0;
	if (caller && n && !caller_kept(t, (const void *)(uintptr_t)w[0]))
		when = st_mono_ns();
	unsigned at = t->qn;
	if (at + 1 + n + (when != 0) > ST_SUM_QW) {
		drain(t);
		at = 0;
	}
	put(t, at, evi, n, w, when);
}

/* The path most taken events take: a header and its fields copied to
 * the queue (~40 instructions and ~5 a field; an operation's first event
 * also checks the table's age), everything else in defer_slow. */
void st_summary_defer(unsigned evi, unsigned n, const uint64_t *w, int caller)
{
	struct st_sum_table *t = st_sum_mine;
	unsigned at;
	struct st_sum_entry *k;
	if (st_likely(t))
		age_check(t); /* the operation's first event: table_age, out of line */
	if (st_unlikely(!t || (at = t->qn) + 1 + n > ST_SUM_QW ||
			(caller && n &&
			 (!(k = t->kept_e[addr_slot(w[0], ST_SUM_KEPT)]) || (uintptr_t)k->obj != w[0] ||
			  !k->caller)))) {
		defer_slow(evi, n, w, caller);
		return;
	}
	put(t, at, evi, n, w, 0);
}

int st_summary_take(unsigned evi, const uint64_t *a)
{
	if (!a)
		return aggregate(evi, 0, 0);
	struct st_sum_table *t = mine();
	if (!t)
		return aggregate(evi, 0, 0);
	age_check(t);
	drain(t);
	return aggregate(evi, ST_SUM_ANY, a);
}

/* ---- flushes ------------------------------------------------------------- */

void st_summary_flush(int reason)
{
	struct st_sum_table *t = st_sum_mine;
	if (t)
		drain(t);
	table_emit(t, reason, 0);
}

void st_summary_thread_exit(void)
{
	struct st_sum_table *t = st_sum_mine;
	if (!t)
		return;
	if (st_tracing() && !st_tls.guard) {
		drain(t);
		table_emit(t, ST_SUMMARY_REASON_THREAD_EXIT, 0);
		if (t->graves)
			graves_out_now(t);
	}
	t->graves = 0;
	st_sum_mine = 0;
	st_tls.sum_pending = 0;
	table_reset(t);
	t->qh = t->qn = 0;
	t->since_ns = 0;
	t->woken_obj = 0;
	t->in_relock = 0;
	st_store_release(&t->owned, 0);
}

void st_summary_flush_all(void)
{
	for (struct st_sum_table *t = st_load_acquire(&st_sum_all); t; t = t->next)
		if (st_load_acquire(&t->owned)) {
			drain(t);
			table_emit(t, ST_SUMMARY_REASON_PROCESS_EXIT, 0);
		}
	graves_out_now(0);
}
