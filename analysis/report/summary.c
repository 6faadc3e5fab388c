/* Summary: what the trace holds — span, processes, threads, events by
 * provider, format versions, and every discarded-events range. */
#include <stdlib.h>
#include <string.h>

#include "sa_report_util.h"

enum { TR_FIRST, TR_LAST, TR_SPAN, TR_TRACES, TR_PROCS, TR_THREADS, TR_OBJS, TR_EVENTS,
       TR_MALFORMED, TR_DISCARDED, TR_RANGES, TR_LOWER, TR_N };
static const struct sa_col trace_cols[TR_N] = {
	[TR_FIRST] = { "first_ns", "first (ns)", SA_COL_I64, 0, 0 },
	[TR_LAST] = { "last_ns", "last (ns)", SA_COL_I64, 0, 0 },
	[TR_SPAN] = { "span_ns", "span", SA_COL_NS, 0, 0 },
	[TR_TRACES] = { "traces", "traces", SA_COL_U64, 0, 0 },
	[TR_PROCS] = { "processes", "processes", SA_COL_U64, 0, 0 },
	[TR_THREADS] = { "threads", "threads", SA_COL_U64, 0, 0 },
	[TR_OBJS] = { "objects", "objects", SA_COL_U64, 0, 0 },
	[TR_EVENTS] = { "events", "events", SA_COL_U64, 0, 0 },
	[TR_MALFORMED] = { "malformed_events", "malformed", SA_COL_U64, 0, 0 },
	[TR_DISCARDED] = { "discarded_events", "discarded", SA_COL_U64, 0, 0 },
	[TR_RANGES] = { "discarded_ranges", "discard ranges", SA_COL_U64, 0, 0 },
	[TR_LOWER] = { "lower_bounds", "lower bounds", SA_COL_BOOL, 0, 0 },
};

enum { P_TRACE, P_VPID, P_INST, P_NAME, P_FORMAT, P_LEVEL, P_SPIN, P_SPIN_LIMIT, P_THREADS,
       P_EVENTS, P_FIRST, P_LAST, P_STARTED, P_STOPPED, P_MUTEX_SPIN, P_CLOCK, P_CLOCK_WHY,
       P_CLOCK_HZ, P_N };
static const struct sa_col proc_cols[P_N] = {
	[P_TRACE] = { "trace", "trace", SA_COL_U64, SA_COL_WIDE, 0 },
	[P_VPID] = { "vpid", "pid", SA_COL_I64, 0, 0 },
	[P_INST] = { "instance", "inst", SA_COL_U64, SA_COL_WIDE, 0 },
	[P_NAME] = { "procname", "name", SA_COL_STR, 0, 0 },
	[P_FORMAT] = { "format", "format", SA_COL_STR, 0, 0 },
	[P_LEVEL] = { "level", "level", SA_COL_STR, 0, 0 },
	[P_SPIN] = { "spin_mode", "spin", SA_COL_STR, 0, 0 },
	[P_SPIN_LIMIT] = { "spin_limit", "spin limit", SA_COL_I64, 0, 0 },
	[P_THREADS] = { "threads", "threads", SA_COL_U64, 0, 0 },
	[P_EVENTS] = { "events", "events", SA_COL_U64, 0, 0 },
	[P_FIRST] = { "first_ns", "first (ns)", SA_COL_I64, SA_COL_WIDE, 0 },
	[P_LAST] = { "last_ns", "last (ns)", SA_COL_I64, SA_COL_WIDE, 0 },
	[P_STARTED] = { "started_in_trace", "start seen", SA_COL_BOOL, SA_COL_WIDE, 0 },
	[P_STOPPED] = { "stopped_in_trace", "stop seen", SA_COL_BOOL, SA_COL_WIDE, 0 },
	[P_MUTEX_SPIN] = { "mutexes_spin", "mutexes spin", SA_COL_STR, 0, 0 },
	[P_CLOCK] = { "clock", "clock", SA_COL_STR, 0, 0 },
	[P_CLOCK_WHY] = { "clock_why", "clock why", SA_COL_STR, SA_COL_WIDE, 0 },
	[P_CLOCK_HZ] = { "counter_hz", "counter Hz", SA_COL_U64, SA_COL_WIDE, 0 },
};

enum { TH_VPID, TH_VTID, TH_INST, TH_NAME, TH_EVENTS, TH_STARTED, TH_EXITED, TH_CANCELLED,
       TH_N };
static const struct sa_col thread_cols[TH_N] = {
	[TH_VPID] = { "vpid", "pid", SA_COL_I64, 0, 0 },
	[TH_VTID] = { "vtid", "tid", SA_COL_I64, 0, 0 },
	[TH_INST] = { "instance", "inst", SA_COL_U64, 0, 0 },
	[TH_NAME] = { "name", "name", SA_COL_STR, 0, 0 },
	[TH_EVENTS] = { "events", "events", SA_COL_U64, 0, 0 },
	[TH_STARTED] = { "started_in_trace", "started", SA_COL_BOOL, 0, 0 },
	[TH_EXITED] = { "exited_in_trace", "exited", SA_COL_BOOL, 0, 0 },
	[TH_CANCELLED] = { "cancelled", "cancelled", SA_COL_BOOL, 0, 0 },
};

