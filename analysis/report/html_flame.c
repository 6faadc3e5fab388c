/* The HTML report's flame graph of wait time by stack, drawn as an icicle
 * (root at the top, callees below): the rows of --format folded
 * (sa_export_folded_each, value: wait ns), merged into a tree whose levels
 * are all waits, process, thread, the call sites outermost first, then
 * "kind lock". A box's width is its wait; hover gives its name, its wait
 * and its share (SVG <title>). Bounded: boxes narrower than 1 px are left
 * out (their wait stays in their parent's width), at most MAXBOX boxes,
 * shallow levels first; the tree keeps at most MAXNODE nodes (a line's
 * frames past that are counted in the nodes it already has). The browser
 * test counts rect.fl, one per box. */
#include <stdlib.h>
#include <string.h>

#include "sa_export.h"
#include "sa_html.h"

#define W 1100
#define ROW 17
#define MAXBOX 400
#define MAXNODE 20000

struct fnode {
	char *name;
	uint64_t v, x;  /* wait ns; x: the wait of the lines before its first */
	uint32_t depth;
	int drawn;
};

struct flame {
	struct fnode *n;
	uint32_t nn, cap;
	uint32_t path[SA_X_MAX_FRAMES + 1]; /* the previous line's nodes, by depth */
	uint32_t npath;
	uint64_t cum;
	int full, oom;
};

/* Lines arrive sorted, so the lines sharing a prefix of frames are
 * consecutive: a node is the previous line's node at its depth when every
 * frame down to it is equal, else a new one (created in preorder). */
static void add_line(void *ctx, char *const *fr, unsigned nf, uint64_t v)
{
	struct flame *f = ctx;
	unsigned d = 0; /* frames shared with the previous line */
	while (d < nf && d + 1 < f->npath && !strcmp(f->n[f->path[d + 1]].name, fr[d]))
		d++;
	f->npath = d + 1;
	for (; d < nf && !f->full && !f->oom; d++) {
		if (f->nn == MAXNODE) {
			f->full = 1;
			break;
		}
		if (f->nn == f->cap) {
			uint32_t c = f->cap ? f->cap * 2 : 256;
			struct fnode *p = realloc(f->n, c * sizeof(*p));
			if (!p) {
				f->oom = 1;
				break;
			}
			f->n = p;
			f->cap = c;
		}
		struct fnode *x = &f->n[f->nn];
		if (!(x->name = strdup(fr[d]))) {
			f->oom = 1;
			break;
		}
		x->v = 0;
		x->x = f->cum;
		x->depth = d + 1;
		x->drawn = 0;
		f->path[f->npath++] = f->nn++;
	}
	for (uint32_t i = 0; i < f->npath; i++)
		f->n[f->path[i]].v += v;
	f->cum += v;
}

/* A warm colour of the name (stable across reports), lock boxes blue. */
static void colour(FILE *out, const char *s, int leaf)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	if (leaf)
		fprintf(out, "rgb(%u,%u,230)", 90 + h % 60, 140 + (h >> 8) % 60);
	else
		fprintf(out, "rgb(%u,%u,%u)", 205 + h % 50, 90 + (h >> 8) % 110, 40 + (h >> 16) % 40);
}

static void draw(FILE *out, const struct flame *f, unsigned levels, uint64_t total)
{
	char a[64];
	fprintf(out, "<svg class=\"flame\" id=\"chart-flame\" width=\"%d\" height=\"%u\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n", W, levels * ROW + 2);
	for (uint32_t i = 0; i < f->nn; i++) {
		const struct fnode *x = &f->n[i];
		if (!x->drawn)
			continue;
		double bx = (double)x->x / (double)total * W, bw = (double)x->v / (double)total * W;
		int leaf = i + 1 == f->nn || f->n[i + 1].depth <= x->depth;
		sa_fmt_ns(a, sizeof(a), (double)x->v);
		fputs("<g class=\"fg\"><title>", out);
		sa_html_esc(out, x->name);
		fprintf(out, ": %s of wait (%.1f%%)</title><svg x=\"%.1f\" y=\"%u\" width=\"%.1f\" "
			"height=\"%d\"><rect class=\"fl\" width=\"100%%\" height=\"100%%\" fill=\"",
			a, 100.0 * (double)x->v / (double)total, bx, x->depth * ROW, bw, ROW - 1);
		colour(out, x->name, leaf);
		fputs("\"/>", out);
		if (bw >= 30) { /* the nested svg clips the name to its box */
			fputs("<text x=\"3\" y=\"12\">", out);
			sa_html_esc(out, x->name);
			fputs("</text>", out);
		}
		fputs("</svg></g>\n", out);
	}
	fputs("</svg>\n", out);
}

void sa_html_flame(const struct sa_model *m, const struct sa_report_opts *o, FILE *out)
{
	struct flame f = { 0 };
	char a[64];
	fputs("<section id=\"flame\"><h2>Wait time by stack (flame graph)</h2>\n", out);
	if (!o->exp) {
		fputs("<p class=\"note\">No stacks collected.</p></section>\n", out);
		return;
	}
	/* The root: every wait (depth 0); the lines' frames below it. */
	f.n = malloc(256 * sizeof(*f.n));
	if (!f.n || !(f.n[0].name = strdup("all waits"))) {
		free(f.n);
		fputs("<p class=\"warn\">Out of memory: no flame graph.</p></section>\n", out);
		return;
	}
	f.cap = 256;
	f.nn = f.npath = 1;
	f.n[0].v = f.n[0].x = f.n[0].depth = 0;
	f.n[0].drawn = 0;
	if (sa_export_folded_each(m, o, SA_XS_WAIT, add_line, &f))
		f.oom = 1;
	uint64_t total = f.n[0].v;
	if (!total) {
		fputs("<p class=\"note\">No thread waited.</p>\n", out);
	} else {
		/* Level by level, so the cap keeps the shallow (widest) boxes. */
		unsigned drawn = 0, levels = 0;
		uint32_t left = 0;
		for (uint32_t d = 0, more = 1; more; d++) {
			more = 0;
			for (uint32_t i = 0; i < f.nn; i++) {
				if (f.n[i].depth != d)
					continue;
				more = 1;
				if ((double)f.n[i].v / (double)total * W < 1 || drawn == MAXBOX) {
					left++;
					continue;
				}
				f.n[i].drawn = 1;
				drawn++;
				levels = d + 1;
			}
		}
		sa_fmt_ns(a, sizeof(a), (double)total);
		fprintf(out, "<p class=\"note\">%s of wait; a box's width is its wait, the call sites "
			"below it are what it called (process, thread, call sites outermost first, "
			"then the lock). Hover a box for its wait.</p>\n", a);
		draw(out, &f, levels, total);
		if (left)
			fprintf(out, "<p class=\"note\">%u box%s not drawn (narrower than 1 px, or "
				"over %d boxes).</p>\n", left, left == 1 ? "" : "es", MAXBOX);
	}
	if (f.full)
		fprintf(out, "<p class=\"note\">Over %d stack frames: the deepest are counted in "
			"their callers.</p>\n", MAXNODE);
	if (f.oom)
		fputs("<p class=\"warn\">Out of memory: the flame graph is incomplete.</p>\n", out);
	fputs("</section>\n", out);
	for (uint32_t i = 0; i < f.nn; i++)
		free(f.n[i].name);
	free(f.n);
}
