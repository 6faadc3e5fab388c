/* sa_object_name on synthetic events (no LTTng): this program's own file
 * reported by a statedump at two different base addresses (two runs
 * under ASLR, or two processes), its variables and call sites as the
 * objects: the names are the variables', and the klass keys are equal.
 * Also a wrapper recognised from stacks: frames of one site creating
 * objects for two callers. Built -g -O0. */
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sa_model.h"
#include "sa_symbols.h"

pthread_mutex_t unit_lock = PTHREAD_MUTEX_INITIALIZER;
struct unit_table {
	int hits[3];
	pthread_mutex_t locks[4];
} unit_table;

static uint64_t base_lo, base_memsz;

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	(void)size;
	(void)data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		lo = ph->p_vaddr < lo ? ph->p_vaddr : lo;
		hi = ph->p_vaddr + ph->p_memsz > hi ? ph->p_vaddr + ph->p_memsz : hi;
	}
	base_lo = info->dlpi_addr + lo;
	base_memsz = hi - lo;
	return 1;
}

static struct sa_event ev(const char *name, int32_t vpid, int64_t ts)
{
	struct sa_event e;
	memset(&e, 0, sizeof(e));
	e.name = name;
	e.id = sa_event_lookup(name);
	e.vpid = e.vtid = vpid;
	e.ts = ts;
	e.procname = "names_unit";
	return e;
}

static void feed(struct sa_model *m, struct sa_event *e)
{
	sa_symbols_feed(m, e);
	sa_model_feed(m, e);
}

static void statedump(struct sa_model *m, int32_t vpid, uint64_t base, const char *exe)
{
	struct sa_event e = ev("lttng_ust_statedump:bin_info", vpid, 1);
	sa_ev_set(&e, "baddr", (int64_t)base);
	sa_ev_set(&e, "memsz", (int64_t)base_memsz);
	e.nstrings = 1;
	e.s[0].name = "path";
	e.s[0].v = exe;
	feed(m, &e);
}

/* A contended lock of the object at addr in process vpid: model object. */
static uint32_t lock_at(struct sa_model *m, int32_t vpid, uint64_t addr, uint64_t caller, int64_t ts)
{
	struct sa_event e = ev("synctrace_mutex:requested", vpid, ts);
	sa_ev_set(&e, "obj", (int64_t)addr);
	sa_ev_set(&e, "caller", (int64_t)caller);
	sa_ev_set(&e, "owner", 1);
	sa_ev_set(&e, "waiters", 0);
	feed(m, &e);
	for (uint32_t i = 0; i < m->nobjs; i++)
		if (m->objs[i].addr == addr && m->procs[m->objs[i].proc].vpid == vpid)
			return i;
	CHECK(0);
	return 0;
}

/* An init through stack `id` with `frames` (innermost first). */
static uint32_t init_via(struct sa_model *m, int32_t vpid, uint64_t addr, uint64_t id,
			 const uint64_t *frames, unsigned n, int64_t ts)
{
	struct sa_event f = ev("synctrace_stack:frames", vpid, ts);
	sa_ev_set(&f, "id", (int64_t)id);
	f.arr = frames;
	f.narr = n;
	feed(m, &f);
	struct sa_event u = ev("synctrace_stack:use", vpid, ts);
	sa_ev_set(&u, "obj", (int64_t)addr);
	sa_ev_set(&u, "id", (int64_t)id);
	feed(m, &u);
	struct sa_event e = ev("synctrace_mutex:init", vpid, ts + 1);
	sa_ev_set(&e, "obj", (int64_t)addr);
	sa_ev_set(&e, "caller", (int64_t)frames[0]);
	sa_ev_set(&e, "kind", 0);
	feed(m, &e);
	return m->nobjs - 1;
}

/* Return addresses inside three functions of this file (each body's
 * first bytes + 1: looked up one byte before). */
__attribute__((noinline)) static void wrapper_fn(void) { __asm__ volatile(""); }
__attribute__((noinline)) static void caller_a(void) { __asm__ volatile(""); }
__attribute__((noinline)) static void caller_b(void) { __asm__ volatile(""); }

