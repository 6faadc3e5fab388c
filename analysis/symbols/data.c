/* Data addresses → the variable the programmer declared: the ELF symbol
 * covering the address (.symtab where the file or its debug info has one,
 * so file-local statics too; .dynsym otherwise), then, with DWARF, the
 * member path inside it ("stats.lock", "table[3].mtx"), descending
 * members and array elements until the part at the address is no larger
 * than the object. Without DWARF the offset stays: "stats+0x40".
 *
 * The DWARF part needs the variable's DIE from its address; DWARF indexes
 * code addresses, not data, so each module's variables with a fixed
 * location (DW_OP_addr, at CU level or in namespaces) are listed once, on
 * its first data lookup, sorted by address: one pass over the CUs' top
 * DIEs, then binary searches. */
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa_symbols_impl.h"

static int var_push(struct sa_sym_vars *vs, uint32_t *cap, uint64_t addr, uint64_t die)
{
	if (vs->n == *cap) {
		uint32_t c = *cap ? *cap * 2 : 64;
		struct sa_sym_var *v = realloc(vs->v, c * sizeof(*v));
		if (!v)
			return -1;
		vs->v = v;
		*cap = c;
	}
	vs->v[vs->n].addr = addr;
	vs->v[vs->n++].die = die;
	return 0;
}

/* The variable's fixed address: a location that is one DW_OP_addr. */
static int var_addr(Dwarf_Die *die, uint64_t *addr)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops;
	if (!dwarf_attr(die, DW_AT_location, &a) || dwarf_getlocation(&a, &ops, &nops) || nops != 1 ||
	    ops[0].atom != DW_OP_addr)
		return 0;
	*addr = ops[0].number;
	return 1;
}

static void scan_children(Dwarf_Die *parent, struct sa_sym_vars *vs, uint32_t *cap, int depth)
{
	Dwarf_Die d;
	if (depth > 8 || dwarf_child(parent, &d))
		return;
	do {
		int tag = dwarf_tag(&d);
		uint64_t addr;
		if (tag == DW_TAG_variable && var_addr(&d, &addr))
			var_push(vs, cap, addr, dwarf_dieoffset(&d));
		else if (tag == DW_TAG_namespace)
			scan_children(&d, vs, cap, depth + 1);
	} while (dwarf_siblingof(&d, &d) == 0);
}

static int var_cmp(const void *a, const void *b)
{
	const struct sa_sym_var *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void vars_build(Dwarf *dw, struct sa_sym_vars *vs)
{
	uint32_t cap = 0;
	Dwarf_Off off = 0, next;
	size_t hsize;
	vs->built = 1;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		if (dwarf_offdie(dw, off + hsize, &cu))
			scan_children(&cu, vs, &cap, 0);
		off = next;
	}
	if (vs->n)
		qsort(vs->v, vs->n, sizeof(*vs->v), var_cmp);
}

static const struct sa_sym_var *var_find(const struct sa_sym_vars *vs, uint64_t addr)
{
	uint32_t lo = 0, hi = vs->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (vs->v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < vs->n && vs->v[lo].addr == addr ? &vs->v[lo] : NULL;
}

static int type_of(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute a;
	return dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, type) ? 0 : -1;
}

static int member_offset(Dwarf_Die *m, uint64_t *off)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	if (!dwarf_attr(m, DW_AT_data_member_location, &a)) {
		*off = 0; /* union members */
		return 0;
	}
	if (dwarf_formudata(&a, &w))
		return -1; /* a location expression: old DWARF, not followed */
	*off = w;
	return 0;
}

