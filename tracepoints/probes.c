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
#include <link.h>
#include <string.h>

#include "st_probes.h"

#define ST_EVENT(fam, name, args, fields)                               \
	static void st_fire_##fam##_##name(ST_DECL args)                \
	{                                                               \
		lttng_ust_tracepoint(synctrace_##fam, name, ST_NAMES args); \
	}
#include "st_all_events.h"
#undef ST_EVENT

static const struct st_probes st_table = {
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
	synctrace_register_probes(&st_table, sizeof(st_table), c.r, c.n);
}

__attribute__((destructor)) static void st_tp_fini(void)
{
	synctrace_unregister_probes();
}
