/* Debug checks from the misuse events and the holds (sa_checks.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa_checks.h"

const char *sa_check_name(enum sa_check c)
{
	static const char *const n[SA_CHK_N] = {
		"unlock_not_owner", "unlock_unlocked", "destroy_locked", "destroy_waited",
		"cond_two_mutexes", "self_deadlock", "use_after_destroy", "exit_holding",
		"lock_order", "sem_over_max",
	};
	return (unsigned)c < SA_CHK_N ? n[c] : "unknown";
}

/* A finding; the same check on the same objects from the same call site
 * only counts again. NULL when it was only counted (or dropped). */
struct sa_finding *sa_checks_add(struct sa_checks *c, enum sa_check k, uint32_t proc,
				 int64_t ts, const uint32_t *objs, unsigned nobj,
				 uint64_t caller)
{
	if (nobj > SA_CHK_MAXOBJ)
		nobj = SA_CHK_MAXOBJ;
	for (uint32_t i = 0; i < c->nfindings; i++) {
		struct sa_finding *f = &c->findings[i];
		if (f->check == k && f->proc == proc && f->nobj == nobj &&
		    !memcmp(f->obj, objs, nobj * sizeof(*objs)) &&
		    (k == SA_CHK_LOCK_ORDER || k == SA_CHK_EXIT_HOLDING ||
		     (f->ncaller && f->caller[0] == caller))) {
			if (k != SA_CHK_LOCK_ORDER && k != SA_CHK_EXIT_HOLDING)
				f->count++;
			return NULL;
		}
	}
	if (c->nfindings >= SA_CHK_MAX_FINDINGS) {
		c->dropped++;
		return NULL;
	}
	if (c->nfindings == c->capfindings) {
		uint32_t cap = c->capfindings ? c->capfindings * 2 : 16;
		struct sa_finding *p = realloc(c->findings, cap * sizeof(*p));
		if (!p) {
			c->oom = 1;
			return NULL;
		}
		c->findings = p;
		c->capfindings = cap;
	}
	struct sa_finding *f = &c->findings[c->nfindings++];
	memset(f, 0, sizeof(*f));
	f->check = k;
	f->proc = proc;
	f->ts = ts;
	f->count = 1;
	f->nobj = nobj;
	memcpy(f->obj, objs, nobj * sizeof(*objs));
	if (caller)
		f->caller[f->ncaller++] = caller;
	return f;
}

static struct sa_chk_thread *thread_of(struct sa_checks *c, uint32_t ti)
{
	if (ti >= c->nthreads) {
		uint32_t n = ti + 16;
		struct sa_chk_thread *p = realloc(c->threads, n * sizeof(*p));
		if (!p) {
			c->oom = 1;
			return NULL;
		}
		memset(p + c->nthreads, 0, (n - c->nthreads) * sizeof(*p));
		c->threads = p;
		c->nthreads = n;
	}
	return &c->threads[ti];
}

static void add_tid(struct sa_finding *f, int32_t tid)
{
	for (unsigned i = 0; i < f->ntid; i++)
		if (f->tid[i] == tid)
			return;
	if (f->ntid < SA_CHK_MAXOBJ)
		f->tid[f->ntid++] = tid;
}

static const char *what_name(const struct sa_model *m, uint32_t oi)
{
	return sa_obj_type_name(m->objs[oi].type);
}

/* The model's current object at addr in process pi (-1 if none). */
static int64_t obj_at(const struct sa_model *m, uint32_t pi, uint64_t addr)
{
	return sa_map_get(&m->obj_map, pi, addr);
}

/* Thread `owner` of process pi had exited when thread vtid found mutex oi
 * still owned by it. */
static void report_owner_exited(struct sa_checks *c, const struct sa_model *m, uint32_t pi,
				uint32_t oi, int32_t owner, int32_t vtid, int64_t ts,
				uint64_t caller)
{
	struct sa_finding *f = sa_checks_add(c, SA_CHK_EXIT_HOLDING, pi, ts, &oi, 1, caller);
	if (!f)
		return;
	add_tid(f, owner);
	add_tid(f, vtid);
	snprintf(f->detail, sizeof(f->detail),
		 "thread %d ended while holding mutex 0x%llx: thread %d later found it still "
		 "owned by %d",
		 (int)owner, (unsigned long long)m->objs[oi].addr, (int)vtid, (int)owner);
}

