/* What-if spin replay (sa_spin_replay.h has the model). Fed every event
 * after its family (sa_model_feed); a wait is replayed when the ledger
 * says it ended (m->ev_wait).
 *
 * Per thread, between two wait ends: its first spin loop (and the spin
 * time of all of them), the futex waits that slept on one object, and the
 * wait it began (sa_model_wait_begins), with how many others were already
 * waiting on that object. Per object: the last SR_RING futex wakes (time,
 * waker), the threads waiting on it, and its accumulators by wait kind. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa_model.h"
#include "sa_mutex.h"
#include "sa_spin_replay.h"

#define SR_RING 16
#define R_EAGAIN 11
/* glibc's mutex kind: the type bits, and the adaptive type. */
#define SR_MUTEX_TYPE_MASK 3
#define SR_MUTEX_ADAPTIVE 3

struct sr_thread {
	uint64_t lp_addr;   /* object of its first loop since the last wait end (0: none) */
	int64_t lp_end;     /* when that loop ended */
	int lp_outcome;
	uint64_t lp_ns;     /* spin time of its loops on lp_addr */
	uint64_t fx_addr;   /* object its futex waits slept on (0: none) */
	uint32_t fx_n;
	int64_t fx_first;   /* when the first of them began sleeping */
	int relock_misses[SA_SR_N]; /* per setting: its relock hint (mutex/lock.c) */
	int begun;          /* a wait began (begin_oi, begin_ts) */
	uint32_t begin_oi, others;
	int64_t begin_ts;
};

struct sr_obj {
	struct { int64_t ts; uint32_t ti; } ring[SR_RING];
	uint64_t nwakes;    /* ring[i % SR_RING] holds wake i */
	uint32_t waiting;   /* threads whose wait on it began and did not end */
	int misses[SA_SR_N]; /* per setting: its hand-off hint (src/wait/wait.h) */
	struct sa_sr_acc *acc;
};

struct sa_spin_replay {
	struct sr_thread *t;
	uint32_t nt;
	struct sr_obj **o;   /* by object index, made on first use, freed when it folds */
	uint32_t no;
	uint64_t pause_it, pause_ns;  /* loops of 16 pauses or more */
	uint64_t ran_out, ran_out_near; /* every object's (sa_sr_acc) */
	struct sa_dist wake_ns;       /* every acc's wake_ns */
};

void sa_sr_setting(unsigned s, int *mode, int *count)
{
	if (s == SA_SR_NONE)
		*mode = ST_SPIN_MODE_NONE, *count = 0;
	else if (s < SA_SR_FULL0)
		*mode = ST_SPIN_MODE_BAIL, *count = SA_SR_COUNT0 << (s - SA_SR_BAIL0);
	else if (s < SA_SR_DEFAULT)
		*mode = ST_SPIN_MODE_FULL, *count = SA_SR_COUNT0 << (s - SA_SR_FULL0);
	else
		*mode = ST_SPIN_MODE_BAIL, *count = SA_SR_DEFAULT_COUNT;
}

const char *sa_sr_name(unsigned s, char *buf, unsigned n)
{
	int mode, count;
	sa_sr_setting(s, &mode, &count);
	if (s == SA_SR_DEFAULT)
		snprintf(buf, n, "unset");
	else if (mode == ST_SPIN_MODE_NONE)
		snprintf(buf, n, "none");
	else
		snprintf(buf, n, "%s:%d", st_spin_mode_name(mode), count);
	return buf;
}

static int grow(void **arr, uint32_t *n, uint32_t want, size_t elem)
{
	if (want <= *n)
		return 0;
	uint32_t cap = *n ? *n : 16;
	while (cap < want)
		cap *= 2;
	void *p = realloc(*arr, (size_t)cap * elem);
	if (!p)
		return -1;
	memset((char *)p + (size_t)*n * elem, 0, (size_t)(cap - *n) * elem);
	*arr = p;
	*n = cap;
	return 0;
}

static struct sa_spin_replay *replay_of(struct sa_model *m, uint32_t ti)
{
	struct sa_spin_replay *r = m->replay;
	if (!r && !(r = m->replay = calloc(1, sizeof(*r))))
		return NULL;
	if (grow((void **)&r->t, &r->nt, ti + 1, sizeof(*r->t))) {
		m->oom = 1;
		return NULL;
	}
	return r;
}

