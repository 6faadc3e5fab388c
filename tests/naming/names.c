/* sa_object_name over a recorded trace: one line per object of the
 * processes whose name begins with argv[1] (comm, 15 characters at most):
 *   TYPE<TAB>HOW<TAB>NAME<TAB>SITE<TAB>KLASS<TAB>VPID<TAB>SHARED<TAB>INSTANCES
 *   <TAB>WAITS<TAB>RELEASED<TAB>CROSS
 * HOW: symbol, site, module+offset or address; SHARED: the process-shared
 * key (sa_symbols_shared_key) as DEV:INO:OFFSET in hex, or "-" (and "*"
 * appended when the model made it one object of several processes);
 * INSTANCES: 1, or a class's count (objects folded into a class are
 * skipped); WAITS: the object's waits (sa_waits.h), RELEASED: waiters its
 * wakers released, CROSS: those released by a thread of a process none of
 * its waiters belongs to (a post in one process waking a wait in
 * another). Options: -k keep every object (no folding into classes); -p
 * each process's objects its own (no process-shared identity); -s the
 * process-shared identity from sa_symbols_shared_key. Sorted by the caller
 * (check-names.sh), so the order of objects in the model does not matter.
 * usage: names [-k] [-p|-s] PROCNAME TRACE_DIR... (CTF trace directories) */
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

struct waiters {
	uint32_t obj;
	unsigned n;
	uint32_t proc[8];
};

static void note_waiter(void *ctx, uint32_t thread, uint32_t obj, enum sa_wait_kind k,
			const struct sa_wait_stat *s)
{
	struct waiters *w = ctx;
	(void)k;
	(void)s;
	if (obj == w->obj && w->n < 8)
		w->proc[w->n++] = thread; /* a thread index, made a process below */
}

/* WAITS, RELEASED and CROSS of object i. */
static void waits_of(const struct sa_model *m, uint32_t i, uint64_t out[3])
{
	const struct sa_object *ob = &m->objs[i];
	out[0] = out[1] = out[2] = 0;
	for (int k = 0; k < SA_WAIT_NKINDS; k++) {
		const struct sa_wait_stat *s = sa_object_wait(ob, (enum sa_wait_kind)k);
		out[0] += s ? s->waits : 0;
	}
	struct waiters w = { .obj = i };
	sa_model_each_pair(m, note_waiter, &w);
	for (unsigned j = 0; j < w.n; j++)
		w.proc[j] = m->threads[w.proc[j]].proc;
	const struct sa_waker *k;
	unsigned n = sa_object_wakers(m, i, &k);
	for (unsigned j = 0; j < n; j++) {
		int same = 0;
		for (unsigned q = 0; q < w.n; q++)
			same |= w.proc[q] == m->threads[k[j].thread].proc;
		out[1] += k[j].released;
		out[2] += same ? 0 : k[j].released;
	}
}

int main(int argc, char **argv)
{
	int keep = 0, shared = 0; /* 0 the model's default, -1 off, 1 on */
	for (; argc > 1 && argv[1][0] == '-'; argc--, argv++) {
		if (!strcmp(argv[1], "-k"))
			keep = 1;
		else if (!strcmp(argv[1], "-p"))
			shared = -1;
		else if (!strcmp(argv[1], "-s"))
			shared = 1;
		else
			break;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: names [-k] [-p|-s] PROCNAME TRACE_DIR...\n");
		return 2;
	}
	struct sa_sink_state st;
	struct sa_graph_classes cls = { 0 };
	memset(&st, 0, sizeof(st));
	st.model = sa_model_new();
	st.out = stdout;
	if (!st.model || sa_graph_classes_get(&cls, 0))
		return 2;
	sa_model_keep_objects(st.model, keep);
	if (shared)
		st.model->shared_key = shared > 0 ? sa_symbols_shared_key : NULL;
	int rc = sa_graph_read(&cls, &st, argv + 2, (unsigned)(argc - 2), 0);
	if (rc >= 2)
		return rc;
	const struct sa_model *m = st.model;
	for (uint32_t i = 0; i < m->nobjs; i++) {
		struct sa_objname n;
		const struct sa_object *ob = &m->objs[i];
		if (strncmp(m->procs[ob->proc].procname, argv[1], strlen(argv[1])) ||
		    ob->type == SA_OBJ_UNKNOWN || !ob->instances)
			continue;
		if (sa_object_name(m, i, &n))
			return 1;
		const struct sa_proc *p = &m->procs[ob->proc];
		uint64_t key[3];
		char key_text[64] = "-";
		if (sa_symbols_shared_key(m, p->trace, p->vpid, ob->addr, key))
			snprintf(key_text, sizeof(key_text), "%" PRIx64 ":%" PRIx64 ":%" PRIx64 "%s",
				 key[0], key[1], key[2], ob->shared ? "*" : "");
		uint64_t w[3];
		waits_of(m, i, w);
		printf("%s\t%s\t%s\t%s\t%s\t%d\t%s\t%u\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n",
		       sa_obj_type_name(ob->type), how_name(n.how), n.name, n.site, n.klass,
		       (int)p->vpid, key_text, ob->instances, w[0], w[1], w[2]);
	}
	sa_graph_classes_put(&cls);
	sa_sink_state_clear(&st);
	sa_model_free(st.model);
	return 0;
}
