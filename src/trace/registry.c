/* The probe table libsynctrace-tp.so registers, and the objects whose
 * counters are flushed when tracing stops. */
#include <link.h>
#include <string.h>

#include "config.h"
#include "internal/clock.h"
#include "internal/thread_times.h"
#include "internal/objects.h"
#include "internal/trace.h"

/* clock.h's reasons are the trace's meta:clock.why codes (meta.def). */
#define ST_SAME_WHY(w) ((int)ST_META_CLOCK_WHY_##w == (int)ST_CLOCK_WHY_##w)
_Static_assert(ST_SAME_WHY(KERNEL_USES) &&
		       ST_SAME_WHY(KERNEL_LISTS) &&
		       ST_SAME_WHY(FORCED) &&
		       ST_SAME_WHY(SETTING) &&
		       ST_SAME_WHY(NO_COUNTER) &&
		       ST_SAME_WHY(DISTRUSTED) &&
		       ST_SAME_WHY(UNMEASURED) &&
		       ST_SAME_WHY(WENT_BACK) &&
		       ST_SAME_WHY(UNCALIBRATED) &&
		       ST_SAME_WHY(UNUSED) &&
		       ST_SAME_WHY(PER_CPU) &&
		       ST_SAME_WHY(DRIFTED) &&
		       ST_META_CLOCK_COUNTER == 1,
	       "meta.def's clock codes and src/internal/clock.h's agree");

int st_trace_flags;
int st_spin_folds;
const struct st_probes *st_probes_in;
struct st_code_range st_tracer_code[ST_MAX_TRACER_RANGES];
int st_tracer_code_n;

ST_EXPORT int synctrace_register_probes(const struct st_probes *probes, unsigned size,
					const struct st_code_range *ranges, int nranges)
{
	if (size != sizeof(struct st_probes) || st_probes_in)
		return -1;
	st_config_load(); /* the probes may come before our constructor */
	if (nranges > ST_MAX_TRACER_RANGES)
		nranges = ST_MAX_TRACER_RANGES;
	memcpy(st_tracer_code, ranges, (size_t)nranges * sizeof(*ranges));
	st_store_release(&st_tracer_code_n, nranges);
	/* Before the flags: a traced wait sees the readers' rule that holds. */
	st_store_relaxed(&st_spin_folds, st_level == ST_META_LEVEL_SUMMARY || probes->batched);
	st_store_release(&st_probes_in, probes);
	st_store_release(&st_trace_flags,
			 st_level == ST_META_LEVEL_SUMMARY ? ST_TRACE_SUMMARY : st_level);
	st_set_caller(0);
	st_meta_ev_start(ST_FORMAT_MAJOR, ST_FORMAT_MINOR, st_level,
			 st_spin_mode, st_spin_limit);
	/* settings start lacks; second: the probes emit both once it is in */
	st_meta_ev_config(st_sem_max_mode, st_sem_max, st_spin_all_mutexes,
			  (uint64_t)st_threshold_ns);
	return 0;
}

/* Another thread still alive at the exit: its times (thread:times). */
static void tell_thread_times(int tid, uint64_t cpu_ns, int64_t runq_ns)
{
	st_thread_ev_times(tid, cpu_ns, runq_ns); /* (caller 0: set by our caller) */
}

ST_EXPORT void synctrace_unregister_probes(void)
{
	if (!st_tracing())
		return;
	st_set_caller(0);
	int n = st_objects_flush();
	st_summary_flush_all(); /* summary level, or a threshold's short waits */
	uint64_t cpu;
	int64_t runq;
	st_other_threads_times(tell_thread_times);
	st_thread_times(&cpu, &runq);
	st_meta_ev_stop(n, cpu, runq);
	st_store_release(&st_trace_flags, 0);
}

/* ---- objects seen on slow paths while tracing ---------------------------
 * A fixed table in .bss (no allocation, pages touched only when used):
 * open addressing on the address, insert by CAS, never removed. At exit the
 * counters of those that live in a loaded module's writable segment
 * (static storage: certainly still mapped) are emitted; heap objects may be
 * freed by then and are not read. */
#define ST_OBJECTS 4096

static struct {
	void *volatile obj;
	int family;
} st_objects[ST_OBJECTS];

void st_object_note(const void *obj, int family)
{
	uintptr_t h = ((uintptr_t)obj >> 3) * 0x9E3779B97F4A7C15ull;
	for (unsigned i = 0; i < 16; i++) {
		unsigned k = (unsigned)((h >> 40) + i) % ST_OBJECTS;
		void *cur = st_objects[k].obj;
		if (cur == obj)
			return;
		if (!cur) {
			st_objects[k].family = family;
			if (st_cas_ptr(&st_objects[k].obj, 0, (void *)obj))
				return;
			if (st_objects[k].obj == obj)
				return;
		}
	}
	/* table crowded here: this object's counters come only with its events */
}

struct static_check {
	uintptr_t a;
	int found;
};

static int in_writable_segment(struct dl_phdr_info *info, size_t size, void *data)
{
	struct static_check *c = data;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) && c->a >= lo &&
		    c->a < lo + ph->p_memsz) {
			c->found = 1;
			return 1;
		}
	}
	return 0;
}

int st_objects_flush(void)
{
	int n = 0;
	for (unsigned k = 0; k < ST_OBJECTS; k++) {
		void *obj = st_objects[k].obj;
		if (!obj)
			continue;
		struct static_check c = { (uintptr_t)obj, 0 };
		dl_iterate_phdr(in_writable_segment, &c);
		if (!c.found)
			continue;
		switch (st_objects[k].family) {
		case ST_FAMILY_MUTEX:
			n += st_mutex_flush(obj);
			break;
		default:
			break;
		}
	}
	return n;
}
