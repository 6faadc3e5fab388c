/* Summary: what the trace holds — span, processes, threads, events by
 * provider, format versions, and every discarded-events range. */
#include <string.h>

#include "sa_report.h"

static const struct sa_col trace_cols[] = {
	{ "first_ns", "first (ns)", SA_COL_I64 },
	{ "last_ns", "last (ns)", SA_COL_I64 },
	{ "span_ns", "span (ns)", SA_COL_U64 },
	{ "traces", "traces", SA_COL_U64 },
	{ "processes", "processes", SA_COL_U64 },
	{ "threads", "threads", SA_COL_U64 },
	{ "objects", "objects", SA_COL_U64 },
	{ "events", "events", SA_COL_U64 },
	{ "malformed_events", "malformed", SA_COL_U64 },
	{ "discarded_events", "discarded", SA_COL_U64 },
	{ "discarded_ranges", "discard ranges", SA_COL_U64 },
	{ "lower_bounds", "lower bounds", SA_COL_BOOL },
};

static const struct sa_col proc_cols[] = {
	{ "trace", "trace", SA_COL_U64 },
	{ "vpid", "pid", SA_COL_I64 },
	{ "instance", "inst", SA_COL_U64 },
	{ "procname", "name", SA_COL_STR },
	{ "format", "format", SA_COL_STR },
	{ "level", "level", SA_COL_STR },
	{ "spin_mode", "spin", SA_COL_STR },
	{ "spin_limit", "spin limit", SA_COL_I64 },
	{ "threads", "threads", SA_COL_U64 },
	{ "events", "events", SA_COL_U64 },
	{ "first_ns", "first (ns)", SA_COL_I64 },
	{ "last_ns", "last (ns)", SA_COL_I64 },
	{ "started_in_trace", "start seen", SA_COL_BOOL },
	{ "stopped_in_trace", "stop seen", SA_COL_BOOL },
	{ "mutexes_spin", "mutexes spin", SA_COL_STR },
};

static const struct sa_col thread_cols[] = {
	{ "vpid", "pid", SA_COL_I64 },
	{ "vtid", "tid", SA_COL_I64 },
	{ "instance", "inst", SA_COL_U64 },
	{ "name", "name", SA_COL_STR },
	{ "events", "events", SA_COL_U64 },
	{ "started_in_trace", "started", SA_COL_BOOL },
	{ "exited_in_trace", "exited", SA_COL_BOOL },
	{ "cancelled", "cancelled", SA_COL_BOOL },
};

static const struct sa_col prov_cols[] = {
	{ "provider", "provider", SA_COL_STR },
	{ "events", "events", SA_COL_U64 },
};

