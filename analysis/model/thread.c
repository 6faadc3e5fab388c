/* synctrace_thread: which threads began and ended inside the trace. */
#include <string.h>

#include "sa_model.h"

void sa_thread_times(struct sa_thread *t, const struct sa_event *e, int cpu_field, int runq_field)
{
	int64_t v;
	if (!sa_ev_at(e, cpu_field, &v) || v <= 0)
		return;
	t->cpu_ns = (uint64_t)v, t->have_cpu = 1;
	if (sa_ev_at(e, runq_field, &v) && v >= 0)
		t->runq_ns = (uint64_t)v, t->have_runq = 1;
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
