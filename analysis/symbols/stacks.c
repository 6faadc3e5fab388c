/* Stack ids for reports: the id of an object's k-th stack (the table
 * itself is analysis/report/stacks.c). */
#include "sa_model.h"
#include "sa_symbols_impl.h"

uint64_t sa_symbols_object_stack_id(const struct sa_model *m, const struct sa_object *ob,
				    unsigned k)
{
	struct sa_symbols *s = m->symbols;
	if (!s)
		return 0;
	const struct sa_proc *mp = &m->procs[ob->proc];
	struct sa_sym_proc *p = sa_sym_proc(s, mp->trace, mp->vpid, 0);
	int64_t oi = p ? sa_map_get(&s->obj_map, (uint64_t)(p - s->procs), ob->addr) : -1;
	return oi < 0 ? 0 : s->stacks[s->objs[oi].stack[k]].id;
}
