/* summary.hosts: one row per host the traces were recorded on (the
 * hostname in each trace's environment), when there are several: a
 * report over a relay daemon's output folder, which holds a trace per
 * host (HOST/SESSION-DATE/...). The other tables merge the hosts: a lock
 * class has the same key on every host running the same binary
 * (module-relative, analysis/symbols), so its rows add up across them. */
#include <string.h>

#include "sa_report.h"

enum { H_HOST, H_TRACES, H_PROCS, H_THREADS, H_EVENTS, H_WAITS, H_WAIT, H_N };
static const struct sa_col host_cols[H_N] = {
	[H_HOST] = { "host", "host", SA_COL_STR, 0, 0 },
	[H_TRACES] = { "traces", "traces", SA_COL_U64, 0, 0 },
	[H_PROCS] = { "processes", "processes", SA_COL_U64, 0, 0 },
	[H_THREADS] = { "threads", "threads", SA_COL_U64, 0, 0 },
	[H_EVENTS] = { "events", "events", SA_COL_U64, 0, 0 },
	[H_WAITS] = { "waits", "waits", SA_COL_U64, 0, 0 },
	[H_WAIT] = { "wait_total_ns", "waiting", SA_COL_NS, 0, 0 },
};

static const char *host_of(const struct sa_model *m, unsigned trace)
{
	return trace < m->nhosted && m->trace_hosts[trace]
		       ? m->trace_hosts[trace] : "?";
}

/* The first trace of trace t's host (the host's row). */
static unsigned host_row(const struct sa_model *m, unsigned t)
{
	for (unsigned i = 0; i < t; i++)
		if (!strcmp(host_of(m, i), host_of(m, t)))
			return i;
	return t;
}

void sa_hosts_build(const struct sa_model *m, const struct sa_report_opts *o, struct sa_report *r)
{
	(void)o;
	unsigned nhosts = 0;
	for (unsigned i = 0; i < m->ntraces; i++)
		nhosts += host_row(m, i) == i;
	if (nhosts < 2)
		return;
	struct sa_table *t = sa_report_table(r, "summary.hosts", "Hosts (lock classes merged "
					     "across them)", host_cols, H_N);
	if (!t)
		return;
	t->minor = 3;
	for (unsigned h = 0; h < m->ntraces; h++) {
		if (host_row(m, h) != h)
			continue;
		uint64_t traces = 0, procs = 0, threads = 0, events = 0, waits = 0, wait = 0;
		for (unsigned i = h; i < m->ntraces; i++)
			traces += host_row(m, i) == h;
		for (uint32_t p = 0; p < m->nprocs; p++) {
			if (host_row(m, m->procs[p].trace) != h)
				continue;
			procs++;
			threads += m->procs[p].nthreads;
			events += m->procs[p].events;
		}
		for (uint32_t ti = 0; ti < m->nthreads; ti++) {
			const struct sa_thread *th = &m->threads[ti];
			if (th->proc < m->nprocs && host_row(m, m->procs[th->proc].trace) == h) {
				waits += th->waits;
				wait += th->wait_ns;
			}
		}
		struct sa_cell *c = sa_table_row(t);
		if (!c)
			return;
		sa_cell_str(&c[H_HOST], host_of(m, h));
		sa_set_u(&c[H_TRACES], traces);
		sa_set_u(&c[H_PROCS], procs);
		sa_set_u(&c[H_THREADS], threads);
		sa_set_u(&c[H_EVENTS], events);
		sa_set_u(&c[H_WAITS], waits);
		sa_set_u(&c[H_WAIT], wait);
	}
}