/* Is `owner` an exited thread of process pi (at the full level)? */
static int exited_owner(const struct sa_model *m, uint32_t pi, int64_t owner)
{
	if (owner <= 0 || m->procs[pi].level < ST_META_LEVEL_FULL)
		return 0;
	int64_t t = sa_map_get(&m->thread_map, pi, (uint64_t)(uint32_t)owner);
	return t >= 0 && m->threads[t].exited;
}

/* An exited thread named as a mutex's owner by a misuse event. */
static void owner_exited(struct sa_checks *c, const struct sa_model *m, const struct sa_event *e,
			 uint32_t pi, uint32_t oi, int64_t owner)
{
	if (exited_owner(m, pi, owner))
		report_owner_exited(c, m, pi, oi, (int32_t)owner, e->vtid, e->ts, sa_ev_caller(e));
}

static void flush_suspect(struct sa_checks *c, const struct sa_model *m, struct sa_chk_thread *t)
{
	if (t->suspect.set)
		report_owner_exited(c, m, t->suspect.pi, t->suspect.obj, t->suspect.owner,
				    t->suspect.vtid, t->suspect.ts, t->suspect.caller);
	t->suspect.set = 0;
}

void sa_checks_flush_suspects(struct sa_checks *c, const struct sa_model *m)
{
	for (uint32_t i = 0; i < c->nthreads; i++)
		flush_suspect(c, m, &c->threads[i]);
}

/* A requested/trylock_failed event named an exited owner: pending until
 * the thread acquires the mutex (then the owner had released it). */
static void suspect_owner_exited(struct sa_checks *c, const struct sa_model *m,
				 const struct sa_event *e, uint32_t pi, struct sa_chk_thread *t,
				 uint32_t oi, int64_t owner)
{
	if (!exited_owner(m, pi, owner))
		return;
	flush_suspect(c, m, t);
	t->suspect.set = 1;
	t->suspect.pi = pi;
	t->suspect.obj = oi;
	t->suspect.owner = (int32_t)owner;
	t->suspect.vtid = e->vtid;
	t->suspect.ts = e->ts;
	t->suspect.caller = sa_ev_caller(e);
}

/* Entry i of t's held mutexes is gone (released, or shown stale). */
static void drop_held(struct sa_checks *c, uint32_t pi, uint32_t ti, struct sa_chk_thread *t,
		      unsigned i)
{
	uint64_t addr = t->held[i].addr;
	t->held[i] = t->held[--t->nheld];
	if (sa_map_get(&c->holder_map, pi, addr) == (int64_t)ti)
		sa_map_del(&c->holder_map, pi, addr);
}

/* The mutex at addr is owned by thread ti (or, ti = UINT32_MAX, free: a
 * destroy succeeded). A mutex has one owner, so another thread's held
 * entry for it is stale: that thread's release was stamped after these
 * events (an unlock emits its event after the swap and the futex wake,
 * so the next owner's acquire, release and destroy can come first). */
static void forget_other_holder(struct sa_checks *c, uint32_t pi, uint64_t addr, uint32_t ti)
{
	int64_t h = sa_map_get(&c->holder_map, pi, addr);
	if (h < 0 || (uint32_t)h == ti || (uint32_t)h >= c->nthreads)
		return;
	struct sa_chk_thread *t = &c->threads[h];
	for (unsigned i = t->nheld; i-- > 0;)
		if (t->held[i].addr == addr)
			drop_held(c, pi, (uint32_t)h, t, i);
	sa_map_del(&c->holder_map, pi, addr);
}

