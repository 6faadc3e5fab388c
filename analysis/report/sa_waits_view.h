/* The ranked view of waits (top_waits.c), shared with the findings: the
 * ledger's objects grouped (--by), one row per group and kind of wait,
 * ranked (--sort), with each group's holders and wakers merged. */
#ifndef SA_WAITS_VIEW_H
#define SA_WAITS_VIEW_H

#include "sa_report_util.h"
#include "sa_waits.h"

struct sa_wgroup {
	uint32_t first, nobjs;        /* its objects: objs[first .. first + nobjs) */
	uint32_t rep;                 /* the object that waited most: names the group */
	uint64_t rep_wait, wait_ns;
	uint64_t instances;
	uint32_t rank;                /* of its first row (1 = the top), 0: no row */
	int has[SA_WAIT_NKINDS];
	struct sa_wait_stat s[SA_WAIT_NKINDS]; /* summed, distributions merged */
	struct sa_blame blame[SA_BLAME_MAX];   /* largest caused first */
	unsigned nblame;
	struct sa_waker wakers[SA_BLAME_MAX];  /* most released first */
	unsigned nwakers;
};

struct sa_wrow {
	uint32_t group;
	enum sa_wait_kind kind;
	struct sa_wait_stat s;             /* its group's (the dist is the group's) */
	uint64_t key;
	uint64_t idle_ns;                  /* its waiting by idle threads (sa_thread_idle) */
	uint32_t idle_threads;             /* how many idle threads waited there */
};

struct sa_waits_view {
	enum sa_by by;                 /* the options it was made with */
	enum sa_sort sort;
	int all;
	uint32_t *objs;
	struct sa_wgroup *groups;
	uint32_t ngroups;
	struct sa_wrow *rows;          /* ranked */
	uint32_t nrows;
	uint64_t total_ns;             /* all waiting, over the rows */
	int oom;                       /* a distribution could not be merged */
};

/* Idle thread ti: not its process's main thread (whose waits the
 * process's end waits for), waited SA_IDLE_WAITING of its life or more,
 * and on a CPU SA_IDLE_CPU or less when that is known: a pool's spare
 * thread (node's V8 platform workers wait 100 % of their lives). */
#define SA_IDLE_WAITING 0.95
#define SA_IDLE_CPU 0.02
int sa_thread_idle(const struct sa_model *m, uint32_t ti);

int sa_waits_view_make(const struct sa_model *m, const struct sa_report_opts *o,
		       struct sa_waits_view *v);
void sa_waits_view_free(struct sa_waits_view *v);
/* The view for options o: r's (made once, kept in r->view) when o asks for
 * the same grouping, sort and rows, else *tmp (free it). NULL on out of
 * memory. */
const struct sa_waits_view *sa_waits_view_get(const struct sa_model *m,
					      const struct sa_report_opts *o, struct sa_report *r,
					      struct sa_waits_view *tmp);
/* "name:tid" of model thread ti. */
void sa_thread_label(const struct sa_model *m, uint32_t ti, char *buf, size_t n);

#endif