static const struct sa_col disc_cols[] = {
	{ "trace", "trace", SA_COL_STR },
	{ "stream", "stream", SA_COL_STR },
	{ "begin_ns", "begin (ns)", SA_COL_I64 },
	{ "end_ns", "end (ns)", SA_COL_I64 },
	{ "count", "discarded", SA_COL_U64 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *level_name(int l)
{
	const char *s = st_meta_level_name(l);
	return s ? s : l == 0 ? "unknown" : "other";
}

static const char *spin_mode_name(int mode)
{
	const char *s = st_spin_mode_name(mode);
	return s ? s : "?";
}

void sa_summary_build(const struct sa_model *m, const struct sa_report_opts *o,
		      struct sa_report *r)
{
	(void)o;
	struct sa_table *t = sa_report_table(r, "summary.trace", "Summary", trace_cols,
					     N(trace_cols));
	struct sa_cell *c;
	if (t && (c = sa_table_row(t))) {
		int any = m->events > 0;
		if (any) {
			sa_set_i(&c[0], m->first_ts);
			sa_set_i(&c[1], m->last_ts);
			sa_set_u(&c[2], (uint64_t)(m->last_ts - m->first_ts));
		}
		sa_set_u(&c[3], m->ntraces);
		sa_set_u(&c[4], m->nprocs);
		sa_set_u(&c[5], m->nthreads);
		sa_set_u(&c[6], m->nobjs);
		sa_set_u(&c[7], m->events);
		sa_set_u(&c[8], m->malformed);
		sa_set_u(&c[9], m->discarded_total);
		sa_set_u(&c[10], m->ndiscards);
		sa_set_u(&c[11], (uint64_t)sa_lower_bounds(m));
		if (m->ndiscards)
			sa_table_note(t, "the tracer discarded %s%llu events: counts derived "
				      "from events are lower bounds; acquisitions from the "
				      "objects' own counters are not affected",
				      m->discarded_unknown ? "at least " : "",
				      (unsigned long long)m->discarded_total);
		for (unsigned i = 0; i < m->ntraces; i++)
			if (m->trace_names[i])
				sa_table_note(t, "trace %u: %s", i, m->trace_names[i]);
	}

	t = sa_report_table(r, "summary.processes", "Processes", proc_cols, N(proc_cols));
	for (uint32_t i = 0; t && i < m->nprocs; i++) {
		const struct sa_proc *p = &m->procs[i];
		char fmt[32];
		if (!(c = sa_table_row(t)))
			break;
		sa_set_u(&c[0], p->trace);
		sa_set_i(&c[1], p->vpid);
		sa_set_u(&c[2], p->instance);
		sa_cell_str(&c[3], p->procname);
		if (p->have_start) {
			snprintf(fmt, sizeof(fmt), "%d.%d", p->fmt_major, p->fmt_minor);
			sa_cell_str(&c[4], fmt);
			sa_cell_str(&c[5], level_name(p->level));
			sa_cell_str(&c[6], spin_mode_name(p->spin_mode));
			sa_set_i(&c[7], p->spin_limit);
		}
		sa_set_u(&c[8], p->nthreads);
		sa_set_u(&c[9], p->events);
		sa_set_i(&c[10], p->first_ts);
		sa_set_i(&c[11], p->last_ts);
		sa_set_u(&c[12], (uint64_t)p->have_start);
		sa_set_u(&c[13], (uint64_t)p->stopped);
		if (p->have_mutex_spin) /* SYNCTRACE_SPIN set: all; else adaptive only */
			sa_cell_str(&c[14], p->all_mutexes_spin ? "all" : "adaptive");
		if (!p->have_start)
			sa_table_note(t, "pid %d: no synctrace_meta:start (tracing began after "
				      "the process started): format and level unknown",
				      p->vpid);
	}

	t = sa_report_table(r, "summary.threads", "Threads", thread_cols, N(thread_cols));
	for (uint32_t i = 0; t && i < m->nthreads; i++) {
		const struct sa_thread *th = &m->threads[i];
		if (!(c = sa_table_row(t)))
			break;
		sa_set_i(&c[0], m->procs[th->proc].vpid);
		sa_set_i(&c[1], th->vtid);
		sa_set_u(&c[2], th->instance);
		sa_cell_str(&c[3], th->procname);
		sa_set_u(&c[4], th->events);
		sa_set_u(&c[5], (uint64_t)th->started);
		sa_set_u(&c[6], (uint64_t)th->exited);
		sa_set_u(&c[7], (uint64_t)th->cancelled);
	}

	t = sa_report_table(r, "summary.providers", "Events by provider", prov_cols,
			    N(prov_cols));
	const char *last = NULL;
	for (int id = 1; t && id < SA_EV_COUNT; id++) {
		const char *p = sa_event_provider((enum sa_event_id)id);
		uint64_t n = 0;
		if (last && !strcmp(p, last))
			continue;
		last = p;
		for (int k = id; k < SA_EV_COUNT && !strcmp(sa_event_provider((enum sa_event_id)k), p); k++)
			n += m->per_id[k];
		if (!n || !(c = sa_table_row(t)))
			continue;
		sa_cell_str(&c[0], p);
		sa_set_u(&c[1], n);
	}
	for (unsigned i = 0; t && i < m->nother; i++) {
		if (!(c = sa_table_row(t)))
			break;
		sa_cell_str(&c[0], m->other[i].name);
		sa_set_u(&c[1], m->other[i].events);
	}

	t = sa_report_table(r, "summary.discarded", "Discarded events", disc_cols,
			    N(disc_cols));
	for (uint32_t i = 0; t && i < m->ndiscards; i++) {
		const struct sa_discard *d = &m->discards[i];
		if (!(c = sa_table_row(t)))
			break;
		sa_cell_str(&c[0], d->trace < m->ntraces && m->trace_names[d->trace]
					   ? m->trace_names[d->trace] : "");
		sa_cell_str(&c[1], d->stream);
		if (d->begin != INT64_MIN)
			sa_set_i(&c[2], d->begin);
		if (d->end != INT64_MIN)
			sa_set_i(&c[3], d->end);
		if (d->count)
			sa_set_u(&c[4], d->count);
	}
}
