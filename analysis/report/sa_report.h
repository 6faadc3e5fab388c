/* Reports: each module turns the model into one or more tables
 * (sa_<module>_build), and sa_report_render (report.c, the top) builds
 * them all and writes them in one format. Modules include
 * sa_report_util.h, not this. The JSON schema is in analysis/README.md. */
#ifndef SA_REPORT_H
#define SA_REPORT_H

#include <stdio.h>

#include "sa_report_util.h"

/* The JSON document's schema version: bump the major when a key changes
 * meaning or disappears, the minor when keys or tables are added. */
#define SA_SCHEMA_MAJOR 1
/* A document says the lowest version that has everything it holds (each
 * table's `minor`): 1.0 when it has nothing added since. 1.1: the table
 * checks.findings. 1.2: barriers.objects, barriers.threads, once.objects,
 * rows of type barrier and once, wakes.work, wakes.work_threads. 1.3:
 * findings, waits.top, waits.blame, waits.wakers, waits.threads, the
 * identity columns (name, class, instances, site) of object tables. 1.4:
 * waits.threads' cpu_share_of_life and cpu_ns. 1.5: idle_wait_ns of findings
 * and waits.top (and verdict idle for a wait row). */
#define SA_SCHEMA_MINOR 5

/* The modules, in the order their tables are printed. */
void sa_findings_build(const struct sa_model *m, const struct sa_report_opts *o,
		       struct sa_report *r);
void sa_waits_build(const struct sa_model *m, const struct sa_report_opts *o,
		    struct sa_report *r);
/* summary.hosts (hosts.c): only when the traces come from several hosts. */
void sa_hosts_build(const struct sa_model *m, const struct sa_report_opts *o,
		    struct sa_report *r);
void sa_summary_build(const struct sa_model *m, const struct sa_report_opts *o,
		      struct sa_report *r);
void sa_contention_build(const struct sa_model *m, const struct sa_report_opts *o,
			 struct sa_report *r);
void sa_wakes_build(const struct sa_model *m, const struct sa_report_opts *o,
		    struct sa_report *r);
void sa_races_build(const struct sa_model *m, const struct sa_report_opts *o,
		    struct sa_report *r);
/* spin.c: the what-if replay's table (spin.plan), built by sa_spin_build. */
void sa_spin_plan_build(const struct sa_model *m, const struct sa_report_opts *o,
			struct sa_report *r);
void sa_spin_build(const struct sa_model *m, const struct sa_report_opts *o,
		   struct sa_report *r);
void sa_checks_build(const struct sa_model *m, const struct sa_report_opts *o,
		     struct sa_report *r);
/* barriers.objects, barriers.threads, once.objects (only when the trace
 * has such objects). */
void sa_barriers_build(const struct sa_model *m, const struct sa_report_opts *o,
		       struct sa_report *r);
/* hangs.graph, hangs.objects: the wait-for graph (only when a thread is
 * blocked at the end of the trace or at --at). */
void sa_hangs_build(const struct sa_model *m, const struct sa_report_opts *o,
		    struct sa_report *r);
/* stacks.objects: every call stack of every object (only with stacks). */
void sa_stacks_build(const struct sa_model *m, const struct sa_report_opts *o,
		     struct sa_report *r);

/* The tables and the view of a report built by the modules, freed. */
void sa_report_free(struct sa_report *r);
/* Build every report and write them to out. 0, or -1 on out of memory. */
int sa_report_render(const struct sa_model *m, const struct sa_report_opts *o, FILE *out);
/* "--sort", "--format" and "--by" values; -1 if unknown. */
int sa_report_parse_sort(const char *s);
int sa_report_parse_format(const char *s);
int sa_report_parse_by(const char *s);

#endif
