/* The call-site module's state (symbols.c collects, resolve.c symbolizes). */
#ifndef SA_SYMBOLS_IMPL_H
#define SA_SYMBOLS_IMPL_H

#include <stdint.h>

#include "sa_map.h"
#include "sa_symbols.h"

#define SA_SYM_OBJ_STACKS 8 /* stacks kept per object; beyond, only counted */

struct sa_sym_module {
	uint64_t base, memsz;       /* where it was mapped (statedump baddr) */
	char *path;                 /* as the traced process saw it */
	unsigned char *build_id;    /* NULL when the statedump had none */
	unsigned nbuild_id;
	char *debug_link;           /* .gnu_debuglink file name, or NULL */
};

struct sa_sym_proc {
	unsigned trace;
	int32_t vpid;
	struct sa_sym_module *mods;
	uint32_t nmods, capmods;
	void *dwfl;                 /* Dwfl *, built on the first lookup */
	int dwfl_tried;
	void **dwmods;              /* Dwfl_Module * per mods[i], or NULL: not usable */
};

struct sa_sym_stack {
	uint64_t id;
	uint64_t *frames;           /* NULL until its stack:frames is seen */
	unsigned n;
};

struct sa_sym_obj {
	uint32_t n;                 /* stacks used, in order of first use */
	uint32_t stack[SA_SYM_OBJ_STACKS]; /* index in sa_symbols.stacks */
	uint64_t uses[SA_SYM_OBJ_STACKS];
	uint64_t more;              /* uses of stacks beyond the first eight */
};

struct sa_symbols {
	struct sa_sym_proc *procs;
	uint32_t nprocs, capprocs;
	struct sa_sym_stack *stacks;
	uint32_t nstacks, capstacks;
	struct sa_sym_obj *objs;
	uint32_t nobjs, capobjs;
	struct sa_map proc_map;     /* (trace, vpid) → procs */
	struct sa_map stack_map;    /* (proc, stack id) → stacks */
	struct sa_map obj_map;      /* (proc, object address) → objs */
};

struct sa_sym_proc *sa_sym_proc(struct sa_symbols *s, unsigned trace, int32_t vpid, int create);
/* Forget the process's libdwfl session (its modules changed). */
void sa_sym_proc_reset(struct sa_sym_proc *p);
/* The index of the module containing addr in p->mods, or -1. */
int sa_sym_module_of(const struct sa_sym_proc *p, uint64_t addr);
/* The file name of a path ("?" for NULL). */
const char *sa_sym_base_name(const char *path);

#endif
