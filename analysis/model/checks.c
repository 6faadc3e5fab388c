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

/* An exited thread of process pi named as a mutex's owner. */
static void owner_exited(struct sa_checks *c, const struct sa_model *m, const struct sa_event *e,
			 uint32_t pi, uint32_t oi, int64_t owner)
{
	if (owner <= 0 || m->procs[pi].level < 2)
		return;
	int64_t t = sa_map_get(&m->thread_map, pi, (uint64_t)(uint32_t)owner);
	if (t < 0 || !m->threads[t].exited)
		return;
	struct sa_finding *f = sa_checks_add(c, SA_CHK_EXIT_HOLDING, pi, e->ts, &oi, 1,
					     sa_ev_caller(e));
	if (!f)
		return;
	add_tid(f, (int32_t)owner);
	add_tid(f, e->vtid);
	snprintf(f->detail, sizeof(f->detail),
		 "thread %d ended while holding mutex 0x%llx: thread %d later found it still "
		 "owned by %d",
		 (int)owner, (unsigned long long)m->objs[oi].addr, (int)e->vtid, (int)owner);
}

static void on_mutex(struct sa_checks *c, struct sa_model *m, const struct sa_event *e,
		     uint32_t pi, uint32_t ti)
{
	uint64_t addr;
	int64_t oi = sa_ev_obj(e, &addr) ? obj_at(m, pi, addr) : -1;
	if (oi < 0 || m->objs[oi].type != SA_OBJ_MUTEX)
		return;
	uint32_t o = (uint32_t)oi;
	uint64_t caller = sa_ev_caller(e);
	unsigned long long a = (unsigned long long)m->objs[o].addr;
	struct sa_chk_thread *t = thread_of(c, ti);
	if (!t)
		return;
	switch (e->id) {
	case SA_EV_mutex_misuse: {
		int64_t what = e->f[SA_F_mutex_misuse_what].v, owner = e->f[SA_F_mutex_misuse_owner].v;
		static const enum sa_check k[] = { SA_CHK_N, SA_CHK_UNLOCK_NOT_OWNER,
			SA_CHK_UNLOCK_UNLOCKED, SA_CHK_DESTROY_LOCKED, SA_CHK_SELF_DEADLOCK,
			SA_CHK_USE_DESTROYED };
		if (what < 1 || what > 5)
			return;
		if (what != 4)
			owner_exited(c, m, e, pi, o, owner);
		struct sa_finding *f = sa_checks_add(c, k[what], pi, e->ts, &o, 1, caller);
		if (!f)
			return;
		add_tid(f, e->vtid);
		if (owner > 0 && owner != e->vtid)
			add_tid(f, (int32_t)owner);
		switch (what) {
		case 1:
			snprintf(f->detail, sizeof(f->detail),
				 "thread %d unlocked mutex 0x%llx held by thread %d", (int)e->vtid, a,
				 (int)owner);
			break;
		case 2:
			snprintf(f->detail, sizeof(f->detail),
				 "thread %d unlocked mutex 0x%llx, which was not locked", (int)e->vtid, a);
			break;
		case 3:
			snprintf(f->detail, sizeof(f->detail),
				 "thread %d destroyed mutex 0x%llx while thread %d held it (EBUSY)",
				 (int)e->vtid, a, (int)owner);
			break;
		case 4:
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
		owner_exited(c, m, e, pi, o,
			     e->f[e->id == SA_EV_mutex_requested ? SA_F_mutex_requested_owner
								 : SA_F_mutex_trylock_failed_owner].v);
		break;
	case SA_EV_mutex_acquired: {
		int64_t how = e->f[SA_F_mutex_acquired_how].v;
		if (how != 1 && how != 2)
			break;
		unsigned i = t->nheld < SA_CHK_HELD ? t->nheld++ : SA_CHK_HELD - 1;
		t->held[i].obj = o;
		t->held[i].ts = e->ts;
		t->held[i].caller = caller;
		break;
	}
	case SA_EV_mutex_released: {
		struct sa_hold h = { .obj = o, .rel = e->ts, .rel_caller = caller };
		int found = -1;
		for (unsigned i = 0; i < t->nheld; i++)
			if (t->held[i].obj == o)
				found = (int)i;
		if (found >= 0) {
			h.acq = t->held[found].ts;
			h.acq_caller = t->held[found].caller;
			t->held[found] = t->held[--t->nheld];
		}
		int64_t how = -1;
		if (sa_ev_at(e, SA_F_mutex_released_acq_how, &how))
			h.trylock = how == 3;
		if (m->ev_hold.valid && m->ev_hold.ns > 0) /* the model read it (mutex.c) */
			h.acq = e->ts - (int64_t)m->ev_hold.ns;
		else if (found < 0)
			break; /* no hold known (contention level, fast path) */
		if (m->procs[pi].level >= 2)
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
	if (!t || m->procs[pi].level < 2)
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
	t->nheld = 0;
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
	if ((mode & (what == 1 ? 1 : 2)) && mode == 3)
		snprintf(setting, sizeof(setting), "init:%d", p->sem_max);
	else if ((mode & (what == 1 ? 1 : 2)) && mode == 2)
		snprintf(setting, sizeof(setting), "%d", p->sem_max);
	else
		snprintf(setting, sizeof(setting), "%s", what == 1 ? "init" : "N");
	snprintf(f->detail, sizeof(f->detail),
		 "thread %d posted semaphore 0x%llx up to %lld, above %s %lld "
		 "(SYNCTRACE_SEM_MAX=%s)",
		 (int)e->vtid, (unsigned long long)m->objs[o].addr, (long long)value,
		 what == 1 ? "its initial value" : "the limit", (long long)limit, setting);
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
		on_mutex(c, m, e, pi, ti);
		break;
	case SA_EV_thread_exit:
		on_thread_exit(c, m, e, pi, ti);
		break;
	case SA_EV_cond_misuse: {
		int64_t what = e->f[SA_F_cond_misuse_what].v;
		if (what == 1) {
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
		} else if (what == 2) {
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
		if (what == 1)
			simple(c, m, e, pi, SA_CHK_SELF_DEADLOCK,
			       "thread %d locked %s 0x%llx, which it holds for writing "
			       "(EDEADLK)%.0lld", 0);
		else if (what == 2)
			simple(c, m, e, pi, SA_CHK_UNLOCK_UNLOCKED,
			       "thread %d unlocked %s 0x%llx, which was not locked%.0lld", 0);
		else if (what == 3)
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
	free(c);
}