int main(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(n > 0);
	exe[n] = 0;
	dl_iterate_phdr(first_object, NULL);
	const char *mod = strrchr(exe, '/') + 1;
	struct sa_model *m = sa_model_new();
	CHECK(m);
	sa_model_keep_objects(m, 1);
	/* Two processes of this file at different bases: the real one, and
	 * one 16 MiB higher (what ASLR does to a second run). */
	uint64_t bases[2] = { base_lo, base_lo + (16u << 20) };
	uint64_t shift[2] = { 0, 16u << 20 };
	struct sa_objname a[2], b[2];
	for (int p = 0; p < 2; p++) {
		statedump(m, 10 + p, bases[p], exe);
		uint64_t caller = (uint64_t)(uintptr_t)caller_a + 1 + shift[p];
		uint32_t o1 = lock_at(m, 10 + p, (uint64_t)(uintptr_t)&unit_lock + shift[p], caller, 10);
		uint32_t o2 = lock_at(m, 10 + p, (uint64_t)(uintptr_t)&unit_table.locks[2] + shift[p],
				      caller, 11);
		CHECK_EQ(sa_object_name(m, o1, &a[p]), 0);
		CHECK_EQ(sa_object_name(m, o2, &b[p]), 0);
	}
	for (int p = 0; p < 2; p++) {
		CHECK_EQ(a[p].how, SA_NAME_SYMBOL);
		CHECK(!strcmp(a[p].name, "unit_lock"));
		CHECK_EQ(b[p].how, SA_NAME_SYMBOL);
		CHECK(!strcmp(b[p].name, "unit_table.locks[2]"));
		CHECK(!strncmp(a[p].site, "caller_a (names_unit.c:", 23));
	}
	char want[300];
	snprintf(want, sizeof(want), "mutex:%s+0x%llx", mod,
		 (unsigned long long)((uint64_t)(uintptr_t)&unit_lock - base_lo));
	CHECK(!strcmp(a[0].klass, want));
	CHECK(!strcmp(a[0].klass, a[1].klass));
	CHECK(!strcmp(b[0].klass, b[1].klass));
	CHECK(strcmp(a[0].klass, b[0].klass));

	/* A wrapper: one site creating heap objects for two callers; the
	 * objects are named after the callers. */
	uint64_t w = (uint64_t)(uintptr_t)wrapper_fn + 1, ca = (uint64_t)(uintptr_t)caller_a + 1,
		 cb = (uint64_t)(uintptr_t)caller_b + 1;
	uint64_t fa[2] = { w, ca }, fb[2] = { w, cb };
	uint32_t h1 = init_via(m, 10, 0x100000, 0xa, fa, 2, 100);
	uint32_t h2 = init_via(m, 10, 0x200000, 0xb, fb, 2, 200);
	uint32_t h3 = init_via(m, 10, 0x300000, 0xb, fb, 2, 300);
	struct sa_objname x, y, z;
	CHECK_EQ(sa_object_name(m, h1, &x), 0);
	CHECK_EQ(sa_object_name(m, h2, &y), 0);
	CHECK_EQ(sa_object_name(m, h3, &z), 0);
	CHECK_EQ(x.how, SA_NAME_SITE);
	CHECK(!strncmp(x.name, "init in caller_a (names_unit.c:", 31));
	CHECK(!strncmp(y.name, "init in caller_b (names_unit.c:", 31));
	CHECK(!strcmp(y.klass, z.klass));
	CHECK(strcmp(x.klass, y.klass));
	CHECK_EQ(sa_symbols_creation_stack(m, h1), 0xa);
	CHECK_EQ(sa_symbols_creation_stack(m, h3), 0xb);
	/* Without a statedump for the process: the bare address. */
	uint32_t o = lock_at(m, 99, 0x1234, 0x5678, 400);
	CHECK_EQ(sa_object_name(m, o, &x), 0);
	CHECK_EQ(x.how, SA_NAME_ADDRESS);
	CHECK(!strcmp(x.name, "0x1234"));
	char buf[64];
	CHECK(!strcmp(sa_site_name(m, m->objs[o].proc, 0x5678, buf, sizeof(buf)), "0x5678"));
	sa_model_free(m);
	puts("names_unit: symbols, members, klass across bases, wrappers as expected");
	return 0;
}