/* Object oi's state, made when missing; NULL on out of memory. */
static struct sr_obj *obj_of(struct sa_model *m, struct sa_spin_replay *r, uint32_t oi)
{
	if (grow((void **)&r->o, &r->no, oi + 1, sizeof(*r->o)) ||
	    (!r->o[oi] && !(r->o[oi] = calloc(1, sizeof(*r->o[oi]))))) {
		m->oom = 1;
		return NULL;
	}
	return r->o[oi];
}

static struct sa_sr_acc *acc_of(struct sa_model *m, struct sr_obj *ro, uint32_t oi,
				enum sa_wait_kind k)
{
	for (struct sa_sr_acc *a = ro->acc; a; a = a->next)
		if (a->kind == k)
			return a;
	struct sa_sr_acc *a = calloc(1, sizeof(*a));
	if (!a) {
		m->oom = 1;
		return NULL;
	}
	a->oi = oi;
	a->kind = k;
	a->next = ro->acc;
	ro->acc = a;
	return a;
}

/* Hand-off waits spin SA_SR_HANDOFF times the count (src/wait/wait.h). */
static int handoff(enum sa_wait_kind k)
{
	return k == SA_WAIT_COND || k == SA_WAIT_SEM || k == SA_WAIT_BARRIER;
}

/* Unset SYNCTRACE_SPIN: does this wait spin? Relocks and the other
 * families do. Lock waits on a mutex do as its process's mutexes did
 * (meta:config's all_mutexes_spin, SYNCTRACE_SPIN_MUTEXES: every mutex
 * by default since 2026-12-01; before, and in traces that do not say,
 * only adaptive ones). */
static int default_spins(const struct sa_model *m, uint32_t oi, enum sa_wait_kind k)
{
	const struct sa_object *o = &m->objs[oi];
	if (k == SA_WAIT_MUTEX && o->proc < m->nprocs && m->procs[o->proc].have_mutex_spin &&
	    m->procs[o->proc].all_mutexes_spin)
		return 1;
	if (k != SA_WAIT_MUTEX || o->type != SA_OBJ_MUTEX || !o->ext)
		return k != SA_WAIT_MUTEX;
	const struct sa_mutex *x = o->ext;
	return x->init_seen && (x->kind & SR_MUTEX_TYPE_MASK) == SR_MUTEX_ADAPTIVE;
}

/* The runtime's adaptive budget (src/wait/wait.h, st_spin_adaptive_budget
 * and _done), replayed per setting: after max loops in a row ran out,
 * waits stop spinning but for probes, after SR_PROBE waits, then twice as
 * many each time, up to one in SR_PROBE_MAX. */
#define SR_HANDOFF_MISSES 2 /* ST_SPIN_MISSES */
#define SR_RELOCK_MISSES 8  /* ST_RELOCK_MISSES */
#define SR_PROBE 128        /* ST_SPIN_PROBE */
#define SR_PROBE_MAX 4096   /* ST_SPIN_PROBE_MAX */
static int adaptive_spins(int *misses, int max)
{
	int m = *misses;
	if (m < max)
		return 1;
	unsigned k = (unsigned)(m - max);
	*misses = k >= (1u << 24) ? max + SR_PROBE_MAX : m + 1;
	return !(k < SR_PROBE || (k < SR_PROBE_MAX ? k & (k - 1) : k & (SR_PROBE_MAX - 1)));
}

static void adaptive_done(int *misses, int max, int outcome)
{
	if (outcome == ST_SPIN_OUTCOME_ACQUIRED)
		*misses = 0;
	else if (outcome == ST_SPIN_OUTCOME_GAVE_UP && *misses < max)
		++*misses;
}

/* "Right after a spin": within SR_NEAR_NS or a quarter of the spin. */
#define SR_NEAR_NS 2000
static uint64_t near_ns(uint64_t spin)
{
	return spin / 4 > SR_NEAR_NS ? spin / 4 : SR_NEAR_NS;
}