/* Append the member path of offset `off` into type t to buf[len..n). */
static void member_path(Dwarf_Die *t, uint64_t off, uint64_t objsize, char *buf, size_t n)
{
	size_t len = strlen(buf);
	Dwarf_Die cur = *t;
	for (int depth = 0; depth < 16 && len + 1 < n; depth++) {
		Dwarf_Die pt;
		Dwarf_Word size;
		if (dwarf_peel_type(&cur, &pt) || dwarf_aggregate_size(&pt, &size))
			break;
		if (off == 0 && size <= objsize)
			break; /* the object itself */
		int tag = dwarf_tag(&pt), found = 0;
		if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
		    tag == DW_TAG_union_type) {
			Dwarf_Die m;
			if (dwarf_child(&pt, &m))
				break;
			do {
				int mt = dwarf_tag(&m);
				Dwarf_Die mtype, mpt;
				Dwarf_Word msize;
				uint64_t moff;
				if ((mt != DW_TAG_member && mt != DW_TAG_inheritance) ||
				    member_offset(&m, &moff) || type_of(&m, &mtype) ||
				    dwarf_peel_type(&mtype, &mpt) || dwarf_aggregate_size(&mpt, &msize))
					continue;
				if (off < moff || off - moff >= msize || msize < objsize)
					continue;
				const char *name = mt == DW_TAG_member ? dwarf_diename(&m) : NULL;
				if (name) {
					int w = snprintf(buf + len, n - len, ".%s", name);
					len = w < 0 ? n : len + (size_t)w;
				}
				off -= moff;
				cur = mtype;
				found = 1;
				break;
			} while (dwarf_siblingof(&m, &m) == 0);
		} else if (tag == DW_TAG_array_type) {
			Dwarf_Die et, ept;
			Dwarf_Word esize;
			if (type_of(&pt, &et) || dwarf_peel_type(&et, &ept) ||
			    dwarf_aggregate_size(&ept, &esize) || !esize || esize < objsize)
				break;
			int w = snprintf(buf + len, n - len, "[%" PRIu64 "]", off / esize);
			len = w < 0 ? n : len + (size_t)w;
			off %= esize;
			cur = et;
			found = 1;
		}
		if (!found)
			break;
	}
	if (off && len + 1 < n)
		snprintf(buf + len, n - len, "+0x%" PRIx64, off);
}

/* "lock.0" (a function's static, as GCC names it) → "lock". */
static void strip_local_suffix(char *s)
{
	char *dot = strrchr(s, '.');
	if (!dot || dot == s || !dot[1])
		return;
	for (const char *c = dot + 1; *c; c++)
		if (*c < '0' || *c > '9')
			return;
	*dot = 0;
}

int sa_sym_data_at(struct sa_sym_proc *p, uint64_t addr, uint64_t objsize, char *buf, size_t n)
{
	int i = sa_sym_module_of(p, addr);
	Dwfl_Module *dm = i >= 0 ? sa_sym_dwmod(p, i) : NULL;
	if (!dm || !n)
		return -1;
	GElf_Off off;
	GElf_Sym sym;
	const char *name = dwfl_module_addrinfo(dm, addr, &off, &sym, NULL, NULL, NULL);
	int type = name ? GELF_ST_TYPE(sym.st_info) : STT_NOTYPE;
	if (!name || (type != STT_OBJECT && type != STT_COMMON && type != STT_TLS) ||
	    off >= sym.st_size)
		return -1;
	char dem[256];
	snprintf(buf, n, "%s", sa_sym_demangle(name, dem, sizeof(dem)));
	strip_local_suffix(buf);
	/* The member inside it, from the variable's type. */
	Dwarf_Addr bias;
	Dwarf *dw = dwfl_module_getdwarf(dm, &bias);
	if (dw && !p->vars && p->nmods) {
		p->vars = calloc(p->nmods, sizeof(*p->vars));
		p->nvars = p->vars ? p->nmods : 0;
	}
	if (!dw || (uint32_t)i >= p->nvars) {
		if (off && strlen(buf) + 1 < n)
			snprintf(buf + strlen(buf), n - strlen(buf), "+0x%" PRIx64, (uint64_t)off);
		return 0;
	}
	struct sa_sym_vars *vs = &p->vars[i];
	if (!vs->built)
		vars_build(dw, vs);
	const struct sa_sym_var *v = var_find(vs, addr - off - bias);
	Dwarf_Die die, type_die;
	if (v && dwarf_offdie(dw, v->die, &die) && !type_of(&die, &type_die))
		member_path(&type_die, off, objsize, buf, n);
	else if (off && strlen(buf) + 1 < n)
		snprintf(buf + strlen(buf), n - strlen(buf), "+0x%" PRIx64, (uint64_t)off);
	return 0;
}
