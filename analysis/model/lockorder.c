/* The lock-order graph (as the Linux kernel's lockdep): an edge A→B when a
 * thread acquired mutex B while holding A; every cycle is a potential
 * deadlock, whether or not this run deadlocked.
 *
 * Holds are known when they end (mutex:released carries hold_ns at the full
 * level: the acquisition was hold_ns earlier), so each thread keeps its
 * last SA_CHK_RING completed holds (the latest per mutex) and a new hold
 * [ax, rx] of X is compared with each kept hold [ay, ry] of Y (ry <= rx):
 *   ax < ay < rx   Y was acquired while X was held   → X→Y
 *   ay < ax < ry   X was acquired while Y was held   → Y→X
 * Edges into a hold that began with a trylock (released.acq_how = 3) do not
 * count: a trylock cannot block, so it cannot close a deadlock cycle. */
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>

#include "sa_checks.h"

static void add_edge(struct sa_checks *c, uint32_t pi, int32_t tid, const struct sa_hold *a,
		     const struct sa_hold *b)
{
	uint64_t key = (uint64_t)pi << 32 | a->obj;
	if (sa_map_get(&c->edge_map, key, b->obj) >= 0)
		return;
	if (c->nedges >= SA_CHK_MAX_EDGES) {
		c->edges_dropped++;
		c->lockorder_incomplete |= SA_CHK_INCOMPLETE_EDGES;
		return;
	}
	if (c->nedges == c->capedges) {
		uint32_t cap = c->capedges ? c->capedges * 2 : 64;
		struct sa_edge *p = realloc(c->edges, cap * sizeof(*p));
		if (!p) {
			c->oom = 1;
			c->lockorder_incomplete |= SA_CHK_INCOMPLETE_OOM;
			return;
		}
		c->edges = p;
		c->capedges = cap;
	}
	if (sa_map_put(&c->edge_map, key, b->obj, c->nedges)) {
		c->oom = 1;
		return;
	}
	struct sa_edge *e = &c->edges[c->nedges++];
	e->proc = pi;
	e->a = a->obj;
	e->b = b->obj;
	e->tid = tid;
	e->ts = b->acq;
	e->a_site = a->acq_caller ? a->acq_caller : a->rel_caller;
	e->a_site_is_rel = !a->acq_caller;
	e->b_site = b->acq_caller ? b->acq_caller : b->rel_caller;
	e->b_site_is_rel = !b->acq_caller;
}

void sa_lockorder_release(struct sa_checks *c, const struct sa_model *m, uint32_t pi,
			  uint32_t ti, const struct sa_hold *h)
{
	struct sa_chk_thread *t = &c->threads[ti];
	int32_t tid = m->threads[ti].vtid;
	int slot = -1;
	for (unsigned i = 0; i < t->nring; i++) {
		const struct sa_hold *y = &t->ring[i];
		if (y->obj == h->obj) {
			slot = (int)i;
			continue;
		}
		/* A trylock cannot deadlock: edges into a trylock don't count. */
		if (h->acq < y->acq && y->acq < h->rel) {
			if (!y->trylock)
				add_edge(c, pi, tid, h, y);
		} else if (y->acq < h->acq && h->acq < y->rel) {
			if (!h->trylock)
				add_edge(c, pi, tid, y, h);
		}
	}
	if (slot < 0) {
		if (t->nring < SA_CHK_RING) {
			slot = (int)t->nring++;
		} else {
			slot = (int)t->next;
			t->next = (t->next + 1) % SA_CHK_RING;
		}
	}
	t->ring[slot] = *h;
}

/* ---- cycles, at the end ------------------------------------------------- */

#define MAX_CYCLES 100

/* Edges sorted by (process, a): the neighbours of a node are a range. */
static const struct sa_checks *sort_c;
static int cmp_edge(const void *x, const void *y)
{
	const struct sa_edge *a = &sort_c->edges[*(const uint32_t *)x];
	const struct sa_edge *b = &sort_c->edges[*(const uint32_t *)y];
	if (a->proc != b->proc)
		return a->proc < b->proc ? -1 : 1;
	return a->a < b->a ? -1 : a->a > b->a;
}

