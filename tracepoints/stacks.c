/* Call stacks at slow-path events (SYNCTRACE_STACKS=1).
 *
 * MECHANISM
 *   The probe table's entries for the events that begin a wait or create an
 *   object (`wrapped` below) are replaced by wrappers. A wrapper runs where
 *   the probe would: inside libsynctrace.so's trace guard, so the locks
 *   libunwind takes (our mutexes) emit nothing. It takes the stack with
 *   libunwind's unw_backtrace, drops the frames that lie in
 *   synctrace's own code (both libraries) and libunwind, hashes the rest
 *   into a stack id, emits stack:frames the first time this process sees
 *   that id, then stack:use (obj, id), then the original event: the use
 *   precedes its event on the same thread.
 *
 *   libunwind is dlopen'ed RTLD_LOCAL, only when stacks are asked for: its
 *   weak `backtrace` (and its _Unwind_* functions) never enter the global
 *   scope, so the program's backtrace() stays glibc's. (libunwind.a is not
 *   built -fPIC on Debian, so it cannot be linked into this library.)
 *
 * DEDUPLICATION
 *   A fixed table of ids in .bss, open addressing, insert by CAS, never
 *   removed: no allocation on a lock path. Two threads meeting the same new
 *   stack race on the CAS; exactly one emits its frames. When the table is
 *   crowded a stack's frames are emitted again (analyzers keep the first).
 *   A forked child starts with an empty table: it is another process.
 *
 * LIMITATION
 *   libunwind's first unwind through a code address looks it up with
 *   dl_iterate_phdr, which takes the dynamic loader's lock (later unwinds
 *   hit its cache). A thread that meets a contended lock while another
 *   thread, inside dlopen (a constructor), waits for a lock the first one
 *   holds, would wait for the loader: stacks are opt-in for that reason. */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stacks.h"

#define ST_STACK_DEPTH 16  /* program frames kept */
#define ST_STACK_WALK 40   /* frames walked (synctrace's own come first) */
#define ST_STACK_SLOTS 8192
#define ST_STACK_PROBES 64

static int (*st_unw_backtrace)(void **buf, int size);
static struct st_probes st_orig;          /* the table as it was */
static uint64_t st_stack_seen[ST_STACK_SLOTS];
static struct st_code_range st_own[ST_MAX_TRACER_RANGES];
static int st_own_n;

static int own_frame(uintptr_t a)
{
	for (int i = 0; i < st_own_n; i++)
		if (a >= st_own[i].lo && a < st_own[i].hi)
			return 1;
	return 0;
}