static void on_mutex(struct sa_checks *c, struct sa_model *m, const struct sa_event *e,
		     uint32_t pi, uint32_t ti)
{
	uint64_t addr;
	if (!sa_ev_obj(e, &addr))
		return;
	if (e->id == SA_EV_mutex_destroy) {
		if (e->f[SA_F_mutex_destroy_result].v == 0)
			forget_other_holder(c, pi, addr, UINT32_MAX);
		return;
	}
	if (e->id == SA_EV_mutex_released ||
	    (e->id == SA_EV_mutex_acquired && (e->f[SA_F_mutex_acquired_how].v == 1 ||
					       e->f[SA_F_mutex_acquired_how].v == 2)))
		forget_other_holder(c, pi, addr, ti);
	int64_t oi = obj_at(m, pi, addr);
	if (oi < 0 || m->objs[oi].type != SA_OBJ_MUTEX) {
		/* Not a mutex the model knows (a late event for a folded
		 * instance): still this thread's release of what it held. */
		struct sa_chk_thread *t = e->id == SA_EV_mutex_released ? thread_of(c, ti) : NULL;
		for (unsigned i = t ? t->nheld : 0; i-- > 0;)
			if (t->held[i].addr == addr)
				drop_held(c, pi, ti, t, i);
		return;
	}
	uint32_t o = (uint32_t)oi;
	uint64_t caller = sa_ev_caller(e);
	unsigned long long a = (unsigned long long)m->objs[o].addr;
	struct sa_chk_thread *t = thread_of(c, ti);
	if (!t)
		return;
	switch (e->id) {
	case SA_EV_mutex_misuse: {
		int64_t what = e->f[SA_F_mutex_misuse_what].v, owner = e->f[SA_F_mutex_misuse_owner].v;
		static const enum sa_check k[ST_MUTEX_MISUSE_N] = {
			[ST_MUTEX_MISUSE_UNLOCK_NOT_OWNER] = SA_CHK_UNLOCK_NOT_OWNER,
			[ST_MUTEX_MISUSE_UNLOCK_UNLOCKED] = SA_CHK_UNLOCK_UNLOCKED,
			[ST_MUTEX_MISUSE_DESTROY_LOCKED] = SA_CHK_DESTROY_LOCKED,
			[ST_MUTEX_MISUSE_RELOCK_OWNER] = SA_CHK_SELF_DEADLOCK,
			[ST_MUTEX_MISUSE_USE_DESTROYED] = SA_CHK_USE_DESTROYED };
		if (what < 1 || what >= ST_MUTEX_MISUSE_N)
			return;
		if (what != ST_MUTEX_MISUSE_RELOCK_OWNER)
			owner_exited(c, m, e, pi, o, owner);
		struct sa_finding *f = sa_checks_add(c, k[what], pi, e->ts, &o, 1, caller);
		if (!f)
			return;
		add_tid(f, e->vtid);
		if (owner > 0 && owner != e->vtid)
			add_tid(f, (int32_t)owner);
		switch (what) {
		case ST_MUTEX_MISUSE_UNLOCK_NOT_OWNER:
			snprintf(f->detail, sizeof(f->detail),
				 "thread %d unlocked mutex 0x%llx held by thread %d", (int)e->vtid, a,
				 (int)owner);
			break;
		case ST_MUTEX_MISUSE_UNLOCK_UNLOCKED:
			snprintf(f->detail, sizeof(f->detail),
				 "thread %d unlocked mutex 0x%llx, which was not locked", (int)e->vtid, a);
			break;
		case ST_MUTEX_MISUSE_DESTROY_LOCKED:
			snprintf(f->detail, sizeof(f->detail),
				 "thread %d destroyed mutex 0x%llx while thread %d held it (EBUSY)",
				 (int)e->vtid, a, (int)owner);
			break;
		case ST_MUTEX_MISUSE_RELOCK_OWNER:
			snprintf(f->detail, sizeof(f->detail),
				 "thread %d locked normal mutex 0x%llx, which it already holds: "
				 "self-deadlock (it waits for itself)", (int)e->vtid, a);
			break;
		default:
			snprintf(f->detail, sizeof(f->detail),
				 "thread %d used mutex 0x%llx after it was destroyed (EINVAL)",
				 (int)e->vtid, a);
			break;
		}
		break;
	}
	case SA_EV_mutex_requested:
	case SA_EV_mutex_trylock_failed:
		suspect_owner_exited(c, m, e, pi, t, o,
				     e->f[e->id == SA_EV_mutex_requested
						  ? SA_F_mutex_requested_owner
						  : SA_F_mutex_trylock_failed_owner].v);
		break;
	case SA_EV_mutex_acquired: {
		int64_t how = e->f[SA_F_mutex_acquired_how].v;
		if (t->suspect.set && t->suspect.obj == o)
			t->suspect.set = 0; /* it was free after all: the owner had released it */
		if (how != 1 && how != 2)
			break;
		unsigned i = t->nheld < SA_CHK_HELD ? t->nheld++ : SA_CHK_HELD - 1;
		t->held[i].obj = o;
		t->held[i].addr = addr;
		t->held[i].ts = e->ts;
		t->held[i].caller = caller;
		sa_map_put(&c->holder_map, pi, addr, ti);
		break;
	}
	case SA_EV_mutex_released: {
		struct sa_hold h = { .obj = o, .rel = e->ts, .rel_caller = caller };
		int found = -1;
		for (unsigned i = 0; i < t->nheld; i++)
			if (t->held[i].obj == o || (found < 0 && t->held[i].addr == addr))
				found = (int)i;
		if (found >= 0) {
			h.acq = t->held[found].ts;
			h.acq_caller = t->held[found].caller;
			drop_held(c, pi, ti, t, (unsigned)found);
		}
		int64_t how = -1;
		if (sa_ev_at(e, SA_F_mutex_released_acq_how, &how))
			h.trylock = how == ST_MUTEX_HOW_TRYLOCK;
		if (m->ev_hold.valid && m->ev_hold.ns > 0) /* the model read it (mutex.c) */
			h.acq = e->ts - (int64_t)m->ev_hold.ns;
		else if (found < 0)
			break; /* no hold known (contention level, fast path) */
		if (m->procs[pi].level >= ST_META_LEVEL_FULL)
			sa_lockorder_release(c, m, pi, ti, &h);
		break;
	}
	default:
		break;
	}
}

