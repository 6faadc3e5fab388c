/* libsynctrace-tp.so: the LTTng-UST probes of every synctrace provider.
 *
 * Loaded only when tracing is wanted (preloaded by `synctrace record`, or
 * dlopen'ed by libsynctrace.so when SYNCTRACE_TRACE=1). Its constructor runs
 * after liblttng-ust's (which it links) and hands libsynctrace.so a table of
 * functions, one per event; each fires its tracepoint. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "st_all_providers.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <link.h>
#include <string.h>

#include "st_probes.h"
#include "stacks.h"

/* synctrace_meta:start and synctrace_meta:config are emitted lazily: just
 * before the first event recorded after meta:start became enabled.
 * libsynctrace.so announces their values when the probes register (start,
 * then config: registry.c); if no session records them yet
 * (SYNCTRACE_TRACE=1 loads lttng-ust from a constructor, before it can
 * register with the session daemon; or a session starts later), the two
 * events still precede every other synctrace event of the process. Except
 * in one window of lttng-ust's: it enables a starting session's
 * tracepoints before it marks the session active, and the pair emitted
 * from an event fired in between is dropped with it (README, Limitations). */
static int st_start_args[5], st_config_args[2], st_start_known;
static volatile int st_started; /* 0 not yet, 1 being emitted, 2 emitted */

static void st_start_pending(void)
{
	int expected = 0;
	if (!st_start_known || !lttng_ust_tracepoint_enabled(synctrace_meta, start))
		return;
	if (__atomic_compare_exchange_n(&st_started, &expected, 1, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		lttng_ust_tracepoint(synctrace_meta, start, st_start_args[0], st_start_args[1],
				     st_start_args[2], st_start_args[3], st_start_args[4]);
		lttng_ust_tracepoint(synctrace_meta, config, st_config_args[0], st_config_args[1]);
		__atomic_store_n(&st_started, 2, __ATOMIC_RELEASE);
		return;
	}
	/* Another thread is emitting it: our event must come after. */
	while (__atomic_load_n(&st_started, __ATOMIC_ACQUIRE) != 2)
		sched_yield();
}

static void st_note_start(int format_major, int format_minor, int level, int spin_mode,
			  int spin_limit)
{
	st_start_args[0] = format_major;
	st_start_args[1] = format_minor;
	st_start_args[2] = level;
	st_start_args[3] = spin_mode;
	st_start_args[4] = spin_limit;
}

/* The second announcement: now both are known. */
static void st_note_config(int sem_max_mode, int sem_max)
{
	st_config_args[0] = sem_max_mode;
	st_config_args[1] = sem_max;
	__atomic_store_n(&st_start_known, 1, __ATOMIC_RELEASE);
	st_start_pending();
}

/* Recording an event may make a system call that is a cancellation point
 * (lttng-ust writes to the consumer's wakeup pipe when a sub-buffer is
 * delivered): a pending cancel would act right there, inside a
 * pthread_mutex_lock or unlock that POSIX says is no cancellation point,
 * and unwind the program with a lock it does not know it holds. So
 * cancellation is disabled around each recorded event (two CAS on the
 * thread's cancel word, only when the event is enabled). Found by
 * tests/cond/cancel_destroy.c in traced mode: threads cancelled in the
 * unlock after their wait had returned. */
#define ST_EVENT(fam, name, args, fields)                                         \
	static void st_fire_##fam##_##name(ST_DECL args)                          \
	{                                                                         \
		int cs;                                                           \
		if (!lttng_ust_tracepoint_enabled(synctrace_##fam, name))         \
			return;                                                   \
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);              \
		if (__builtin_expect(st_started != 2, 0))                         \
			st_start_pending();                                       \
		lttng_ust_do_tracepoint(synctrace_##fam, name, ST_NAMES args);    \
		pthread_setcancelstate(cs, 0);                                    \
	}
#include "st_all_events.h"
#undef ST_EVENT

/* Not const: st_stacks_install may wrap some entries (SYNCTRACE_STACKS=1). */
static struct st_probes st_table = {
#define ST_EVENT(fam, name, args, fields) .fam##_##name = st_fire_##fam##_##name,
#include "st_all_events.h"
#undef ST_EVENT
};

/* The tracer's code: liblttng-ust*, this library, and the urcu / numa
 * libraries lttng-ust brings. A call whose caller is in here is the
 * tracer's own and is never traced. */
static int is_tracer_object(const char *name)
{
	static const char *const parts[] = { "liblttng-ust", "libsynctrace-tp",
					     "liburcu", "libnuma" };
	for (unsigned i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (strstr(name, parts[i]))
			return 1;
	return 0;
}

struct collect {
	struct st_code_range r[ST_MAX_TRACER_RANGES];
	int n;
};

static int collect_ranges(struct dl_phdr_info *info, size_t size, void *data)
{
	struct collect *c = data;
	(void)size;
	if (!info->dlpi_name || !is_tracer_object(info->dlpi_name))
		return 0;
	for (int i = 0; i < info->dlpi_phnum && c->n < ST_MAX_TRACER_RANGES; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		c->r[c->n].lo = info->dlpi_addr + ph->p_vaddr;
		c->r[c->n].hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
		c->n++;
	}
	return 0;
}

/* Defined after the providers' own constructors (tracepoint-event.h puts
 * them above, in this same file), so it runs after the probes are
 * registered with lttng-ust; the destructor, in reverse, runs first. */
__attribute__((constructor)) static void st_tp_init(void)
{
	struct collect c = { .n = 0 };
	dl_iterate_phdr(collect_ranges, &c);
	st_table.meta_start = st_note_start;
	st_table.meta_config = st_note_config;
	st_stacks_install(&st_table);
	synctrace_register_probes(&st_table, sizeof(st_table), c.r, c.n);
}

__attribute__((destructor)) static void st_tp_fini(void)
{
	synctrace_unregister_probes();
}
