/* Debug checks (--checks): one row per finding (sa_checks.h). */
#include <stdio.h>
#include <string.h>

#include "sa_checks.h"
#include "sa_report_util.h"
#include "sa_symbols.h"

enum {
	K_CHECK, K_VPID, K_PROCNAME, K_TIME_NS, K_TIME_S, K_COUNT, K_OBJECTS, K_THREADS,
	K_CALLERS, K_DETAIL, K_N
};
static const struct sa_col cols[K_N] = {
	[K_CHECK] = { "check", "check", SA_COL_STR, 0, 0 },
	[K_VPID] = { "vpid", "pid", SA_COL_I64, 0, 0 },
	[K_PROCNAME] = { "procname", "process", SA_COL_STR, 0, 0 },
	[K_TIME_NS] = { "time_ns", "time (ns)", SA_COL_I64, SA_COL_WIDE, 0 },
	[K_TIME_S] = { "time_s", "t (s)", SA_COL_F64, 0, 0 },
	[K_COUNT] = { "count", "count", SA_COL_U64, 0, 0 },
	[K_OBJECTS] = { "objects", "objects", SA_COL_STR, 0, 0 },
	[K_THREADS] = { "threads", "threads", SA_COL_STR, 0, 0 },
	[K_CALLERS] = { "callers", "call sites", SA_COL_STR, SA_COL_WIDE, 0 },
	[K_DETAIL] = { "detail", "what", SA_COL_STR, 0, 0 },
};

static void list_objs(const struct sa_model *m, const struct sa_finding *f, char *b, size_t n)
{
	size_t off = 0;
	b[0] = 0;
	for (unsigned i = 0; i < f->nobj && off < n; i++) {
		const struct sa_object *o = &m->objs[f->obj[i]];
		int w = snprintf(b + off, n - off, "%s%s 0x%llx", i ? ", " : "",
				 sa_obj_type_name(o->type), (unsigned long long)o->addr);
		if (w < 0)
			break;
		off += (size_t)w;
	}
}

static void list_nums(const int32_t *t, unsigned nt, const uint64_t *c, unsigned nc, char *b,
		      size_t n)
{
	size_t off = 0;
	b[0] = 0;
	for (unsigned i = 0; i < nt + nc && off < n; i++) {
		int w = i < nt ? snprintf(b + off, n - off, "%s%d", i ? ", " : "", (int)t[i])
			       : snprintf(b + off, n - off, "%s0x%llx", i > nt ? ", " : "",
					  (unsigned long long)c[i - nt]);
		if (w < 0)
			break;
		off += (size_t)w;
	}
}

/* "0x1234 (func at file.c:12), 0x5678" */
static void list_sites(const struct sa_model *m, const struct sa_finding *f, char *b, size_t n)
{
	size_t off = 0;
	char sym[256];
	b[0] = 0;
	for (unsigned i = 0; i < f->ncaller && off < n; i++) {
		const char *s = sa_symbols_addr(m, m->procs[f->proc].trace, m->procs[f->proc].vpid,
						f->caller[i], sym, sizeof(sym));
		int w = snprintf(b + off, n - off, "%s0x%llx%s%s%s", i ? ", " : "",
				 (unsigned long long)f->caller[i], s ? " (" : "", s ? s : "",
				 s ? ")" : "");
		if (w < 0)
			break;
		off += (size_t)w;
	}
}