/* Did most spins that ran out (two at least) see the release right after
 * them? Then spinning holds the releaser off. */
static int interferes(uint64_t ran_out, uint64_t near)
{
	return near >= 2 && near * 2 > ran_out;
}

static double pause_ns(const struct sa_spin_replay *r)
{
	return r->pause_it ? (double)r->pause_ns / (double)r->pause_it : SA_SR_PAUSE_NS;
}

/* The budget of setting s for this wait, in ns. */
static uint64_t budget_ns(unsigned s, int mult, int dflt, int others, double pause)
{
	int mode, count;
	sa_sr_setting(s, &mode, &count);
	if ((s == SA_SR_DEFAULT && !dflt) || mode == ST_SPIN_MODE_NONE ||
	    (mode == ST_SPIN_MODE_BAIL && others))
		return 0;
	/* (a pause from a damaged trace may be anything: clamped, as a
	 * double past 2^64 has no uint64_t) */
	double b = (double)count * mult * pause;
	return !(b > 0) ? 0 : b >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)b;
}

/* The first wake on ro by a thread other than ti after `after`: its
 * time, or -1 (none yet: its event may come after the wait's end, as a
 * wake is stamped once its system call returns). *approx: the ring lost
 * wakes of that span. */
static int64_t first_wake(const struct sr_obj *ro, uint32_t ti, int64_t after, int *approx)
{
	uint64_t lo = ro->nwakes > SR_RING ? ro->nwakes - SR_RING : 0;
	*approx = 0;
	for (uint64_t i = lo; i < ro->nwakes; i++) {
		const int64_t ts = ro->ring[i % SR_RING].ts;
		if (ts <= after || ro->ring[i % SR_RING].ti == ti)
			continue;
		*approx = i == lo && lo > 0;
		return ts;
	}
	return -1;
}

