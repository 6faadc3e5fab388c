/* synctrace_thread: which threads began and ended inside the trace. */
#include <string.h>

#include "sa_model.h"

/* The times of the thread's life: what it used before its announcement
 * (have_base) taken off (at 0 if less: the two reads may differ by a
 * slice, schedstat's lagging the clock's). */
void sa_thread_times(struct sa_thread *t, const struct sa_event *e, int cpu_field, int runq_field)
{
	int64_t v;
	if (!sa_ev_at(e, cpu_field, &v) || v <= 0)
		return;
	uint64_t base = t->have_base ? t->base_cpu : 0;
	t->cpu_ns = (uint64_t)v > base ? (uint64_t)v - base : 0, t->have_cpu = 1;
	t->have_runq = 0;
	if (sa_ev_at(e, runq_field, &v) && v >= 0 && (!t->have_base || t->base_runq >= 0)) {
		int64_t rb = t->have_base ? t->base_runq : 0;
		t->runq_ns = v > rb ? (uint64_t)(v - rb) : 0, t->have_runq = 1;
	}
}

/* A thread's base: the latest announcement's before its first event, its
 * life in the trace begun there; for a thread seen before any (the first
 * announcement lost: its repeat's), the first that comes, which may take
 * off a little of its own (what it used since its first event). */
static void set_base(struct sa_thread *t, const struct sa_base *b)
{
	if (t->started || t->have_cpu || t->have_base)
		return; /* (born in the trace, or its times already said) */
	t->have_base = 1;
	t->base_cpu = b->cpu;
	t->base_runq = b->runq;
	if (b->ts < t->first_ts)
		t->first_ts = b->ts; /* (alive since the announcement) */
}

void sa_thread_base(struct sa_model *m, uint32_t pi, const struct sa_event *e)
{
	int64_t tid = e->f[SA_F_meta_base_tid].v, cpu, runq;
	if (tid <= 0 || !sa_ev_at(e, SA_F_meta_base_cpu_ns, &cpu))
		return;
	struct sa_base b = { e->ts, cpu > 0 ? (uint64_t)cpu : 0,
			     sa_ev_at(e, SA_F_meta_base_runq_ns, &runq) && runq >= 0 ? runq : -1 };
	int64_t i = sa_map_get(&m->thread_map, pi, (uint32_t)tid);
	if (i >= 0) {
		set_base(&m->threads[i], &b);
		return;
	}
	/* not seen yet: the latest kept for its first event */
	int64_t k = sa_map_get(&m->base_map, pi, (uint32_t)tid);
	if (k < 0) {
		if (sa_grow((void **)&m->bases, m->nbases, &m->capbases, sizeof(*m->bases)) ||
		    sa_map_put(&m->base_map, pi, (uint32_t)tid, m->nbases)) {
			m->oom = 1;
			return;
		}
		k = m->nbases++;
	}
	m->bases[k] = b;
}

void sa_thread_take_base(struct sa_model *m, struct sa_thread *t, const struct sa_event *e)
{
	int64_t k = sa_map_get(&m->base_map, t->proc, (uint32_t)t->vtid);
	if (k < 0)
		return;
	sa_map_del(&m->base_map, t->proc, (uint32_t)t->vtid);
	if (e->id != SA_EV_thread_start && m->bases[k].ts <= e->ts)
		set_base(t, &m->bases[k]);
}

static void thread_event(struct sa_model *m, const struct sa_event *e)
{
	uint32_t ti;
	struct sa_thread *t = sa_model_thread(m, e, &ti);
	if (!t)
		return;
	if (e->id == SA_EV_thread_start) {
		t->started = 1;
	} else if (e->id == SA_EV_thread_name) {
		/* A thread named itself (tid != 0): that thread's name. A name
		 * given to another thread (tid 0, by pthread_t) cannot be tied to
		 * a tid; the procname context shows it on that thread's events. */
		const char *name = sa_ev_str(e, "name");
		int64_t tid = e->f[SA_F_thread_name_tid].v;
		if (name && tid > 0 && tid == t->vtid) {
			strncpy(t->procname, name, SA_NAME_MAX - 1);
			t->procname[SA_NAME_MAX - 1] = 0;
			t->named = 1;
		}
	} else if (e->id == SA_EV_thread_exit) {
		t->exited = 1;
		t->cancelled = e->f[SA_F_thread_exit_cancelled].v != 0;
		sa_thread_times(t, e, SA_F_thread_exit_cpu_ns, SA_F_thread_exit_runq_ns);
		t->woken_valid = 0;
	} else if (e->id == SA_EV_thread_times) {
		/* another thread's, alive at the process's exit: to that thread
		 * if it has events of its own (not the tracer's threads) */
		uint32_t pi = t->proc;
		int64_t i = sa_map_get(&m->thread_map, pi,
				       (uint32_t)e->f[SA_F_thread_times_tid].v);
		if (i >= 0 && !m->threads[i].exited) {
			if (!m->threads[i].have_cpu)
				sa_thread_times(&m->threads[i], e, SA_F_thread_times_cpu_ns,
						SA_F_thread_times_runq_ns);
			/* (alive until now: its life, which its CPU time is
			 * a share of, runs to the exit) */
			if (e->ts > m->threads[i].last_ts)
				m->threads[i].last_ts = e->ts;
		}
	}
}

const struct sa_family sa_family_thread = { .name = "thread", .event = thread_event };