void sa_checks_build(const struct sa_model *m, const struct sa_report_opts *o,
		     struct sa_report *r)
{
	struct sa_checks *c = o->checks;
	if (!c)
		return;
	sa_checks_finish(c, m);
	struct sa_table *t = sa_report_table(r, "checks.findings", "Debug checks", cols,
					     K_N);
	if (!t)
		return;
	t->minor = 1;
	t->flags = SA_TAB_WIDE;
	char buf[1024];
	for (uint32_t i = 0; i < c->nfindings; i++) {
		const struct sa_finding *f = &c->findings[i];
		struct sa_cell *row = sa_table_row(t);
		if (!row)
			return;
		sa_cell_str(&row[K_CHECK], sa_check_name(f->check));
		sa_set_i(&row[K_VPID], m->procs[f->proc].vpid);
		sa_cell_str(&row[K_PROCNAME], sa_proc_name(m, f->proc));
		sa_set_i(&row[K_TIME_NS], f->ts);
		sa_set_f(&row[K_TIME_S], (double)(f->ts - m->first_ts) / 1e9);
		sa_set_u(&row[K_COUNT], f->count);
		list_objs(m, f, buf, sizeof(buf));
		sa_cell_str(&row[K_OBJECTS], buf);
		list_nums(f->tid, f->ntid, NULL, 0, buf, sizeof(buf));
		sa_cell_str(&row[K_THREADS], buf);
		list_sites(m, f, buf, sizeof(buf));
		sa_cell_str(&row[K_CALLERS], buf);
		sa_cell_str(&row[K_DETAIL], f->detail);
	}
	/* Which processes the full-level checks could run on. */
	unsigned not_full = 0;
	for (uint32_t p = 0; p < m->nprocs; p++)
		not_full += m->procs[p].level < ST_META_LEVEL_FULL;
	if (not_full)
		sa_table_note(t, "exit_holding and lock_order need SYNCTRACE_LEVEL=full "
				 "(uncontended acquisitions emit no event at the contention level): "
				 "not checked in %u process(es) recorded below it", not_full);
	else
		sa_table_note(t, "all processes recorded at the full level: exit_holding and "
				 "lock_order checked");
	sa_table_note(t, "lock_order ignores edges into trylock acquisitions (traces "
			 "without released.acq_how count them too)");
	/* sem_over_max runs where the program asked (SYNCTRACE_SEM_MAX, in
	 * meta:config); say where, and where it was off or unknown. */
	unsigned sm_on = 0, sm_off = 0, sm_unknown = 0;
	char on[256] = "";
	size_t off = 0;
	for (uint32_t p = 0; p < m->nprocs; p++) {
		const struct sa_proc *pr = &m->procs[p];
		if (!pr->have_config) {
			sm_unknown++;
		} else if (!pr->sem_max_mode) {
			sm_off++;
		} else {
			sm_on++;
			char v[32];
			if (pr->sem_max_mode == ST_META_SEM_MAX_INIT)
				snprintf(v, sizeof(v), "init");
			else if (pr->sem_max_mode == ST_META_SEM_MAX_FIXED)
				snprintf(v, sizeof(v), "%d", pr->sem_max);
			else
				snprintf(v, sizeof(v), "init:%d", pr->sem_max);
			int w = off < sizeof(on) ? snprintf(on + off, sizeof(on) - off, "%s%d=%s",
							    off ? ", " : "", (int)pr->vpid, v) : -1;
			if (w > 0)
				off += (size_t)w;
		}
	}
	if (sm_on)
		sa_table_note(t, "sem_over_max checked in %u process(es) (pid=SYNCTRACE_SEM_MAX: "
				 "%s%s); not asked for in %u, unknown in %u (traces without "
				 "synctrace_meta:config)", sm_on, on, off >= sizeof(on) ? "…" : "",
			      sm_off, sm_unknown);
	else {
		int found = 0;
		for (uint32_t i = 0; i < c->nfindings; i++)
			found |= c->findings[i].check == SA_CHK_SEM_OVER_MAX;
		if (!found)
			sa_table_note(t, "sem_over_max not checked: no process was run with "
					 "SYNCTRACE_SEM_MAX (init, N or init:N)");
	}
	if (c->dropped)
		sa_table_note(t, "%llu more findings not listed (limit %d)",
			      (unsigned long long)c->dropped, SA_CHK_MAX_FINDINGS);
	if (c->edges_dropped)
		sa_table_note(t, "lock-order graph full (%d edges): %llu edges not kept",
			      SA_CHK_MAX_EDGES, (unsigned long long)c->edges_dropped);
	if (c->lockorder_incomplete)
		sa_table_note(t, "lock_order incomplete: a cycle may be missed (%s%s%s)",
			      c->lockorder_incomplete & SA_CHK_INCOMPLETE_EDGES ? "edges dropped " : "",
			      c->lockorder_incomplete & SA_CHK_INCOMPLETE_CYCLES ? "cycle limit " : "",
			      c->lockorder_incomplete & SA_CHK_INCOMPLETE_OOM ? "out of memory" : "");
	if (!c->nfindings)
		sa_table_note(t, c->lockorder_incomplete ? "no finding in what could be checked "
				 "(incomplete: see above)" : "no finding");
}
