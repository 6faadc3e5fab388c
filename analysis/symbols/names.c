/* Names the programmer knows: an object's symbol, its init site, or its
 * module+offset; and its class key, stable across runs and processes.
 * (First version: module+offset and call sites only.) */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sa_model.h"
#include "sa_symbols_impl.h"

const char *sa_site_name(const struct sa_model *m, uint32_t proc, uint64_t ip,
			 char *buf, size_t n)
{
	if (!n)
		return buf;
	if (proc < m->nprocs) {
		const struct sa_proc *mp = &m->procs[proc];
		if (sa_symbols_addr(m, mp->trace, mp->vpid, ip, buf, n))
			return buf;
	}
	snprintf(buf, n, "0x%" PRIx64, ip);
	return buf;
}

int sa_object_name(const struct sa_model *m, uint32_t obj, struct sa_objname *out)
{
	if (obj >= m->nobjs)
		return -1;
	memset(out, 0, sizeof(*out));
	const struct sa_object *ob = &m->objs[obj];
	const struct sa_proc *mp = &m->procs[ob->proc];
	const char *type = sa_obj_type_name(ob->type);
	struct sa_sym_proc *p = m->symbols ? sa_sym_proc(m->symbols, mp->trace, mp->vpid, 0)
					   : NULL;
	int mi = p ? sa_sym_module_of(p, ob->addr) : -1;
	if (ob->caller)
		sa_site_name(m, ob->proc, ob->caller, out->site, sizeof(out->site));
	if (mi >= 0) {
		const struct sa_sym_module *mod = &p->mods[mi];
		snprintf(out->name, sizeof(out->name), "%s+0x%" PRIx64,
			 sa_sym_base_name(mod->path), ob->addr - mod->base);
		out->how = SA_NAME_MODULE_OFFSET;
		snprintf(out->klass, sizeof(out->klass), "%s:%s", type, out->name);
	} else {
		snprintf(out->name, sizeof(out->name), "0x%" PRIx64, ob->addr);
		out->how = SA_NAME_ADDRESS;
		snprintf(out->klass, sizeof(out->klass), "%s:%s@%s", type, mp->procname,
			 out->site[0] ? out->site : out->name);
	}
	return 0;
}
