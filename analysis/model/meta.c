/* synctrace_meta: format version, trace level and spin settings per process. */
#include "sa_model.h"

/* A process whose start was made lazily (the session began while it ran)
 * repeats start and config, with the nonce of the first and repeat = 1
 * (tracepoints/probes.c): the first may have been dropped. So a start is
 * the process's own again when it carries the nonce p was announced with,
 * or when it is a repeat and p was never announced (its events came first:
 * the first start was lost). Anything else after p's events or start is a
 * new image (exec: new nonce, repeat = 0) or a new process with the pid.
 * A start without nonce (older traces): always a new instance, as before. */
int sa_meta_new_instance(const struct sa_proc *p, const struct sa_event *e)
{
	int64_t nonce, repeat;
	if (sa_ev_at(e, SA_F_meta_start_nonce, &nonce)) {
		if (p->have_nonce && p->nonce == (uint64_t)nonce)
			return 0;
		if (sa_ev_at(e, SA_F_meta_start_repeat, &repeat) && repeat && !p->have_start)
			return 0;
	}
	return p->events || p->have_start;
}

static void meta_event(struct sa_model *m, const struct sa_event *e)
{
	uint32_t pi;
	struct sa_proc *p = sa_model_proc(m, e, &pi);
	if (!p)
		return;
	if (e->id == SA_EV_meta_start) {
		int64_t nonce;
		p->have_start = 1;
		p->have_nonce = sa_ev_at(e, SA_F_meta_start_nonce, &nonce);
		p->nonce = (uint64_t)nonce;
		p->fmt_major = (int)e->f[SA_F_meta_start_format_major].v;
		p->fmt_minor = (int)e->f[SA_F_meta_start_format_minor].v;
		p->level = (int)e->f[SA_F_meta_start_level].v;
		p->spin_mode = (int)e->f[SA_F_meta_start_spin_mode].v;
		p->spin_limit = (int)e->f[SA_F_meta_start_spin_limit].v;
		if (p->fmt_major > SA_FORMAT_MAJOR && !m->newer_format) {
			m->newer_format = 1;
			m->newer_major = p->fmt_major;
			m->newer_vpid = p->vpid;
		}
	} else if (e->id == SA_EV_meta_base) {
		sa_thread_base(m, pi, e);
	} else if (e->id == SA_EV_meta_config) {
		p->have_config = 1;
		p->sem_max_mode = (int)e->f[SA_F_meta_config_sem_max_mode].v;
		p->sem_max = (int)e->f[SA_F_meta_config_sem_max].v;
		int64_t v;
		if ((p->have_mutex_spin = sa_ev_at(e, SA_F_meta_config_all_mutexes_spin, &v)))
			p->all_mutexes_spin = (int)v;
		if (sa_ev_at(e, SA_F_meta_config_threshold_ns, &v))
			p->threshold_ns = (uint64_t)v;
	} else if (e->id == SA_EV_meta_clock) {
		p->have_clock = 1;
		p->clock_source = (int)e->f[SA_F_meta_clock_source].v;
		p->clock_why = (int)e->f[SA_F_meta_clock_why].v;
		p->clock_hz = (uint64_t)e->f[SA_F_meta_clock_counter_hz].v;
	} else if (e->id == SA_EV_meta_stop) {
		p->stopped = 1;
		/* the times of the thread that ran the exit (format minor 16) */
		uint32_t ti;
		struct sa_thread *t = sa_model_thread(m, e, &ti);
		if (t)
			sa_thread_times(t, e, SA_F_meta_stop_cpu_ns, SA_F_meta_stop_runq_ns);
		sa_model_proc_ended(m, pi);
	}
}

const struct sa_family sa_family_meta = { .name = "meta", .event = meta_event };