static void replay(struct sa_model *m, struct sa_spin_replay *r, int64_t now)
{
	uint32_t ti = m->ev_wait.ti, oi = m->ev_wait.oi;
	enum sa_wait_kind k = m->ev_wait.kind;
	uint64_t ns = m->ev_wait.ns, addr = m->objs[oi].addr;
	struct sr_thread *rt = &r->t[ti];
	struct sr_obj *ro = obj_of(m, r, oi);
	int64_t start = now - (int64_t)ns;
	if (!ro)
		return;
	uint32_t others = ro->waiting;

	if (rt->begun && rt->begin_oi == oi) {
		others = rt->others;
		ro->waiting -= ro->waiting > 0;
		rt->begun = 0;
	}
	int loop = rt->lp_addr == addr && rt->lp_end >= start;
	int outcome = rt->lp_outcome;
	uint64_t spin = loop ? rt->lp_ns : 0, sleeps = rt->fx_addr == addr ? rt->fx_n : 0;
	int64_t lp_end = rt->lp_end, fx_first = rt->fx_first;
	rt->lp_addr = rt->fx_addr = 0;
	rt->lp_ns = 0;
	rt->fx_n = 0;
	if (k == SA_WAIT_ONCE || k == SA_WAIT_SPINLOCK) /* they do not use st_spin */
		return;
	if ((m->ev_wait.flags & SA_WAITED_AT_ONCE) && !loop && !sleeps)
		return;
	struct sa_sr_acc *a = acc_of(m, ro, oi, k);
	if (!a)
		return;
	if (m->ev_wait.flags & SA_WAITED_TIMEOUT) {
		a->timeouts++;
		return;
	}
	if (loop && outcome == ST_SPIN_OUTCOME_SAW_WAITERS && !others)
		others = 1;
	/* F, and the grace G: the wait's time outside its spin before it slept
	 * (or, if it did not, before it had the object): a setting sleeps
	 * only when F > budget + G. */
	uint64_t free_ns = ns, grace = ns > spin ? ns - spin : 0;
	if (sleeps) {
		int64_t g = fx_first - start - (int64_t)spin;
		grace = g > 0 ? (uint64_t)g : 0;
		int approx;
		int64_t w = first_wake(ro, ti, loop ? lp_end : start, &approx);
		if (w < 0 || w > now) {
			a->no_wake++;
		} else {
			free_ns = (uint64_t)(w - start);
			a->approx += approx;
			/* A spin that ran out, and the release right after it: the
			 * releaser may have waited for the spinner's CPU. */
			if (loop && outcome == ST_SPIN_OUTCOME_GAVE_UP) {
				int near = (uint64_t)(w - lp_end) <= near_ns(spin);
				a->ran_out++;
				a->ran_out_near += near;
				r->ran_out++;
				r->ran_out_near += near;
			}
			if (sleeps == 1) {
				sa_dist_add(&a->wake_ns, ns - free_ns);
				sa_dist_add(&r->wake_ns, ns - free_ns);
			}
		}
	} else if (loop && outcome == ST_SPIN_OUTCOME_ACQUIRED && lp_end <= now) {
		free_ns = (uint64_t)(lp_end - start);
		grace = free_ns > spin ? free_ns - spin : 0;
	}
	sa_dist_add(&a->free_ns, free_ns);
	a->rec_spun += !sleeps;
	a->rec_sleeps += sleeps;
	a->rec_spin_ns += spin;
	a->rec_wait_ns += ns;
	struct sa_sr_pred *p = a->p[a->waits++ & 1];
	int mult = handoff(k) ? SA_SR_HANDOFF : 1, dflt = default_spins(m, oi, k);
	double pause = pause_ns(r);
	/* Spinning that reaches F. A wait that slept was released after it
	 * began to sleep, whatever the two threads' times say (a wake stamped
	 * before the sleep by a few µs: their CPUs' clocks), so it needs some
	 * spin: a setting that does not spin sleeps it, as it was recorded. */
	uint64_t need = free_ns > grace ? free_ns - grace : sleeps ? 1 : 0;
	/* Hand-off waits adapt per object, relocks per thread (wait.h). */
	int *hint = handoff(k) ? ro->misses : k == SA_WAIT_COND_RELOCK ? rt->relock_misses : NULL;
	int max = handoff(k) ? SR_HANDOFF_MISSES : SR_RELOCK_MISSES;
	/* Once spins are seen holding their releasers off, here or on any
	 * object (the CPUs are what they share), a spin never reaches the
	 * release: the release follows the spin's end. */
	int held_off = interferes(a->ran_out, a->ran_out_near) ||
		       interferes(r->ran_out, r->ran_out_near);
	a->held_off += held_off;
	for (unsigned s = 0; s < SA_SR_N; s++) {
		uint64_t t = budget_ns(s, mult, dflt, others > 0, pause);
		int spins = !hint || adaptive_spins(&hint[s], max), res;
		if (!spins)
			t = 0;
		if (held_off && t) {
			res = ST_SPIN_OUTCOME_GAVE_UP;
			p[s].spin_ns += t;
			if (sleeps) {
				p[s].sleeps += sleeps;
				p[s].wait_ns += ns + (t > spin ? t - spin : 0);
			} else {
				p[s].sleeps++;
				p[s].wait_ns += free_ns + t;
				p[s].added++;
			}
		} else if (need <= t) {
			res = ST_SPIN_OUTCOME_ACQUIRED;
			p[s].spun++;
			p[s].spin_ns += need;
			p[s].wait_ns += free_ns;
		} else {
			res = t ? ST_SPIN_OUTCOME_GAVE_UP : ST_SPIN_OUTCOME_NOT;
			p[s].spin_ns += t;
			if (sleeps) {
				p[s].sleeps += sleeps;
				p[s].wait_ns += ns;
			} else {
				p[s].sleeps++;
				p[s].wait_ns += free_ns;
				p[s].added++;
			}
		}
		if (hint)
			adaptive_done(&hint[s], max, res);
	}
}

