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

/* A code address symbolized: each part NULL (or 0) when unknown. */
struct sa_sym_code {
	const char *fn;   /* function, demangled */
	const char *path; /* source file as the debug info has it */
	const char *file; /* its base name */
	int line;
	const char *mod;  /* module file name */
	uint64_t off;     /* address - module base */
	char fnbuf[256];
};
/* A shared mapping holding a process-shared object (meta:mapping). */
struct sa_sym_shm {
	uint64_t start, end, offset, dev, ino;
	char *path;
};

struct sa_sym_proc {
	unsigned trace;
	int32_t vpid;
	struct sa_sym_module *mods;
	uint32_t nmods, capmods;
	void *dwfl;                 /* Dwfl *, built on the first lookup */
	int dwfl_tried;
	void **dwmods;              /* Dwfl_Module * per mods[i], or NULL: not usable */
	struct sa_sym_vars *vars;   /* per mods[i], built on its first data lookup */
	uint32_t nvars;             /* entries of vars (nmods when it was made) */
	struct sa_sym_shm *shms;
	uint32_t nshms, capshms;
	/* Code addresses symbolized so far (resolve.c), by (is_return, addr);
	 * the strings point into libdwfl's session, so reset with it. */
	struct sa_sym_code *codes;
	uint32_t ncodes, capcodes;
	struct sa_map code_map;
};

/* A module's variables with a fixed address (from DWARF), by address. */
struct sa_sym_var {
	uint64_t addr;              /* file address (DW_OP_addr) */
	uint64_t die;               /* its DIE's offset */
};
struct sa_sym_vars {
	int built;
	uint32_t n;
	struct sa_sym_var *v;
};

struct sa_sym_wrap {
	uint64_t caller;            /* the first frame seen calling it */
	uint32_t callers;           /* 1, or 2: called from more than one place */
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

/* What began an object's instances at one address, in time order: its
 * init events and the events that carried a stack (stack:use right
 * before them), consecutive ones with the same stack and kind merged. */
#define SA_SYM_NO_STACK UINT32_MAX
struct sa_sym_run {
	int64_t first_ts, last_ts;
	uint32_t stack;             /* index in sa_symbols.stacks, or SA_SYM_NO_STACK */
	uint32_t init;              /* 1: init events */
};
struct sa_sym_hist {
	struct sa_sym_run *runs;
	uint32_t n, cap;
};

/* A thread's stack:use awaiting its event. */
struct sa_sym_pend {
	uint64_t obj;
	uint32_t stack;
	int live;
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
	struct sa_sym_hist *hists;
	uint32_t nhists, caphists;
	struct sa_map hist_map;     /* (proc, object address) → hists */
	struct sa_sym_pend *pends;
	uint32_t npends, cappends, npend_live;
	struct sa_map pend_map;     /* (proc, vtid) → pends */
	struct sa_sym_wrap *wraps;  /* names.c: frames that are wrappers */
	uint32_t nwraps, capwraps, wraps_built; /* built: model objects + 1 */
	struct sa_map wrap_map;     /* (proc, frame) → wraps */
	struct sa_map shinit_map;   /* names.c: (dev ^ ino, offset) → the object that inited it */
	uint32_t shinit_built;
	uint32_t nshms;             /* mappings announced, all processes */
};

/* The shared mapping of p covering addr, or NULL; _find also takes one
 * another process of p's trace announced at that address (symbols.c). */
const struct sa_sym_shm *sa_sym_shm_of(const struct sa_sym_proc *p, uint64_t addr);
const struct sa_sym_shm *sa_sym_shm_find(const struct sa_symbols *s, const struct sa_sym_proc *p,
				       uint64_t addr);

/* The run that began instance [first_ts, last_ts] of the object at addr
 * in p: the first one overlapping it; NULL when none. */
const struct sa_sym_run *sa_sym_run_of(const struct sa_symbols *s, const struct sa_sym_proc *p,
				       uint64_t addr, int64_t first_ts, int64_t last_ts);

struct sa_sym_proc *sa_sym_proc(struct sa_symbols *s, unsigned trace, int32_t vpid, int create);
/* Forget the process's libdwfl session (its modules changed). */
void sa_sym_proc_reset(struct sa_sym_proc *p);
/* The index of the module containing addr in p->mods, or -1. */
int sa_sym_module_of(const struct sa_sym_proc *p, uint64_t addr);
/* The file name of a path ("?" for NULL). */
const char *sa_sym_base_name(const char *path);

/* The libdwfl module of p->mods[i] (opening p's session on first use),
 * or NULL when its file is missing or not the one that ran. */
struct Dwfl_Module *sa_sym_dwmod(struct sa_sym_proc *p, int i);

/* Symbolize addr (is_return: a return address, looked up one byte
 * before). 0, or -1 when no module of p covers it (*c all unknown). */
int sa_sym_code_at(struct sa_sym_proc *p, uint64_t addr, int is_return, struct sa_sym_code *c);
/* sym demangled into buf when it is a C++ name, else sym itself. */
const char *sa_sym_demangle(const char *sym, char *buf, size_t n);
/* The data symbol covering addr in p ("queue_lock", "stats.lock" with
 * the debug info's members, "stats+0x40" without; objsize: the object's
 * size, where member descent stops) in buf: 0, or -1 when none. */
int sa_sym_data_at(struct sa_sym_proc *p, uint64_t addr, uint64_t objsize, char *buf, size_t n);

#endif
