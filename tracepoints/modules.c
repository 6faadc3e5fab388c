/* The loaded objects, for meta:module (events/meta.def): what the analyzer
 * needs to name addresses (base, span, path, build ID), read from the
 * dynamic linker's list (dl_iterate_phdr) and the program headers and
 * notes it maps anyway. No file is opened: lttng-ust's base-address
 * statedump and its dl helper open every object again, six times each,
 * which costs a traced process ~10 ms at start (bench/README.md).
 *
 * Memory and concurrency: the list is copied (paths included) while the
 * dynamic linker holds its lock, into static storage (no allocation: the
 * lazy announcement may be made by a sem_post in a signal handler), and
 * emitted after it, so a dlclose on another thread cannot free what is
 * being written. The copy and the emitted set belong to whoever holds
 * st_mod_busy, taken only by these rare calls (an announcement, a
 * dlopen), never on a primitive's path; like the announcement itself, a
 * signal handler that emits while its own thread is here would wait for
 * itself. */
#include <link.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "modules.h"
#include "st_batch.h"

#ifndef ST_MODULES_MAX /* objects a pass copies; a test sets fewer */
#define ST_MODULES_MAX 1024
#endif
#define ST_MODULES_SEEN 4096 /* objects the emitted set holds */

static struct st_module st_mod_list[ST_MODULES_MAX];
static char st_mod_paths[ST_MODULES_MAX][ST_MODULE_PATH_MAX];
static unsigned st_mod_n;
static int st_mod_more; /* the pass left objects out: another one is due */
/* The emitted set: base and path hash of each object emitted since the
 * last full list. */
static struct {
	uint64_t baddr;
	uint32_t hash;
} st_mod_seen[ST_MODULES_SEEN];
static unsigned st_mod_nseen;
static volatile int st_mod_busy;

/* The GNU build ID from the object's notes, as mapped. */
static unsigned build_id_of(const struct dl_phdr_info *info, uint8_t *out)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
		const char *end = p + ph->p_memsz;
		size_t align = ph->p_align == 8 ? 8 : 4;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
			const char *name = p + sizeof(*nh);
			const char *desc = name + ((nh->n_namesz + align - 1) & ~(align - 1));
			const char *next = desc + ((nh->n_descsz + align - 1) & ~(align - 1));
			if (desc + nh->n_descsz > end)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(name, "GNU", 4) && nh->n_descsz <= ST_BUILD_ID_MAX) {
				memcpy(out, desc, nh->n_descsz);
				return nh->n_descsz;
			}
			p = next;
		}
	}
	return 0;
}

/* One pass over the dynamic linker's list: the objects from the skip-th
 * on, as many as the copy holds. */
struct pass {
	unsigned skip, index;
};

static int collect_one(struct dl_phdr_info *info, size_t size, void *data)
{
	struct pass *p = data;
	(void)size;
	if (p->index++ < p->skip)
		return 0;
	/* PT_LOAD entries come in ascending p_vaddr order (the ELF rule). */
	uint64_t lo = UINT64_MAX, hi = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		if (lo == UINT64_MAX)
			lo = ph->p_vaddr;
		hi = ph->p_vaddr + ph->p_memsz;
	}
	if (lo == UINT64_MAX)
		return 0;
	if (st_mod_n == ST_MODULES_MAX) {
		st_mod_more = 1;
		return 0;
	}
	struct st_module *m = &st_mod_list[st_mod_n];
	char *path = st_mod_paths[st_mod_n];
	const char *name = info->dlpi_name;
	if (!name || !*name) { /* the program */
		ssize_t k = readlink("/proc/self/exe", path, ST_MODULE_PATH_MAX - 1);
		path[k > 0 ? k : 0] = 0;
	} else {
		size_t k = strnlen(name, ST_MODULE_PATH_MAX - 1);
		memcpy(path, name, k);
		path[k] = 0;
	}
	m->path = path;
	m->baddr = info->dlpi_addr + lo; /* as lttng-ust's statedump gives baddr */
	m->memsz = hi - lo;
	m->nbuild_id = build_id_of(info, m->build_id);
	st_mod_n++;
	return 0;
}

static int seen(uint64_t baddr, uint32_t hash)
{
	for (unsigned i = 0; i < st_mod_nseen; i++)
		if (st_mod_seen[i].baddr == baddr && st_mod_seen[i].hash == hash)
			return 1;
	return 0;
}

int st_modules_each(int all, void (*emit)(const struct st_module *, int first))
{
	while (__atomic_exchange_n(&st_mod_busy, 1, __ATOMIC_ACQUIRE))
		sched_yield();
	if (all)
		st_mod_nseen = 0;
	int first = all, n = 0;
	/* More objects than the copy holds: as many passes as it takes (the
	 * list may change between them; what is emitted twice, analyzers
	 * take again, and beyond the emitted set's room an object is
	 * emitted again after each dlopen). */
	for (unsigned skip = 0;; skip += ST_MODULES_MAX) {
		struct pass p = { skip, 0 };
		st_mod_n = 0, st_mod_more = 0;
		dl_iterate_phdr(collect_one, &p);
		for (unsigned i = 0; i < st_mod_n; i++) {
			const struct st_module *m = &st_mod_list[i];
			uint32_t h = st_batch_hash(m->path);
			if (!all && seen(m->baddr, h))
				continue;
			emit(m, first);
			first = 0;
			n++;
			if (st_mod_nseen < ST_MODULES_SEEN) {
				st_mod_seen[st_mod_nseen].baddr = m->baddr;
				st_mod_seen[st_mod_nseen++].hash = h;
			}
		}
		if (!st_mod_more)
			break;
	}
	__atomic_store_n(&st_mod_busy, 0, __ATOMIC_RELEASE);
	return n;
}

void st_modules_forked(void)
{
	/* the only thread now: a copy another thread was making is void */
	__atomic_store_n(&st_mod_busy, 0, __ATOMIC_RELEASE);
}