void sa_spin_replay_feed(struct sa_model *m, const struct sa_event *e, uint32_t ti)
{
	uint64_t addr;
	uint32_t oi = 0;
	int id = e->id;
	/* Wakes: the futex layer's, and a condvar's signaled (stamped before
	 * its futex wake, which may come after the waiter is gone). */
	int fx = id == SA_EV_futex_wait || id == SA_EV_futex_wake || id == SA_EV_futex_requeue ||
		 id == SA_EV_cond_signaled;
	if (!fx && id != SA_EV_spin_loop && !m->ev_wait.valid && !m->threads[ti].waiting &&
	    !(m->replay && ti < m->replay->nt && m->replay->t[ti].begun))
		return;
	if (fx || id == SA_EV_spin_loop) {
		if (!sa_ev_obj(e, &addr) || !sa_model_object(m, e, addr, &oi))
			return;
	}
	struct sa_spin_replay *r = replay_of(m, ti);
	if (!r)
		return;
	struct sr_thread *rt = &r->t[ti];
	const struct sa_thread *t = &m->threads[ti];
	if (id == SA_EV_spin_loop) {
		int64_t it = e->f[SA_F_spin_loop_iterations].v, ns = e->f[SA_F_spin_loop_spin_ns].v;
		if (it >= 16 && ns > 0) {
			r->pause_it += (uint64_t)it;
			r->pause_ns += (uint64_t)ns;
		}
		if (rt->lp_addr != addr) {
			rt->lp_addr = addr;
			rt->lp_end = e->ts;
			rt->lp_outcome = (int)e->f[SA_F_spin_loop_outcome].v;
			rt->lp_ns = 0;
		}
		rt->lp_ns += ns > 0 ? (uint64_t)ns : 0;
	} else if (id == SA_EV_futex_wait) {
		if (e->f[SA_F_futex_wait_result].v != R_EAGAIN) {
			int64_t slept = e->f[SA_F_futex_wait_slept_ns].v;
			if (rt->fx_addr != addr) {
				rt->fx_addr = addr;
				rt->fx_n = 0;
				rt->fx_first = e->ts - (slept > 0 ? slept : 0);
			}
			rt->fx_n++;
		}
	} else if (fx) {
		struct sr_obj *ro = obj_of(m, r, oi);
		if (!ro)
			return;
		ro->ring[ro->nwakes % SR_RING].ts = e->ts;
		ro->ring[ro->nwakes % SR_RING].ti = ti;
		ro->nwakes++;
	}
	/* A wait ended: replay it (the begin bookkeeping first, for its end). */
	if (m->ev_wait.valid)
		replay(m, r, e->ts);
	if (t->waiting && !(rt->begun && rt->begin_oi == t->wait_obj &&
			    rt->begin_ts == t->wait_begin)) {
		struct sr_obj *ro = obj_of(m, r, t->wait_obj);
		if (!ro)
			return;
		if (rt->begun && rt->begin_oi < r->no && r->o[rt->begin_oi])
			r->o[rt->begin_oi]->waiting -= r->o[rt->begin_oi]->waiting > 0;
		rt->begun = 1;
		rt->begin_oi = t->wait_obj;
		rt->begin_ts = t->wait_begin;
		rt->others = ro->waiting++;
	}
}

static void obj_free(struct sr_obj *ro)
{
	if (!ro)
		return;
	for (struct sa_sr_acc *a = ro->acc, *n; a; a = n) {
		n = a->next;
		sa_dist_free(&a->free_ns);
		sa_dist_free(&a->wake_ns);
		free(a);
	}
	free(ro);
}

#define SR_ADD(f) d->f += a->f;
#define SR_ADD_EV(f) ev->f += a->f;

void sa_spin_replay_fold(struct sa_model *m, uint32_t ci, uint32_t oi)
{
	struct sa_spin_replay *r = m->replay;
	if (!r || oi >= r->no || !r->o[oi])
		return;
	struct sr_obj *src = r->o[oi], *dst = src->acc ? obj_of(m, r, ci) : NULL;
	for (struct sa_sr_acc *a = src->acc; a && dst; a = a->next) {
		struct sa_sr_acc *d = acc_of(m, dst, ci, a->kind);
		if (!d)
			break;
		SA_SR_COUNTERS(SR_ADD)
		if (sa_dist_merge(&d->free_ns, &a->free_ns) || sa_dist_merge(&d->wake_ns, &a->wake_ns))
			m->oom = 1;
		for (unsigned h = 0; h < 2; h++)
			for (unsigned s = 0; s < SA_SR_N; s++) {
				struct sa_sr_pred *x = &d->p[h][s];
				const struct sa_sr_pred *y = &a->p[h][s];
				x->spun += y->spun;
				x->sleeps += y->sleeps;
				x->spin_ns += y->spin_ns;
				x->wait_ns += y->wait_ns;
				x->added += y->added;
			}
	}
	obj_free(src);
	r->o[oi] = NULL;
}