static void on_thread_exit(struct sa_checks *c, struct sa_model *m, const struct sa_event *e,
			   uint32_t pi, uint32_t ti)
{
	struct sa_chk_thread *t = thread_of(c, ti);
	if (!t || m->procs[pi].level < ST_META_LEVEL_FULL)
		return;
	for (unsigned i = 0; i < t->nheld; i++) {
		uint32_t o = t->held[i].obj;
		struct sa_finding *f = sa_checks_add(c, SA_CHK_EXIT_HOLDING, pi, e->ts, &o, 1,
						     t->held[i].caller);
		if (!f)
			continue;
		add_tid(f, e->vtid);
		snprintf(f->detail, sizeof(f->detail),
			 "thread %d ended while holding mutex 0x%llx (locked at 0x%llx)",
			 (int)e->vtid, (unsigned long long)m->objs[o].addr,
			 (unsigned long long)t->held[i].caller);
	}
	while (t->nheld)
		drop_held(c, pi, ti, t, t->nheld - 1);
}

/* A finding with one object; fmt takes (tid, type, address, extra): a format
 * that has no use for `extra` ends in "%.0lld" with extra 0, which prints
 * nothing (a zero with precision 0). */
static void simple(struct sa_checks *c, struct sa_model *m, const struct sa_event *e,
		   uint32_t pi, enum sa_check k, const char *fmt, int64_t extra)
{
	uint64_t addr;
	int64_t oi = sa_ev_obj(e, &addr) ? obj_at(m, pi, addr) : -1;
	if (oi < 0)
		return;
	uint32_t o = (uint32_t)oi;
	struct sa_finding *f = sa_checks_add(c, k, pi, e->ts, &o, 1, sa_ev_caller(e));
	if (!f)
		return;
	add_tid(f, e->vtid);
	snprintf(f->detail, sizeof(f->detail), fmt, (int)e->vtid, what_name(m, o),
		 (unsigned long long)m->objs[o].addr, (long long)extra);
}

/* sem:misuse (SYNCTRACE_SEM_MAX): one finding per semaphore and call
 * site, whose sentence gives the highest count that site left. */
static void on_sem_over_max(struct sa_checks *c, struct sa_model *m, const struct sa_event *e,
			    uint32_t pi)
{
	uint64_t addr;
	int64_t oi = sa_ev_obj(e, &addr) ? obj_at(m, pi, addr) : -1;
	if (oi < 0)
		return;
	uint32_t o = (uint32_t)oi;
	uint64_t caller = sa_ev_caller(e);
	int64_t what = e->f[SA_F_sem_misuse_what].v, value = e->f[SA_F_sem_misuse_value].v;
	int64_t limit = e->f[SA_F_sem_misuse_limit].v;
	struct sa_finding *f = sa_checks_add(c, SA_CHK_SEM_OVER_MAX, pi, e->ts, &o, 1, caller);
	if (!f) {
		/* A repeat: the finding's count went up; keep its highest value. */
		for (uint32_t i = c->nfindings; i-- > 0;) {
			struct sa_finding *g = &c->findings[i];
			if (g->check == SA_CHK_SEM_OVER_MAX && g->proc == pi && g->obj[0] == o &&
			    g->ncaller && g->caller[0] == caller) {
				if (value > g->value)
					f = g;
				break;
			}
		}
		if (!f)
			return;
	}
	add_tid(f, e->vtid);
	f->value = value;
	const struct sa_proc *p = &m->procs[pi];
	/* The setting as the program gave it (meta:config), when it agrees. */
	char setting[32];
	int mode = p->have_config ? p->sem_max_mode : 0;
	int init = what == ST_SEM_MISUSE_ABOVE_INITIAL;
	int bit = init ? ST_META_SEM_MAX_INIT : ST_META_SEM_MAX_FIXED;
	if ((mode & bit) && mode == (ST_META_SEM_MAX_INIT | ST_META_SEM_MAX_FIXED))
		snprintf(setting, sizeof(setting), "init:%d", p->sem_max);
	else if ((mode & bit) && mode == ST_META_SEM_MAX_FIXED)
		snprintf(setting, sizeof(setting), "%d", p->sem_max);
	else
		snprintf(setting, sizeof(setting), "%s", init ? "init" : "N");
	snprintf(f->detail, sizeof(f->detail),
		 "thread %d posted semaphore 0x%llx up to %lld, above %s %lld "
		 "(SYNCTRACE_SEM_MAX=%s)",
		 (int)e->vtid, (unsigned long long)m->objs[o].addr, (long long)value,
		 init ? "its initial value" : "the limit", (long long)limit, setting);
}

