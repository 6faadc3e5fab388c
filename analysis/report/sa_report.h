/* Reports: each module turns the model into one or more tables
 * (sa_<module>_build), and sa_report_render writes them all in one format.
 * The JSON document's schema is in analysis/README.md. */
#ifndef SA_REPORT_H
#define SA_REPORT_H

#include <stdio.h>

#include "sa_model.h"
#include "sa_table.h"

/* The JSON document's schema version: bump the major when a key changes
 * meaning or disappears, the minor when keys or tables are added. */
#define SA_SCHEMA_MAJOR 1
/* A document says the lowest version that has everything it holds (each
 * table's `minor`): 1.0 when it has nothing added since. 1.1: the table
 * checks.findings. 1.2: barriers.objects, barriers.threads, once.objects,
 * rows of type barrier and once, wakes.work, wakes.work_threads. */
#define SA_SCHEMA_MINOR 2

enum sa_sort { SA_SORT_WAIT, SA_SORT_CONTENDED, SA_SORT_ACQUISITIONS, SA_SORT_HOLD };

struct sa_checks;
struct sa_timeline;

struct sa_report_opts {
	enum sa_format format;
	enum sa_sort sort;
	unsigned top;             /* 0: all rows */
	int partial;              /* the trace could not be read to its end */
	const char *messages[16]; /* errors and warnings met while reading */
	unsigned nmessages;
	struct sa_checks *checks;     /* --checks: the checks observer (sa_checks.h), or NULL */
	struct sa_timeline *timeline; /* html: the timeline observer (sa_timeline.h), or NULL */
};

struct sa_report {
	struct sa_table **tables; /* each table allocated alone: pointers stay valid */
	unsigned n, cap;
};

/* A new table appended to r (NULL on out of memory). */
struct sa_table *sa_report_table(struct sa_report *r, const char *name, const char *title,
				 const struct sa_col *cols, unsigned ncols);

void sa_summary_build(const struct sa_model *m, const struct sa_report_opts *o,
		      struct sa_report *r);
void sa_contention_build(const struct sa_model *m, const struct sa_report_opts *o,
			 struct sa_report *r);
void sa_wakes_build(const struct sa_model *m, const struct sa_report_opts *o,
		    struct sa_report *r);
void sa_races_build(const struct sa_model *m, const struct sa_report_opts *o,
		    struct sa_report *r);
void sa_spin_build(const struct sa_model *m, const struct sa_report_opts *o,
		   struct sa_report *r);
void sa_checks_build(const struct sa_model *m, const struct sa_report_opts *o,
		     struct sa_report *r);
/* barriers.objects, barriers.threads, once.objects (only when the trace
 * has such objects). */
void sa_barriers_build(const struct sa_model *m, const struct sa_report_opts *o,
		       struct sa_report *r);

/* The HTML document (html.c) of the tables in r, with SVG charts. */
void sa_html_render(const struct sa_model *m, const struct sa_report_opts *o,
		    const struct sa_report *r, FILE *out);
/* Text with every character HTML gives a meaning to escaped (and bytes
 * that are not UTF-8 replaced): the one way trace text reaches the page. */
void sa_html_esc(FILE *out, const char *s);

/* Build every report and write them to out. 0, or -1 on out of memory. */
int sa_report_render(const struct sa_model *m, const struct sa_report_opts *o, FILE *out);
/* "--sort" and "--format" values; -1 if unknown. */
int sa_report_parse_sort(const char *s);
int sa_report_parse_format(const char *s);

/* Helpers for modules. */
const char *sa_proc_name(const struct sa_model *m, uint32_t proc);
int sa_lower_bounds(const struct sa_model *m);
void sa_set_u(struct sa_cell *c, uint64_t v);
void sa_set_i(struct sa_cell *c, int64_t v);
void sa_set_f(struct sa_cell *c, double v);
/* A log2 histogram cell from a distribution. */
void sa_set_hist(struct sa_cell *c, const struct sa_dist *d);

#endif