void sa_spin_replay_free(struct sa_spin_replay *r)
{
	if (!r)
		return;
	for (uint32_t i = 0; i < r->no; i++)
		obj_free(r->o[i]);
	sa_dist_free(&r->wake_ns);
	free(r->t);
	free(r->o);
	free(r);
}

const struct sa_sr_acc *sa_spin_replay_accs(const struct sa_model *m, uint32_t oi)
{
	return m->replay && oi < m->replay->no && m->replay->o[oi] ? m->replay->o[oi]->acc : NULL;
}

double sa_spin_replay_pause_ns(const struct sa_model *m)
{
	const struct sa_spin_replay *r = m->replay;
	return r && r->pause_it ? (double)r->pause_ns / (double)r->pause_it : 0;
}

static void add_pred(struct sa_sr_total *t, const struct sa_sr_pred *p, uint64_t wake)
{
	t->spun += p->spun;
	t->sleeps += p->sleeps;
	t->spin_ns += p->spin_ns;
	t->wait_ns += p->wait_ns + p->added * wake;
}

static unsigned best_of(const struct sa_sr_total *s)
{
	unsigned b = 0;
	for (unsigned i = 1; i < SA_SR_N; i++)
		if (s[i].score < s[b].score)
			b = i;
	return b;
}

static void score(struct sa_sr_total *s)
{
	for (unsigned i = 0; i < SA_SR_N; i++)
		s[i].score = (double)s[i].wait_ns + (double)s[i].spin_ns;
}

/* Do a and b predict the same waits spinning and sleeping (and, with
 * cpu, the same spinning time)? */
static int same(const struct sa_sr_total *a, const struct sa_sr_total *b, int cpu)
{
	return a->spun == b->spun && a->sleeps == b->sleeps && (!cpu || a->spin_ns == b->spin_ns);
}

/* The setting the trace's first process ran with, as a replayed setting
 * (-1: not on the ladder, or unknown). Unset is told from an explicit
 * bail:100 by its mutexes when only adaptive ones spun (the default
 * before 2026-12-01); when every mutex spins the two replay alike. */
static int recorded_setting(const struct sa_model *m)
{
	for (uint32_t i = 0; i < m->nprocs; i++) {
		const struct sa_proc *p = &m->procs[i];
		if (!p->have_start)
			continue;
		if (p->spin_mode == ST_SPIN_MODE_NONE)
			return SA_SR_NONE;
		if (p->have_mutex_spin && !p->all_mutexes_spin && p->spin_mode == ST_SPIN_MODE_BAIL &&
		    p->spin_limit == SA_SR_DEFAULT_COUNT)
			return SA_SR_DEFAULT;
		for (unsigned k = 0; k < SA_SR_RUNGS; k++)
			if (p->spin_limit == SA_SR_COUNT0 << k)
				return (int)((p->spin_mode == ST_SPIN_MODE_FULL ? SA_SR_FULL0 : SA_SR_BAIL0) + k);
		return -1;
	}
	return -1;
}

