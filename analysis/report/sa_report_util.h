/* What every report module shares, below the modules: the report being
 * built and its options, setting cells, readable numbers, and the one
 * object-identity column group every object table uses. Modules include
 * this; only report.c (the top) includes sa_report.h's list of modules. */
#ifndef SA_REPORT_UTIL_H
#define SA_REPORT_UTIL_H

#include <stdio.h>

#include "sa_model.h"
#include "sa_table.h"

enum sa_sort { SA_SORT_WAIT, SA_SORT_CONTENDED, SA_SORT_ACQUISITIONS, SA_SORT_HOLD };
/* --by: how the ranked view of waits groups objects. */
enum sa_by { SA_BY_CLASS, SA_BY_OBJECT, SA_BY_SITE };

struct sa_checks;
struct sa_timeline;
struct sa_export;

struct sa_report_opts {
	enum sa_format format;
	enum sa_sort sort;
	unsigned top;             /* 0: all rows */
	enum sa_by by;            /* --by (default: class) */
	int all;                  /* --all: rows without waiting or contention too */
	int wide;                 /* --wide: text shows every table and column */
	int partial;              /* the trace could not be read to its end */
	const char *messages[16]; /* errors and warnings met while reading */
	unsigned nmessages;
	struct sa_checks *checks;     /* --checks: the checks observer (sa_checks.h), or NULL */
	struct sa_timeline *timeline; /* html: the timeline observer (sa_timeline.h), or NULL */
	struct sa_export *exp;    /* pprof, chrome, folded: the export observer (sa_export.h) */
	int sample;               /* folded: --sample (enum sa_xsample) */
};

struct sa_waits_view;

struct sa_report {
	struct sa_table **tables; /* each table allocated alone: pointers stay valid */
	unsigned n, cap;
	/* The ranked view of waits, made once for the findings and waits.top
	 * (sa_waits_view.h); freed with the report. */
	struct sa_waits_view *view;
};

/* A new table appended to r (NULL on out of memory). */
struct sa_table *sa_report_table(struct sa_report *r, const char *name, const char *title,
				 const struct sa_col *cols, unsigned ncols);
/* The table named `name` in r, or NULL. */
const struct sa_table *sa_report_find(const struct sa_report *r, const char *name);

const char *sa_proc_name(const struct sa_model *m, uint32_t proc);
int sa_lower_bounds(const struct sa_model *m);
/* 1 with the sentence for the report's head when a process recorded with
 * SYNCTRACE_THRESHOLD (its short waits are summaries), else 0. */
int sa_sampled_line(const struct sa_model *m, char *buf, size_t len);
void sa_set_u(struct sa_cell *c, uint64_t v);
void sa_set_i(struct sa_cell *c, int64_t v);
void sa_set_f(struct sa_cell *c, double v);
/* A log2 histogram cell from a distribution. */
void sa_set_hist(struct sa_cell *c, const struct sa_dist *d);
/* Mean of a distribution (0 when empty). */
uint64_t sa_dist_mean(const struct sa_dist *d);

/* The object-identity column group: type, pid, process, address,
 * instance, name (as the programmer knows it, analysis/symbols), class
 * (the key objects are grouped by), instances (objects in the row), site
 * (init or first-use site). A table declares SA_ID_N consecutive column
 * ids from `base` and puts SA_ID_COLS(base) in its cols[]. */
enum { SA_ID_TYPE, SA_ID_VPID, SA_ID_PROC, SA_ID_ADDR, SA_ID_INST, SA_ID_NAME, SA_ID_CLASS,
       SA_ID_INSTANCES, SA_ID_SITE, SA_ID_N };
#define SA_ID_COLS(base) \
	[(base) + SA_ID_TYPE] = { "type", "type", SA_COL_STR, SA_COL_WIDE, 0 }, \
	[(base) + SA_ID_VPID] = { "vpid", "pid", SA_COL_I64, SA_COL_WIDE, 0 }, \
	[(base) + SA_ID_PROC] = { "procname", "process", SA_COL_STR, SA_COL_WIDE, 0 }, \
	[(base) + SA_ID_ADDR] = { "address", "address", SA_COL_HEX, SA_COL_WIDE, 0 }, \
	[(base) + SA_ID_INST] = { "instance", "inst", SA_COL_U64, SA_COL_WIDE, 0 }, \
	[(base) + SA_ID_NAME] = { "name", "object", SA_COL_STR, 0, 34 }, \
	[(base) + SA_ID_CLASS] = { "class", "class", SA_COL_STR, SA_COL_WIDE, 0 }, \
	[(base) + SA_ID_INSTANCES] = { "instances", "objs", SA_COL_U64, SA_COL_WIDE, 0 }, \
	[(base) + SA_ID_SITE] = { "site", "site", SA_COL_STR, 0, 20 }
/* Fill the group (c points at its first cell) for object obj. */
void sa_id_fill(const struct sa_model *m, uint32_t obj, struct sa_cell *c);
/* The number of objects object obj stands for (a class of destroyed
 * objects folded by the model stands for several). */
uint32_t sa_obj_instances(const struct sa_object *o);

#endif
