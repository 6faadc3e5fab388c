/* Call sites, part two: addresses → "function at file:line" with elfutils'
 * libdwfl, offline. One Dwfl session per traced process, built on the
 * first lookup from the modules its statedump listed: each module file is
 * reported at the base address it had in that process and used only if
 * its build id is the one the statedump recorded (a rebuilt or upgraded
 * file would name the wrong functions); its debug info is found the
 * standard way (build-id tree, .gnu_debuglink, the file itself). */
#include <elfutils/libdwfl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sa_model.h"
#include "sa_symbols_impl.h"

/* libstdc++'s demangler (the C++ ABI's; the analyzers link libstdc++). */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *n, int *status);

static char *debuginfo_path = NULL;

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

void sa_sym_proc_reset(struct sa_sym_proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	free(p->dwmods);
	for (uint32_t i = 0; i < p->nvars; i++)
		free(p->vars[i].v);
	free(p->vars);
	p->vars = NULL;
	p->nvars = 0;
	free(p->codes);
	p->codes = NULL;
	p->ncodes = p->capcodes = 0;
	sa_map_free(&p->code_map);
	memset(&p->code_map, 0, sizeof(p->code_map));
	p->dwfl = NULL;
	p->dwmods = NULL;
	p->dwfl_tried = 0;
}

