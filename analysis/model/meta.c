/* synctrace_meta: format version, trace level and spin settings per process. */
#include "sa_config.h"
#include "sa_model.h"

void sa_meta_event(struct sa_model *m, const struct sa_event *e)
{
	uint32_t pi;
	struct sa_proc *p = sa_model_proc(m, e, &pi);
	if (!p)
		return;
	if (e->id == SA_EV_meta_start) {
		p->have_start = 1;
		p->fmt_major = (int)sa_ev_i(e, "format_major");
		p->fmt_minor = (int)sa_ev_i(e, "format_minor");
		p->level = (int)sa_ev_i(e, "level");
		p->spin_mode = (int)sa_ev_i(e, "spin_mode");
		p->spin_limit = (int)sa_ev_i(e, "spin_limit");
		if (p->fmt_major > SA_FORMAT_MAJOR && !m->newer_format) {
			m->newer_format = 1;
			m->newer_major = p->fmt_major;
			m->newer_vpid = p->vpid;
		}
#if SA_HAVE_EV_meta_config
	} else if (e->id == SA_EV_meta_config) {
		p->have_config = 1;
		p->sem_max_mode = (int)sa_ev_i(e, "sem_max_mode");
		p->sem_max = (int)sa_ev_i(e, "sem_max");
#endif
	} else if (e->id == SA_EV_meta_stop) {
		p->stopped = 1;
	}
}
