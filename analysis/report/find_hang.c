/* Findings of the wait-for graph: waits nothing can end (sa_waitfor.h),
 * each explained along its chain of wakers, one finding per chain, the
 * longest-blocked thread first. Kind "hang"; verdict "cycle" when the
 * chain comes back to one of its threads, "all_blocked" when it rests on
 * its process's every thread being blocked (no known waker needed), else
 * "no_waker" (the wakers it reaches have exited). */
#include <stdlib.h>

#include "sa_findings.h"
#include "sa_hangs.h"
#include "sa_waits_view.h"

#define MAX_HANG_FINDINGS 5

static void one(struct sa_fb *f, const struct sa_waitfor *w, uint32_t ti, unsigned char *seen)
{
	const struct sa_model *m = f->m;
	const struct sa_wf_thread *t = &w->t[ti];
	char b[sizeof(f->text)], lab[64];
	struct sa_sb s = { b, sizeof(b), 0 };
	b[0] = 0;
	uint32_t before = 0, after = 0;
	for (uint32_t i = 0; i < m->nthreads; i++)
		before += seen[i];
	int cycle = sa_hang_explain(&s, m, w, ti, seen);
	/* The others stuck on the same object the same way: one finding. */
	unsigned also = 0;
	for (uint32_t i = 0; i < m->nthreads && i < w->nt; i++) {
		const struct sa_wf_thread *u = &w->t[i];
		if (!u->stuck || seen[i] || u->obj != t->obj || u->kind != t->kind)
			continue;
		sa_thread_label(m, i, lab, sizeof(lab));
		sa_sb_say(&s, "%s`%s`", also++ ? ", " : "; also waiting on it: ", lab);
		seen[i] = 1;
	}
	int all = 0; /* the chain rests on its process's every thread being blocked */
	for (uint32_t i = 0; i < m->nthreads; i++) {
		all |= seen[i] && i < w->nt && w->t[i].all_blocked;
		after += seen[i];
	}
	struct sa_cell *c = sa_finding_row(f, "hang");
	if (!c)
		return;
	sa_cell_str(&c[SA_FND_WAIT_KIND], sa_wait_kind_name(t->kind));
	if (t->obj < m->nobjs)
		sa_id_fill(m, t->obj, &c[SA_FND_ID]);
	sa_set_i(&c[SA_FND_BY_TID], m->threads[ti].vtid);
	sa_thread_label(m, ti, lab, sizeof(lab));
	sa_cell_str(&c[SA_FND_BY_THREAD], lab);
	sa_set_u(&c[SA_FND_WAIT], w->end > t->since ? (uint64_t)(w->end - t->since) : 0);
	sa_set_u(&c[SA_FND_COUNT], after - before);
	sa_set_u(&c[SA_FND_OF], w->stuck);
	sa_cell_str(&c[SA_FND_VERDICT], cycle ? "cycle" : all ? "all_blocked" : "no_waker");
	sa_cell_str(&c[SA_FND_TRY], cycle ? "do not hold what the waker needs while waiting "
				    "(release it first, or wake without taking it)"
				    : "make the thread that must wake it do so before it exits or "
				    "blocks (post, signal, arrive), or count it out");
	sa_finding_say(f, "%s: %s.", cycle ? "hang, a cycle" : all ? "hang, every thread blocked"
		       : "hang, no waker left", b);
	sa_finding_done(f, c);
}

void sa_findings_hang(struct sa_fb *f, const struct sa_report_opts *o)
{
	const struct sa_model *m = f->m;
	const struct sa_waitfor *w = sa_waitfor_solve(m);
	(void)o;
	if (!w || !w->stuck)
		return;
	unsigned char *seen = calloc(m->nthreads ? m->nthreads : 1, 1);
	if (!seen)
		return;
	uint32_t n = w->nt < m->nthreads ? w->nt : m->nthreads;
	unsigned shown = 0, more = 0;
	for (;;) {
		/* The longest-blocked stuck thread not explained yet. */
		uint32_t best = SA_WF_NONE;
		for (uint32_t i = 0; i < n; i++)
			if (w->t[i].stuck && !seen[i] &&
			    (best == SA_WF_NONE || w->t[i].since < w->t[best].since))
				best = i;
		if (best == SA_WF_NONE)
			break;
		if (shown == MAX_HANG_FINDINGS) {
			more++;
			seen[best] = 1;
			continue;
		}
		one(f, w, best, seen);
		shown++;
	}
	if (more) {
		struct sa_cell *c = sa_finding_row(f, "hang");
		if (c) {
			sa_set_u(&c[SA_FND_COUNT], more);
			sa_set_u(&c[SA_FND_OF], w->stuck);
			sa_finding_say(f, "%u more stuck thread%s: see the wait-for graph", more,
				       more == 1 ? "" : "s");
			sa_finding_done(f, c);
		}
	}
	free(seen);
}
