/* Report helpers shared by the modules (sa_report_util.h). */
#include <stdlib.h>
#include <string.h>

#include "sa_report_util.h"
#include "sa_symbols.h"

struct sa_table *sa_report_table(struct sa_report *r, const char *name, const char *title,
				 const struct sa_col *cols, unsigned ncols)
{
	if (r->n == r->cap) {
		unsigned c = r->cap ? r->cap * 2 : 8;
		struct sa_table **p = realloc(r->tables, c * sizeof(*p));
		if (!p)
			return NULL;
		r->tables = p;
		r->cap = c;
	}
	struct sa_table *t = malloc(sizeof(*t));
	if (!t)
		return NULL;
	r->tables[r->n++] = t;
	sa_table_init(t, name, title, cols, ncols);
	return t;
}

const struct sa_table *sa_report_find(const struct sa_report *r, const char *name)
{
	for (unsigned i = 0; i < r->n; i++)
		if (!strcmp(r->tables[i]->name, name))
			return r->tables[i];
	return NULL;
}

const char *sa_proc_name(const struct sa_model *m, uint32_t proc)
{
	return proc < m->nprocs ? m->procs[proc].procname : "";
}

int sa_lower_bounds(const struct sa_model *m)
{
	return m->ndiscards > 0;
}

int sa_sampled_line(const struct sa_model *m, char *buf, size_t len)
{
	uint64_t lo = 0, hi = 0;
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->nprocs; i++) {
		uint64_t t = m->procs[i].threshold_ns;
		if (!t)
			continue;
		if (!n++ || t < lo)
			lo = t;
		if (t > hi)
			hi = t;
	}
	if (!n)
		return 0;
	char a[32], b[32], range[80], who[64] = "";
	sa_fmt_ns(a, sizeof(a), (double)lo);
	sa_fmt_ns(b, sizeof(b), (double)hi);
	if (lo == hi)
		snprintf(range, sizeof(range), "%s", a);
	else
		snprintf(range, sizeof(range), "%s to %s", a, b);
	if (m->nprocs > 1)
		snprintf(who, sizeof(who), ", %u of %u processes", n, m->nprocs);
	snprintf(buf, len, "SAMPLED: waits shorter than %s (--threshold%s) are counted from "
		 "summaries, not recorded: counts and wait totals are exact; who made them wait "
		 "and their wake outcomes are the longer waits' only.", range, who);
	return 1;
}

void sa_set_u(struct sa_cell *c, uint64_t v)
{
	c->null = 0;
	c->u = v;
}

void sa_set_i(struct sa_cell *c, int64_t v)
{
	c->null = 0;
	c->i = v;
}

void sa_set_f(struct sa_cell *c, double v)
{
	c->null = 0;
	c->f = v;
}

void sa_set_hist(struct sa_cell *c, const struct sa_dist *d)
{
	sa_cell_hist(c, d->log2, (unsigned)sa_dist_nbuckets(d));
}

uint64_t sa_dist_mean(const struct sa_dist *d)
{
	return d->n ? d->sum / d->n : 0;
}

uint32_t sa_obj_instances(const struct sa_object *o)
{
	return o->instances ? o->instances + o->unrecorded : 0;
}

void sa_id_fill(const struct sa_model *m, uint32_t obj, struct sa_cell *c)
{
	const struct sa_object *ob = &m->objs[obj];
	struct sa_objname nm;
	sa_cell_str(&c[SA_ID_TYPE], sa_obj_type_name(ob->type));
	sa_set_i(&c[SA_ID_VPID], m->procs[ob->proc].vpid);
	sa_cell_str(&c[SA_ID_PROC], sa_proc_name(m, ob->proc));
	sa_set_u(&c[SA_ID_ADDR], ob->addr);
	sa_set_u(&c[SA_ID_INST], ob->instance);
	sa_set_u(&c[SA_ID_INSTANCES], sa_obj_instances(ob));
	if (sa_object_name(m, obj, &nm))
		return;
	sa_cell_str(&c[SA_ID_NAME], nm.name);
	sa_cell_str(&c[SA_ID_CLASS], nm.klass);
	if (nm.site[0])
		sa_cell_str(&c[SA_ID_SITE], nm.site);
}