const char *sa_sym_base_name(const char *path)
{
	if (!path)
		return "?";
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

static void proc_open(struct sa_sym_proc *p)
{
	p->dwfl_tried = 1;
	Dwfl *d = dwfl_begin(&callbacks);
	p->dwmods = calloc(p->nmods ? p->nmods : 1, sizeof(*p->dwmods));
	if (!d || !p->dwmods) {
		if (d)
			dwfl_end(d);
		return;
	}
	dwfl_report_begin(d);
	for (uint32_t i = 0; i < p->nmods; i++) {
		const struct sa_sym_module *mod = &p->mods[i];
		if (!mod->path || mod->path[0] != '/' || access(mod->path, R_OK))
			continue;
		p->dwmods[i] = dwfl_report_elf(d, sa_sym_base_name(mod->path), mod->path, -1,
					       mod->base, false);
	}
	dwfl_report_end(d, NULL, NULL);
	for (uint32_t i = 0; i < p->nmods; i++) {
		const struct sa_sym_module *mod = &p->mods[i];
		const unsigned char *bits;
		GElf_Addr vaddr;
		if (!p->dwmods[i] || !mod->nbuild_id)
			continue;
		int n = dwfl_module_build_id(p->dwmods[i], &bits, &vaddr);
		if (n != (int)mod->nbuild_id || memcmp(bits, mod->build_id, (size_t)n))
			p->dwmods[i] = NULL; /* not the file that ran */
	}
	p->dwfl = d;
}

/* A module the statedump gave no size (the vDSO: memsz 0) covers at most
 * this much above its base; the stack is often not far above it. */
#define SA_SYM_UNSIZED_SPAN (64u << 10)

int sa_sym_module_of(const struct sa_sym_proc *p, uint64_t addr)
{
	int best = -1;
	for (uint32_t i = 0; i < p->nmods; i++) {
		const struct sa_sym_module *mod = &p->mods[i];
		if (addr < mod->base)
			continue;
		if (mod->memsz && addr - mod->base < mod->memsz)
			return (int)i;
		if (!mod->memsz && addr - mod->base < SA_SYM_UNSIZED_SPAN &&
		    (best < 0 || mod->base > p->mods[best].base))
			best = (int)i;
	}
	return best;
}

const char *sa_sym_demangle(const char *sym, char *buf, size_t n)
{
	if (!sym || strncmp(sym, "_Z", 2))
		return sym;
	int status = -1;
	char *d = __cxa_demangle(sym, NULL, NULL, &status);
	if (!d || status) {
		free(d);
		return sym;
	}
	snprintf(buf, n, "%s", d);
	free(d);
	return buf;
}

Dwfl_Module *sa_sym_dwmod(struct sa_sym_proc *p, int i)
{
	if (!p->dwfl_tried)
		proc_open(p);
	return p->dwmods ? p->dwmods[i] : NULL;
}

/* The cache of symbolized code addresses: *c from an earlier lookup of
 * (addr, is_return), 1; else 0. Its fn may point into its own fnbuf. */
static int code_cached(const struct sa_sym_proc *p, uint64_t addr, int is_return,
		       struct sa_sym_code *c)
{
	int64_t k = sa_map_get(&p->code_map, (uint64_t)is_return, addr);
	if (k < 0)
		return 0;
	*c = p->codes[k];
	if (p->codes[k].fn == p->codes[k].fnbuf)
		c->fn = c->fnbuf;
	return 1;
}

static void code_keep(struct sa_sym_proc *p, uint64_t addr, int is_return,
		      const struct sa_sym_code *c)
{
	if (sa_grow((void **)&p->codes, p->ncodes, &p->capcodes, sizeof(*p->codes)) ||
	    sa_map_put(&p->code_map, (uint64_t)is_return, addr, p->ncodes))
		return;
	p->codes[p->ncodes] = *c;
	if (c->fn == c->fnbuf)
		p->codes[p->ncodes].fn = p->codes[p->ncodes].fnbuf;
	p->ncodes++;
}

int sa_sym_code_at(struct sa_sym_proc *p, uint64_t addr, int is_return, struct sa_sym_code *c)
{
	if (code_cached(p, addr, is_return, c))
		return c->mod ? 0 : -1;
	memset(c, 0, sizeof(*c));
	int i = addr ? sa_sym_module_of(p, addr) : -1;
	if (i < 0) {
		code_keep(p, addr, is_return, c);
		return -1;
	}
	const struct sa_sym_module *mod = &p->mods[i];
	c->mod = sa_sym_base_name(mod->path);
	c->off = addr - mod->base;
	Dwfl_Module *dm = sa_sym_dwmod(p, i);
	if (!dm) {
		code_keep(p, addr, is_return, c);
		return 0;
	}
	/* A return address: the call is the instruction before it. */
	Dwarf_Addr pc = is_return ? addr - 1 : addr;
	c->fn = sa_sym_demangle(dwfl_module_addrname(dm, pc), c->fnbuf, sizeof(c->fnbuf));
	Dwfl_Line *line = dwfl_module_getsrc(dm, pc);
	if (line)
		c->path = dwfl_lineinfo(line, NULL, &c->line, NULL, NULL, NULL);
	c->file = c->path ? sa_sym_base_name(c->path) : NULL;
	code_keep(p, addr, is_return, c);
	return 0;
}

static const char *code_name(const struct sa_model *m, unsigned trace, int32_t vpid,
			     uint64_t addr, int is_return, char *buf, size_t size)
{
	struct sa_symbols *s = m->symbols;
	struct sa_sym_proc *p = s ? sa_sym_proc(s, trace, vpid, 0) : NULL;
	struct sa_sym_code c;
	if (!p || !size || sa_sym_code_at(p, addr, is_return, &c))
		return NULL;
	if (c.fn && c.file)
		snprintf(buf, size, "%s at %s:%d", c.fn, c.file, c.line);
	else if (c.fn)
		snprintf(buf, size, "%s (%s+0x%" PRIx64 ")", c.fn, c.mod, c.off);
	else if (c.file)
		snprintf(buf, size, "%s:%d (%s+0x%" PRIx64 ")", c.file, c.line, c.mod, c.off);
	else
		snprintf(buf, size, "%s+0x%" PRIx64, c.mod, c.off);
	return buf;
}

const char *sa_symbols_addr(const struct sa_model *m, unsigned trace, int32_t vpid,
			    uint64_t addr, char *buf, size_t size)
{
	return code_name(m, trace, vpid, addr, 1, buf, size);
}

const char *sa_symbols_function(const struct sa_model *m, unsigned trace, int32_t vpid,
				uint64_t addr, char *buf, size_t size)
{
	return code_name(m, trace, vpid, addr, 0, buf, size);
}

const char *sa_symbols_object_site(const struct sa_model *m, const struct sa_object *ob,
				   char *buf, size_t size)
{
	if (!m->symbols || ob->proc >= m->nprocs)
		return NULL;
	const struct sa_proc *mp = &m->procs[ob->proc];
	const uint64_t *f;
	uint64_t uses, most = 0, site = ob->caller, others[SA_SYM_OBJ_STACKS];
	unsigned nothers = 0;
	/* With stacks: the site its most used stack entered synctrace from
	 * (the first such on a tie), else its first caller. */
	for (unsigned k = 0; sa_symbols_object_stack(m, ob, k, &f, &uses) >= 0; k++)
		if (f && uses > most) {
			most = uses;
			site = f[0];
		}
	for (unsigned k = 0; sa_symbols_object_stack(m, ob, k, &f, &uses) >= 0; k++) {
		if (!f || f[0] == site)
			continue; /* its frames were lost, or the same site */
		unsigned j = 0;
		while (j < nothers && others[j] != f[0])
			j++;
		if (j == nothers)
			others[nothers++] = f[0];
	}
	if (!sa_symbols_addr(m, mp->trace, mp->vpid, site, buf, size))
		return NULL;
	size_t len = strlen(buf);
	if (nothers && len < size)
		snprintf(buf + len, size - len, " (+%u other site%s)", nothers,
			 nothers > 1 ? "s" : "");
	return buf;
}
