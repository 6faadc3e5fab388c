/* The table "stacks.objects": every call stack recorded for an object
 * (synctrace record --stacks), symbolized. One row per (object, stack), in
 * the order objects appear in the model and, per object, of first use.
 * Absent when the trace has no stacks. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sa_report_util.h"
#include "sa_symbols.h"

enum { S_ID, S_STACK = S_ID + SA_ID_N, S_STACK_ID, S_USES, S_CALLSITE, S_FRAMES, S_N };
static const struct sa_col cols[S_N] = {
	SA_ID_COLS(S_ID),
	[S_STACK] = { "stack", "stack", SA_COL_U64, 0, 0 },       /* 1, 2, ... in order of first use */
	[S_STACK_ID] = { "stack_id", "id", SA_COL_HEX, SA_COL_WIDE, 0 },
	[S_USES] = { "uses", "uses", SA_COL_U64, 0, 0 },          /* slow-path events through it */
	[S_CALLSITE] = { "call_site", "call site", SA_COL_STR, 0, 0 }, /* the frame that called synctrace */
	[S_FRAMES] = { "frames", "called from", SA_COL_STR, 0, 60 }, /* innermost first, " < " */
};

static void frames_text(const struct sa_model *m, uint32_t proc, const uint64_t *f, int n,
			char *out, size_t size)
{
	size_t len = 0;
	out[0] = 0;
	for (int i = 1; i < n && len + 1 < size; i++) {
		char one[256];
		int w = snprintf(out + len, size - len, "%s%s", i > 1 ? " < " : "",
				 sa_site_name(m, proc, f[i], one, sizeof(one)));
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

void sa_stacks_build(const struct sa_model *m, const struct sa_report_opts *o,
		     struct sa_report *r)
{
	(void)o;
	uint64_t rows = 0, objs = 0;
	struct sa_table *t = NULL;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const struct sa_object *ob = &m->objs[i];
		const uint64_t *f;
		uint64_t uses;
		int n;
		if (ob->is_class)
			continue; /* its objects' stacks are theirs (folded ones too) */
		objs += sa_symbols_object_stack(m, ob, 0, &f, &uses) >= 0;
		for (unsigned k = 0; (n = sa_symbols_object_stack(m, ob, k, &f, &uses)) >= 0; k++) {
			if (!t && !(t = sa_report_table(r, "stacks.objects", "Call stacks per object",
							cols, S_N)))
				return;
			t->flags = SA_TAB_WIDE;
			struct sa_cell *c = sa_table_row(t);
			if (!c)
				return;
			char site[256], text[2048];
			sa_id_fill(m, i, &c[S_ID]);
			sa_set_u(&c[S_STACK], k + 1);
			sa_set_u(&c[S_STACK_ID], sa_symbols_object_stack_id(m, ob, k));
			sa_set_u(&c[S_USES], uses);
			if (f && n > 0) {
				sa_cell_str(&c[S_CALLSITE], sa_site_name(m, ob->proc, f[0], site,
									 sizeof(site)));
				frames_text(m, ob->proc, f, n, text, sizeof(text));
				sa_cell_str(&c[S_FRAMES], text);
			}
			rows++;
		}
	}
	if (t)
		sa_table_note(t, "%" PRIu64 " stacks of %" PRIu64 " objects; a stack is the "
			      "program's frames at the object's creation or a wait on it "
			      "(SYNCTRACE_STACKS=1), innermost first; unknown frames are "
			      "module+offset", rows, objs);
}
