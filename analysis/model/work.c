/* synctrace_work: units of work the program declared (synctrace_work_done),
 * per process and per thread, for the Wakes report's wakeups per unit.
 * With a --work-event (sa_model_set_work_event) these events are not the
 * unit: model.c counts that event instead. */
#include "sa_model.h"

static void work_event(struct sa_model *m, const struct sa_event *e)
{
	uint32_t pi, ti;
	int64_t units;
	if (m->work_name || e->id != SA_EV_work_done)
		return;
	if (!sa_ev_at(e, SA_F_work_done_units, &units)) {
		m->malformed++;
		return;
	}
	if (!sa_model_proc(m, e, &pi) || !sa_model_thread(m, e, &ti))
		return;
	/* units is unsigned in the trace: a value past INT64_MAX came out
	 * negative; count it as what it was. */
	m->procs[pi].units += (uint64_t)units;
	m->procs[pi].unit_events++;
	m->threads[ti].units += (uint64_t)units;
	m->threads[ti].unit_events++;
}

const struct sa_family sa_family_work = { .name = "work", .event = work_event };
