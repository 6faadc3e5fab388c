/* sa_object_name over a recorded trace: one line per object of the
 * processes whose name begins with argv[1] (comm, 15 characters at most):
 *   TYPE<TAB>HOW<TAB>NAME<TAB>SITE<TAB>KLASS<TAB>VPID<TAB>SHARED
 * HOW: symbol, site, module+offset or address; SHARED: the process-shared
 * key (sa_symbols_shared_key) as DEV:INO:OFFSET in hex, or "-". Sorted by the caller
 * (check-names.sh), so the order of objects in the model does not matter.
 * usage: names PROCNAME TRACE_DIR... (each a CTF trace directory) */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sa_graph.h"
#include "sa_symbols.h"

static const char *how_name(enum sa_name_how h)
{
	switch (h) {
	case SA_NAME_SYMBOL: return "symbol";
	case SA_NAME_SITE: return "site";
	case SA_NAME_MODULE_OFFSET: return "module+offset";
	default: return "address";
	}
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: names PROCNAME TRACE_DIR...\n");
		return 2;
	}
	struct sa_sink_state st;
	struct sa_graph_classes cls = { 0 };
	memset(&st, 0, sizeof(st));
	st.model = sa_model_new();
	st.out = stdout;
	if (!st.model || sa_graph_classes_get(&cls, 0))
		return 2;
	int rc = sa_graph_read(&cls, &st, argv + 2, (unsigned)(argc - 2), 0);
	if (rc >= 2)
		return rc;
	const struct sa_model *m = st.model;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		struct sa_objname n;
		const struct sa_object *ob = &m->objs[i];
		if (strncmp(m->procs[ob->proc].procname, argv[1], strlen(argv[1])) ||
		    ob->type == SA_OBJ_UNKNOWN)
			continue;
		if (sa_object_name(m, i, &n))
			return 1;
		const struct sa_proc *p = &m->procs[ob->proc];
		uint64_t key[3];
		char shared[64] = "-";
		if (sa_symbols_shared_key(m, p->trace, p->vpid, ob->addr, key))
			snprintf(shared, sizeof(shared), "%" PRIx64 ":%" PRIx64 ":%" PRIx64, key[0],
				 key[1], key[2]);
		printf("%s\t%s\t%s\t%s\t%s\t%d\t%s\n", sa_obj_type_name(ob->type), how_name(n.how),
		       n.name, n.site, n.klass, (int)p->vpid, shared);
	}
	sa_graph_classes_put(&cls);
	sa_sink_state_clear(&st);
	sa_model_free(st.model);
	return 0;
}