enum { PR_PROVIDER, PR_EVENTS, PR_N };
static const struct sa_col prov_cols[PR_N] = {
	[PR_PROVIDER] = { "provider", "provider", SA_COL_STR, 0, 0 },
	[PR_EVENTS] = { "events", "events", SA_COL_U64, 0, 0 },
};

enum { D_TRACE, D_STREAM, D_BEGIN, D_END, D_COUNT, D_N };
static const struct sa_col disc_cols[D_N] = {
	[D_TRACE] = { "trace", "trace", SA_COL_STR, 0, 0 },
	[D_STREAM] = { "stream", "stream", SA_COL_STR, 0, 0 },
	[D_BEGIN] = { "begin_ns", "begin (ns)", SA_COL_I64, 0, 0 },
	[D_END] = { "end_ns", "end (ns)", SA_COL_I64, 0, 0 },
	[D_COUNT] = { "count", "discarded", SA_COL_U64, 0, 0 }, /* null: unknown */
};

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
	struct sa_table *t = sa_report_table(r, "summary.trace", "Summary", trace_cols, TR_N);
	if (t)
		t->flags = SA_TAB_WIDE;
	struct sa_cell *c;
	if (t && (c = sa_table_row(t))) {
		int any = m->events > 0;
		if (any) {
			sa_set_i(&c[TR_FIRST], m->first_ts);
			sa_set_i(&c[TR_LAST], m->last_ts);
			sa_set_u(&c[TR_SPAN], (uint64_t)(m->last_ts - m->first_ts));
		}
		sa_set_u(&c[TR_TRACES], m->ntraces);
		sa_set_u(&c[TR_PROCS], m->nprocs);
		sa_set_u(&c[TR_THREADS], m->nthreads);
		sa_set_u(&c[TR_OBJS], sa_model_objects_seen(m));
		sa_set_u(&c[TR_EVENTS], m->events);
		sa_set_u(&c[TR_MALFORMED], m->malformed);
		sa_set_u(&c[TR_DISCARDED], m->discarded_total);
		sa_set_u(&c[TR_RANGES], m->ndiscards);
		sa_set_u(&c[TR_LOWER], (uint64_t)sa_lower_bounds(m));
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

	t = sa_report_table(r, "summary.processes", "Processes", proc_cols, P_N);
	if (t)
		t->text_rows = 8;
	/* The processes with the most events first (ties in the model's order:
	 * trace, pid, image): a shell script's or a wrapper's tens of short
	 * processes (pyenv's shims, make's shells) would otherwise fill the
	 * text's 8 rows before the program that did the work. */
	struct sa_rank *rk = m->nprocs ? malloc(m->nprocs * sizeof(*rk)) : NULL;
	for (uint32_t i = 0; rk && i < m->nprocs; i++)
		rk[i] = (struct sa_rank){ i, m->procs[i].events };
	if (rk)
		qsort(rk, m->nprocs, sizeof(*rk), sa_rank_desc);
	uint32_t distrusted = 0;
	for (uint32_t j = 0; t && j < m->nprocs; j++) {
		const struct sa_proc *p = &m->procs[rk ? rk[j].i : j];
		char fmt[32];
		if (!(c = sa_table_row(t)))
			break;
		sa_set_u(&c[P_TRACE], p->trace);
		sa_set_i(&c[P_VPID], p->vpid);
		sa_set_u(&c[P_INST], p->instance);
		sa_cell_str(&c[P_NAME], p->procname);
		if (p->have_start) {
			snprintf(fmt, sizeof(fmt), "%d.%d", p->fmt_major, p->fmt_minor);
			sa_cell_str(&c[P_FORMAT], fmt);
			sa_cell_str(&c[P_LEVEL], level_name(p->level));
			sa_cell_str(&c[P_SPIN], spin_mode_name(p->spin_mode));
			sa_set_i(&c[P_SPIN_LIMIT], p->spin_limit);
		}
		sa_set_u(&c[P_THREADS], p->nthreads);
		sa_set_u(&c[P_EVENTS], p->events);
		sa_set_i(&c[P_FIRST], p->first_ts);
		sa_set_i(&c[P_LAST], p->last_ts);
		sa_set_u(&c[P_STARTED], (uint64_t)p->have_start);
		sa_set_u(&c[P_STOPPED], (uint64_t)p->stopped);
		if (p->have_mutex_spin) /* SYNCTRACE_SPIN set: all; else adaptive only */
			sa_cell_str(&c[P_MUTEX_SPIN], p->all_mutexes_spin ? "all" : "adaptive");
		if (p->have_clock) {
			const char *src = st_meta_clock_name(p->clock_source);
			const char *why = st_meta_clock_why_name(p->clock_why);
			sa_cell_str(&c[P_CLOCK], src ? src : "?");
			sa_cell_str(&c[P_CLOCK_WHY], why ? why : "?");
			sa_set_u(&c[P_CLOCK_HZ], p->clock_hz);
			if (p->clock_why == ST_META_CLOCK_WHY_DISTRUSTED)
				distrusted++;
			else if (p->clock_why == ST_META_CLOCK_WHY_WENT_BACK)
				sa_table_note(t, "pid %d: its time-stamp counter went back (a resume "
					      "or a migration?): its durations read CLOCK_MONOTONIC "
					      "from then on, those before may be off by the jump",
					      p->vpid);
		}
		if (p->threshold_ns)
			sa_table_note(t, "pid %d: SYNCTRACE_THRESHOLD=%lluns: %s waits shorter "
				      "than that are counted from summaries (no events, no timeline: who made "
				      "them wait, wake outcomes and latencies, a barrier's for-last and spread "
				      "cover the recorded waits only); the longer ones were recorded event by "
				      "event", p->vpid,
				      (unsigned long long)p->threshold_ns,
				      p->fmt_minor >= 9 ? "mutex, semaphore, rwlock, barrier and condvar"
							: "mutex");
		if (!p->have_start)
			sa_table_note(t, "pid %d: no synctrace_meta:start (tracing began after "
				      "the process started): format and level unknown",
				      p->vpid);
	}

	free(rk);
	if (t && distrusted)
		sa_table_note(t, "%u of %u processes timed waits with CLOCK_MONOTONIC (25-45 ns a "
			      "read on a VM): the kernel distrusts the CPU's counter (~11 ns), and it "
			      "was not read per CPU, which needs glibc's rseq to tell the CPU (glibc "
			      "2.35 on, not disabled by GLIBC_TUNABLES=glibc.pthread.rseq=0; older "
			      "builds of synctrace did so at the summary level alone); record "
			      "--clock counter is cheaper where the CPUs' counters agree "
			      "(doc/performance.md)",
			      distrusted, m->nprocs);
	uint32_t nsum = sa_model_summary_procs(m);
	if (t && nsum)
		sa_table_note(t, "%u of %u processes at the summary level: every count as at the "
			      "contention level, from per-thread aggregates; not in their trace: who "
			      "held (waits.blame; who signalled or posted is, without where or "
			      "when), mutex hand-offs, the timeline, exact "
			      "percentiles (the fixed buckets: within 12.5 %%), and what a thread "
			      "aggregated in the last second before the process was killed "
			      "(doc/performance.md)", nsum, m->nprocs);

	t = sa_report_table(r, "summary.threads", "Threads", thread_cols, TH_N);
	if (t)
		t->flags = SA_TAB_WIDE;
	for (uint32_t i = 0; t && i < m->nthreads; i++) {
		const struct sa_thread *th = &m->threads[i];
		if (!(c = sa_table_row(t)))
			break;
		sa_set_i(&c[TH_VPID], m->procs[th->proc].vpid);
		sa_set_i(&c[TH_VTID], th->vtid);
		sa_set_u(&c[TH_INST], th->instance);
		sa_cell_str(&c[TH_NAME], th->procname);
		sa_set_u(&c[TH_EVENTS], th->events);
		sa_set_u(&c[TH_STARTED], (uint64_t)th->started);
		sa_set_u(&c[TH_EXITED], (uint64_t)th->exited);
		sa_set_u(&c[TH_CANCELLED], (uint64_t)th->cancelled);
	}

	t = sa_report_table(r, "summary.providers", "Events by provider", prov_cols, PR_N);
	if (t)
		t->flags = SA_TAB_WIDE;
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
		sa_cell_str(&c[PR_PROVIDER], p);
		sa_set_u(&c[PR_EVENTS], n);
	}
	for (unsigned i = 0; t && i < m->nother; i++) {
		if (!(c = sa_table_row(t)))
			break;
		sa_cell_str(&c[PR_PROVIDER], m->other[i].name);
		sa_set_u(&c[PR_EVENTS], m->other[i].events);
	}

	t = sa_report_table(r, "summary.discarded", "Discarded events", disc_cols, D_N);
	if (t && !m->ndiscards)
		t->flags = SA_TAB_WIDE;
	for (uint32_t i = 0; t && i < m->ndiscards; i++) {
		const struct sa_discard *d = &m->discards[i];
		if (!(c = sa_table_row(t)))
			break;
		sa_cell_str(&c[D_TRACE], d->trace < m->ntraces && m->trace_names[d->trace]
					   ? m->trace_names[d->trace] : "");
		sa_cell_str(&c[D_STREAM], d->stream);
		if (d->begin != INT64_MIN)
			sa_set_i(&c[D_BEGIN], d->begin);
		if (d->end != INT64_MIN)
			sa_set_i(&c[D_END], d->end);
		if (d->count_known) /* else unknown (even when the trace said an impossible
				     * one): the range still makes numbers lower bounds */
			sa_set_u(&c[D_COUNT], d->count);
	}
}