/* First position in order[] of an edge leaving node x of process pi. */
static uint32_t first_from(const struct sa_checks *c, const uint32_t *order, uint32_t pi,
			   uint32_t x)
{
	uint32_t lo = 0, hi = c->nedges;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct sa_edge *e = &c->edges[order[mid]];
		if (e->proc < pi || (e->proc == pi && e->a < x))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A path from → ... → to over edges of process pi, at most SA_CHK_MAXOBJ - 1
 * edges (breadth first); its edges in path[], length returned, 0 if none.
 * prev_edge/depth are indexed by edge, queue holds edges. */
static unsigned find_path(const struct sa_checks *c, const uint32_t *order, uint32_t pi,
			  uint32_t from, uint32_t to, uint32_t *path, uint32_t *prev_edge,
			  uint32_t *queue, uint8_t *depth)
{
	uint32_t qh = 0, qt = 0;
	memset(depth, 0, c->nedges);
	for (uint32_t k = first_from(c, order, pi, from); k < c->nedges; k++) {
		uint32_t i = order[k];
		if (c->edges[i].proc != pi || c->edges[i].a != from)
			break;
		depth[i] = 1;
		prev_edge[i] = UINT32_MAX;
		queue[qt++] = i;
	}
	while (qh < qt) {
		uint32_t ei = queue[qh++];
		const struct sa_edge *e = &c->edges[ei];
		if (e->b == to) {
			unsigned n = depth[ei];
			for (uint32_t k = ei, i = n; i-- > 0; k = prev_edge[k])
				path[i] = k;
			return n;
		}
		if (depth[ei] >= SA_CHK_MAXOBJ - 1)
			continue;
		for (uint32_t k = first_from(c, order, pi, e->b); k < c->nedges; k++) {
			uint32_t j = order[k];
			if (c->edges[j].proc != pi || c->edges[j].a != e->b)
				break;
			if (!depth[j]) {
				depth[j] = (uint8_t)(depth[ei] + 1);
				prev_edge[j] = ei;
				queue[qt++] = j;
			}
		}
	}
	return 0;
}

static int append(char *buf, size_t n, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int append(char *buf, size_t n, size_t *off, const char *fmt, ...)
{
	if (*off >= n)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(buf + *off, n - *off, fmt, ap);
	va_end(ap);
	if (w < 0)
		return -1;
	*off += (size_t)w < n - *off ? (size_t)w : n - *off - 1;
	return 0;
}

static void report_cycle(struct sa_checks *c, const struct sa_model *m, const uint32_t *cyc,
			 unsigned n)
{
	/* Canonical order: start at the lowest object index (one finding per cycle). */
	uint32_t objs[SA_CHK_MAXOBJ], rot[SA_CHK_MAXOBJ];
	unsigned lo = 0;
	for (unsigned i = 1; i < n; i++)
		if (c->edges[cyc[i]].a < c->edges[cyc[lo]].a)
			lo = i;
	for (unsigned i = 0; i < n; i++) {
		rot[i] = cyc[(lo + i) % n];
		objs[i] = c->edges[rot[i]].a;
	}
	int64_t ts = INT64_MIN;
	for (unsigned i = 0; i < n; i++)
		if (c->edges[rot[i]].ts > ts)
			ts = c->edges[rot[i]].ts;
	struct sa_finding *f = sa_checks_add(c, SA_CHK_LOCK_ORDER, c->edges[rot[0]].proc, ts,
					     objs, n, 0);
	if (!f)
		return;
	size_t off = 0;
	char *d = f->detail;
	size_t dn = sizeof(f->detail);
	append(d, dn, &off, "lock-order cycle of %u mutexes (potential deadlock):", n);
	for (unsigned i = 0; i < n; i++) {
		const struct sa_edge *e = &c->edges[rot[i]];
		int dup = 0;
		for (unsigned k = 0; k < f->ntid; k++)
			dup |= f->tid[k] == e->tid;
		if (!dup && f->ntid < SA_CHK_MAXOBJ)
			f->tid[f->ntid++] = e->tid;
		f->caller[f->ncaller++] = e->a_site;
		f->caller[f->ncaller++] = e->b_site;
		append(d, dn, &off, " thread %d held 0x%llx (%s 0x%llx) while locking 0x%llx (%s 0x%llx);",
		       (int)e->tid, (unsigned long long)m->objs[e->a].addr,
		       e->a_site_is_rel ? "unlocked at" : "locked at",
		       (unsigned long long)e->a_site, (unsigned long long)m->objs[e->b].addr,
		       e->b_site_is_rel ? "unlocked at" : "locked at",
		       (unsigned long long)e->b_site);
	}
	/* One interleaving that deadlocks: each edge's code run by its own thread. */
	append(d, dn, &off, " a deadlocking interleaving:");
	for (unsigned i = 0; i < n; i++)
		append(d, dn, &off, " %s%c (as thread %d) locks 0x%llx", i ? "then " : "", 'A' + i,
		       (int)c->edges[rot[i]].tid, (unsigned long long)m->objs[c->edges[rot[i]].a].addr);
	for (unsigned i = 0; i < n; i++)
		append(d, dn, &off, "%s %c waits for 0x%llx", i ? "," : ";", 'A' + i,
		       (unsigned long long)m->objs[c->edges[rot[i]].b].addr);
	append(d, dn, &off, ": deadlock%s", f->ntid < n ? " (this run took both orders in fewer "
						    "threads; it needs one thread per order)" : "");
}

void sa_checks_finish(struct sa_checks *c, const struct sa_model *m)
{
	sa_checks_flush_suspects(c, m);
	if (c->cycles_done || !c->nedges)
		return;
	c->cycles_done = 1;
	uint32_t *prev = malloc(c->nedges * sizeof(uint32_t));
	uint32_t *queue = malloc(c->nedges * sizeof(uint32_t));
	uint32_t *order = malloc(c->nedges * sizeof(uint32_t));
	uint8_t *depth = malloc(c->nedges);
	unsigned ncycles = 0;
	if (!prev || !queue || !order || !depth) {
		c->oom = 1;
		c->lockorder_incomplete |= SA_CHK_INCOMPLETE_OOM;
		goto out;
	}
	for (uint32_t i = 0; i < c->nedges; i++)
		order[i] = i;
	sort_c = c;
	qsort(order, c->nedges, sizeof(uint32_t), cmp_edge);
	for (uint32_t i = 0; i < c->nedges && ncycles < MAX_CYCLES; i++) {
		const struct sa_edge *e = &c->edges[i];
		uint32_t path[SA_CHK_MAXOBJ];
		unsigned n = find_path(c, order, e->proc, e->b, e->a, path + 1, prev, queue, depth);
		if (!n)
			continue;
		path[0] = i;
		uint32_t before = c->nfindings;
		report_cycle(c, m, path, n + 1);
		ncycles += c->nfindings > before;
	}
	if (ncycles >= MAX_CYCLES)
		c->lockorder_incomplete |= SA_CHK_INCOMPLETE_CYCLES;
out:
	free(prev);
	free(queue);
	free(order);
	free(depth);
}