static void observe(void *ctx, struct sa_model *m, const struct sa_event *e, uint32_t pi,
		    uint32_t ti)
{
	struct sa_checks *c = ctx;
	switch (e->id) {
	case SA_EV_mutex_misuse:
	case SA_EV_mutex_requested:
	case SA_EV_mutex_trylock_failed:
	case SA_EV_mutex_acquired:
	case SA_EV_mutex_released:
	case SA_EV_mutex_destroy:
		on_mutex(c, m, e, pi, ti);
		break;
	case SA_EV_thread_exit:
		on_thread_exit(c, m, e, pi, ti);
		break;
	case SA_EV_cond_misuse: {
		int64_t what = e->f[SA_F_cond_misuse_what].v;
		if (what == ST_COND_MISUSE_TWO_MUTEXES) {
			int64_t co = obj_at(m, pi, (uint64_t)e->f[SA_F_cond_misuse_cond].v);
			if (co < 0)
				break;
			uint32_t o = (uint32_t)co;
			struct sa_finding *f = sa_checks_add(c, SA_CHK_COND_TWO_MUTEXES, pi, e->ts,
							     &o, 1, (uint64_t)e->f[SA_F_cond_misuse_caller].v);
			if (!f)
				break;
			add_tid(f, e->vtid);
			snprintf(f->detail, sizeof(f->detail),
				 "thread %d waited on condvar 0x%llx with mutex 0x%llx while other "
				 "waiters used mutex 0x%llx",
				 (int)e->vtid, (unsigned long long)m->objs[o].addr,
				 (unsigned long long)e->f[SA_F_cond_misuse_mutex].v,
				 (unsigned long long)e->f[SA_F_cond_misuse_other].v);
		} else if (what == ST_COND_MISUSE_DESTROY_WAITERS) {
			simple(c, m, e, pi, SA_CHK_DESTROY_WAITED,
			       "thread %d destroyed %s 0x%llx while waiters were queued%.0lld", 0);
		}
		break;
	}
	case SA_EV_sem_destroy: {
		int64_t n = e->f[SA_F_sem_destroy_nwaiters].v;
		if (n > 0)
			simple(c, m, e, pi, SA_CHK_DESTROY_WAITED,
			       "thread %d destroyed %s 0x%llx while %lld waiters were registered", n);
		break;
	}
	case SA_EV_sem_misuse:
		on_sem_over_max(c, m, e, pi);
		break;
	case SA_EV_rwlock_misuse: {
		int64_t what = e->f[SA_F_rwlock_misuse_what].v;
		if (what == ST_RWLOCK_MISUSE_RELOCK_WRITER)
			simple(c, m, e, pi, SA_CHK_SELF_DEADLOCK,
			       "thread %d locked %s 0x%llx, which it holds for writing "
			       "(EDEADLK)%.0lld", 0);
		else if (what == ST_RWLOCK_MISUSE_UNLOCK_UNLOCKED)
			simple(c, m, e, pi, SA_CHK_UNLOCK_UNLOCKED,
			       "thread %d unlocked %s 0x%llx, which was not locked%.0lld", 0);
		else if (what == ST_RWLOCK_MISUSE_DESTROY_HELD)
			simple(c, m, e, pi, SA_CHK_DESTROY_LOCKED,
			       "thread %d destroyed %s 0x%llx while it was held or waited on "
			       "(writer %lld)", e->f[SA_F_rwlock_misuse_tid].v);
		break;
	}
	default:
		break;
	}
}

struct sa_checks *sa_checks_attach(struct sa_model *m)
{
	struct sa_checks *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	if (sa_model_observe(m, observe, c)) {
		free(c);
		return NULL;
	}
	return c;
}

void sa_checks_free(struct sa_checks *c)
{
	if (!c)
		return;
	free(c->threads);
	free(c->findings);
	free(c->edges);
	sa_map_free(&c->edge_map);
	sa_map_free(&c->holder_map);
	free(c);
}