/* 1 if id is new to this process (the caller emits its frames). */
static int stack_first_seen(uint64_t id)
{
	unsigned k = (unsigned)(id >> 32) % ST_STACK_SLOTS;
	for (unsigned i = 0; i < ST_STACK_PROBES; i++, k = (k + 1) % ST_STACK_SLOTS) {
		uint64_t cur = __atomic_load_n(&st_stack_seen[k], __ATOMIC_RELAXED);
		if (cur == id)
			return 0;
		if (cur)
			continue;
		if (__atomic_compare_exchange_n(&st_stack_seen[k], &cur, id, 0,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return 1;
		if (cur == id) /* another thread inserted this very stack */
			return 0;
	}
	return 1; /* crowded: emit again */
}

static void stack_note(const void *obj)
{
	void *buf[ST_STACK_WALK];
	uint64_t frames[ST_STACK_DEPTH];
	int n = st_unw_backtrace(buf, ST_STACK_WALK);
	unsigned k = 0;
	uint64_t h = 0x84222325cbf29ce4ull;
	for (int i = 0; i < n && k < ST_STACK_DEPTH; i++) {
		if (own_frame((uintptr_t)buf[i]))
			continue; /* our entry points, a thread's start wrapper */
		frames[k++] = (uint64_t)(uintptr_t)buf[i];
		h = (h ^ (uint64_t)(uintptr_t)buf[i]) * 0x100000001b3ull;
		h ^= h >> 31;
	}
	if (!k)
		return;
	h = (h ^ k) * 0x9E3779B97F4A7C15ull;
	if (!h)
		h = 1;
	if (stack_first_seen(h))
		st_orig.stack_frames(h, frames, k);
	st_orig.stack_use(obj, h);
}

/* One wrapper per event (only those in `wrapped` are installed): the stack,
 * then the original probe. The first argument is the object. */
#define ST_FIRST(...) ST_FIRST_(__VA_ARGS__, 0)
#define ST_FIRST_(a, ...) a
#define ST_EVENT(fam, name, args, fields)                                 \
	static void st_stk_##fam##_##name(ST_DECL args)                   \
	{                                                                 \
		stack_note((const void *)(uintptr_t)ST_FIRST(ST_NAMES args)); \
		st_orig.fam##_##name(ST_NAMES args);                      \
	}
#include "st_all_events.h"
#undef ST_EVENT

static const struct {
	const char *name;
	size_t off;
	void (*fn)(void);
} st_wrappers[] = {
#define ST_EVENT(fam, name, args, fields)                                 \
	{ #fam ":" #name, offsetof(struct st_probes, fam##_##name),       \
	  (void (*)(void))st_stk_##fam##_##name },
#include "st_all_events.h"
#undef ST_EVENT
};

/* An object's creation and the events that begin a wait on it: its first
 * slow-path use and every contended one. */
static const char *const wrapped[] = {
	"mutex:init", "mutex:requested",
	"cond:init", "cond:enqueued",
	"sem:init", "sem:wait_begin",
	"rwlock:init", "rwlock:requested",
	"barrier:init", "spinlock:contended", "once:wait",
};

static int collect_own(struct dl_phdr_info *info, size_t size, void *data)
{
	const uintptr_t *bases = data;
	(void)size;
	if (info->dlpi_addr != bases[0] && info->dlpi_addr != bases[1] &&
	    info->dlpi_addr != bases[2])
		return 0;
	for (int i = 0; i < info->dlpi_phnum && st_own_n < ST_MAX_TRACER_RANGES; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		st_own[st_own_n].lo = info->dlpi_addr + ph->p_vaddr;
		st_own[st_own_n].hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
		st_own_n++;
	}
	return 0;
}

static uintptr_t base_of(const void *addr)
{
	Dl_info di;
	return dladdr(addr, &di) ? (uintptr_t)di.dli_fbase : 0;
}

/* A forked child is another process (vpid) in the trace: its stacks are
 * emitted again there. Runs in the child only, before it has threads. */
static void stacks_forget(void)
{
	memset(st_stack_seen, 0, sizeof(st_stack_seen));
}

int st_stacks_install(struct st_probes *t)
{
	const char *e = getenv("SYNCTRACE_STACKS");
	if (!e || strcmp(e, "1"))
		return 0;
	void *h = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return 0;
	st_unw_backtrace = (int (*)(void **, int))dlsym(h, "unw_backtrace");
	if (!st_unw_backtrace)
		return 0;
	uintptr_t bases[3] = { base_of((const void *)synctrace_register_probes),
			       base_of((const void *)st_stacks_install),
			       base_of((const void *)st_unw_backtrace) };
	dl_iterate_phdr(collect_own, bases);
	pthread_atfork(NULL, NULL, stacks_forget);

	st_orig = *t;
	for (size_t i = 0; i < sizeof(wrapped) / sizeof(wrapped[0]); i++)
		for (size_t j = 0; j < sizeof(st_wrappers) / sizeof(st_wrappers[0]); j++)
			if (!strcmp(wrapped[i], st_wrappers[j].name))
				memcpy((char *)t + st_wrappers[j].off, &st_wrappers[j].fn,
				       sizeof(st_wrappers[j].fn));
	return 1;
}