void sa_spin_replay_eval(const struct sa_model *m,
			 int (*want)(const struct sa_sr_acc *a, void *ctx), void *ctx,
			 struct sa_sr_eval *ev)
{
	const struct sa_spin_replay *r = m->replay;
	struct sa_sr_total half[2][SA_SR_N];
	struct sa_dist lat = { 0 };
	memset(ev, 0, sizeof(*ev));
	memset(half, 0, sizeof(half));
	if (!r)
		return;
	uint64_t all_wake = r->wake_ns.n ? sa_dist_pct(&r->wake_ns, 0.5) : SA_SR_WAKE_NS;
	for (uint32_t oi = 0; oi < r->no; oi++)
		for (const struct sa_sr_acc *a = r->o[oi] ? r->o[oi]->acc : NULL; a; a = a->next) {
			if (want && !want(a, ctx))
				continue;
			SA_SR_COUNTERS(SR_ADD_EV)
			if (a->free_ns.n && a->free_ns.max > ev->free_max_ns)
				ev->free_max_ns = a->free_ns.max;
			(void)sa_dist_merge(&lat, &a->wake_ns); /* out of memory: fewer samples */
			uint64_t wake = a->wake_ns.n ? sa_dist_pct(&a->wake_ns, 0.5) : all_wake;
			for (unsigned h = 0; h < 2; h++)
				for (unsigned s = 0; s < SA_SR_N; s++) {
					add_pred(&ev->s[s], &a->p[h][s], wake);
					add_pred(&half[h][s], &a->p[h][s], wake);
				}
		}
	ev->wake_ns = lat.n ? sa_dist_pct(&lat, 0.5) : all_wake;
	ev->wake_assumed = !lat.n && !r->wake_ns.n;
	sa_dist_free(&lat);
	score(ev->s);
	score(half[0]);
	score(half[1]);
	/* Loaded: no more spinning than the default on the replay's word. */
	ev->overloaded = !ev->wake_assumed && ev->wake_ns > SA_SR_OVERLOAD_NS;
	if (ev->overloaded)
		for (unsigned s = 0; s < SA_SR_N; s++)
			if (ev->s[s].spin_ns > ev->s[SA_SR_DEFAULT].spin_ns)
				ev->s[s].score = INFINITY;
	ev->best = best_of(ev->s);
	const struct sa_sr_total *d = &ev->s[SA_SR_DEFAULT];
	const struct sa_sr_total *b = &ev->s[ev->best];
	/* The best, if it beats the default by the margin, or dominates it:
	 * no more waiting or futex waits, and at most half its spinning. */
	int dominates = b->wait_ns <= d->wait_ns && b->sleeps <= d->sleeps && d->spin_ns &&
			b->spin_ns * 2 <= d->spin_ns;
	ev->rec = d->score > b->score * (1 + SA_SR_MARGIN) || dominates ? ev->best : SA_SR_DEFAULT;
	ev->gain = d->score > 0 ? 1 - ev->s[ev->rec].score / d->score : 0;
	ev->second = ev->best;
	for (unsigned s = 0; s < SA_SR_N; s++)
		if (!same(&ev->s[s], &ev->s[ev->best], 1) &&
		    isfinite(ev->s[s].score) &&
		    (ev->second == ev->best || ev->s[s].score < ev->s[ev->second].score))
			ev->second = s;
	ev->gap = ev->second != ev->best && ev->s[ev->best].score > 0
			  ? ev->s[ev->second].score / ev->s[ev->best].score - 1
			  : 0;
	int agree = 1;
	for (unsigned h = 0; h < 2; h++) {
		ev->best_half[h] = best_of(half[h]);
		if (half[h][ev->rec].score > half[h][ev->best_half[h]].score * (1 + SA_SR_MARGIN))
			agree = 0;
	}
	ev->agree = agree;
	ev->recorded = recorded_setting(m);
	ev->reproduces = 1;
	if (ev->recorded >= 0) {
		uint64_t p = ev->s[ev->recorded].sleeps, q = ev->rec_sleeps, d = p > q ? p - q : q - p;
		ev->reproduces = d <= 5 || d * 10 <= q;
	}
	int sound = agree && ev->reproduces && !ev->overloaded;
	ev->confidence = sound && ev->waits >= 1000 ? "high" : sound && ev->waits >= 100 ? "medium"
											 : "low";
	/* The last rung that spins or sleeps a wait otherwise than the one
	 * before (beyond it a longer budget only costs CPU). */
	for (ev->last_rung = SA_SR_RUNGS - 1; ev->last_rung > 0; ev->last_rung--) {
		unsigned k = ev->last_rung;
		if (!same(&ev->s[SA_SR_BAIL0 + k - 1], &ev->s[SA_SR_BAIL0 + k], 0) ||
		    !same(&ev->s[SA_SR_FULL0 + k - 1], &ev->s[SA_SR_FULL0 + k], 0))
			break;
	}
}
