/* The table "stacks.objects": every call stack recorded for an object
 * (synctrace record --stacks), symbolized. One row per (object, stack), in
 * the order objects appear in the model and, per object, of first use.
 * Absent when the trace has no stacks. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sa_report.h"
#include "sa_symbols_impl.h"

static const struct sa_col stack_cols[] = {
	{ "type", "type", SA_COL_STR },
	{ "vpid", "pid", SA_COL_I64 },
	{ "procname", "process", SA_COL_STR },
	{ "address", "address", SA_COL_HEX },
	{ "instance", "inst", SA_COL_U64 },
	{ "stack", "stack", SA_COL_U64 },       /* 1, 2, ... in order of first use */
	{ "stack_id", "id", SA_COL_HEX },
	{ "uses", "uses", SA_COL_U64 },         /* slow-path events through it */
	{ "site", "call site", SA_COL_STR },    /* the frame that called synctrace */
	{ "frames", "called from", SA_COL_STR }, /* the others, innermost first, " < " */
};
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The stack's id, for the row (the index in the object's list is public). */
static uint64_t stack_id(const struct sa_model *m, const struct sa_object *ob, unsigned k)
{
	struct sa_symbols *s = m->symbols;
	const struct sa_proc *mp = &m->procs[ob->proc];
	struct sa_sym_proc *p = sa_sym_proc(s, mp->trace, mp->vpid, 0);
	int64_t oi = p ? sa_map_get(&s->obj_map, (uint64_t)(p - s->procs), ob->addr) : -1;
	return oi < 0 ? 0 : s->stacks[s->objs[oi].stack[k]].id;
}

static void frames_text(const struct sa_model *m, const struct sa_proc *mp,
			const uint64_t *f, int n, char *out, size_t size)
{
	size_t len = 0;
	out[0] = 0;
	for (int i = 1; i < n && len + 1 < size; i++) {
		char one[256];
		const char *s = sa_symbols_addr(m, mp->trace, mp->vpid, f[i], one, sizeof(one));
		if (!s) {
			snprintf(one, sizeof(one), "0x%" PRIx64, f[i]);
			s = one;
		}
		int w = snprintf(out + len, size - len, "%s%s", i > 1 ? " < " : "", s);
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

void sa_stacks_build(const struct sa_model *m, const struct sa_report_opts *o,
		     struct sa_report *r)
{
	(void)o;
	if (!m->symbols || !m->symbols->nobjs)
		return;
	struct sa_table *t = sa_report_table(r, "stacks.objects", "Call stacks per object",
					     stack_cols, N(stack_cols));
	if (!t)
		return;
	uint64_t rows = 0;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const struct sa_object *ob = &m->objs[i];
		const struct sa_proc *mp = &m->procs[ob->proc];
		const uint64_t *f;
		uint64_t uses;
		int n;
		if (ob->is_class)
			continue; /* its objects' stacks are theirs (folded ones too) */
		for (unsigned k = 0; (n = sa_symbols_object_stack(m, ob, k, &f, &uses)) >= 0; k++) {
			struct sa_cell *c = sa_table_row(t);
			if (!c)
				return;
			char site[256], text[2048];
			sa_cell_str(&c[0], sa_obj_type_name(ob->type));
			sa_set_i(&c[1], mp->vpid);
			sa_cell_str(&c[2], sa_proc_name(m, ob->proc));
			sa_set_u(&c[3], ob->addr);
			sa_set_u(&c[4], ob->instance);
			sa_set_u(&c[5], k + 1);
			sa_set_u(&c[6], stack_id(m, ob, k));
			sa_set_u(&c[7], uses);
			if (f && n > 0) {
				const char *s = sa_symbols_addr(m, mp->trace, mp->vpid, f[0], site,
								sizeof(site));
				if (!s) {
					snprintf(site, sizeof(site), "0x%" PRIx64, f[0]);
					s = site;
				}
				sa_cell_str(&c[8], s);
				frames_text(m, mp, f, n, text, sizeof(text));
				sa_cell_str(&c[9], text);
			}
			rows++;
		}
	}
	sa_table_note(t, "%" PRIu64 " stacks of %u objects; a stack is the program's frames "
		      "at the object's creation or a wait on it (SYNCTRACE_STACKS=1), innermost "
		      "first; unknown frames are module+offset",
		      rows, m->symbols->nobjs);
}
