/* Fuzz target over the model's event input: bytes → a sequence of
 * sa_events (any id, pid, tid, field names and values, timestamps going
 * back and forth, discarded ranges) → the model → every report in every
 * format. Built with libFuzzer (clang, target analysis-fuzz) or, with
 * SA_FUZZ_REPLAY, as a program feeding it pseudo-random inputs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa_checks.h"
#include "sa_model.h"
#include "sa_report.h"
#include "sa_symbols.h"

static const char *const names[] = {
	"obj", "caller", "how", "spins", "sleeps", "wait_ns", "acquisitions", "contended",
	"woken", "waiters", "result", "requested", "slept_ns", "uaddr", "iterations",
	"outcome", "mode", "spin_ns", "format_major", "format_minor", "level", "kind",
	"what", "owner", "cond", "reason", "waited_ns", "broadcast", "moved", "timed",
	"spurious", "relock_ns", "value", "nwaiters", "cancelled", "bogus",
	"round", "count", "arrived", "run_ns", "routine", "units", "limit", "sem_max_mode",
	"sem_max", "result", "id", "start", "end", "offset", "dev", "ino", "baddr", "memsz",
};
/* Events analysis/symbols takes by name (statedump, stacks, mappings). */
static const char *const sym_names[] = {
	"lttng_ust_statedump:bin_info", "lttng_ust_statedump:start", "lttng_ust_dl:dlopen",
	"synctrace_stack:frames", "synctrace_stack:use",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

struct in {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct in *in, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes && in->n; i++, in->p++, in->n--)
		v |= (uint64_t)*in->p << (8 * i);
	return v;
}

/* Small values collide (same objects, same threads); sometimes huge ones. */
static int64_t value(struct in *in)
{
	uint8_t sel = (uint8_t)take(in, 1);
	if (sel < 200)
		return (int64_t)(sel % 8) * 64 + 0x1000 * (sel % 3 == 0) - (sel == 7);
	return (int64_t)take(in, 8);
}

/* Addresses 0x1000..0x1fff of every process are one shared mapping: the
 * model keys those objects across processes. */
static int fuzz_shared_key(const struct sa_model *m, unsigned trace, int32_t vpid, uint64_t addr,
			   uint64_t key[3])
{
	(void)m;
	(void)vpid;
	if ((addr & ~0xfffull) != 0x1000)
		return 0;
	key[0] = trace;
	key[1] = 7;
	key[2] = addr & 0xfff;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct sa_model *m = sa_model_new();
	int64_t ts = 0;
	if (!m)
		return 0;
	/* Some inputs pick a unit of work (--work-event) and run the checks. */
	struct sa_checks *chk = size && (data[0] & 4) ? sa_checks_attach(m) : NULL;
	/* Some keep every object (reports by object), some share objects
	 * across processes; the others fold destroyed ones into classes. */
	if (size && (data[0] & 8))
		sa_model_keep_objects(m, 1);
	if (size && (data[0] & 16))
		m->shared_key = fuzz_shared_key;
	if (size && (data[0] & 3) == 1)
		sa_model_set_work_event(m, "foreign:event/units");
	else if (size && (data[0] & 3) == 2)
		sa_model_set_work_event(m, "synctrace_sem:post");
	while (in.n) {
		struct sa_event e;
		memset(&e, 0, sizeof(e));
		uint8_t op = (uint8_t)take(&in, 1);
		if (op == 0xff) {
			sa_model_discarded(m, (unsigned)take(&in, 1) % 3, "chan_0", ts, ts + 5,
					   take(&in, 1), op & 1);
			continue;
		}
		e.id = (enum sa_event_id)(op % (SA_EV_COUNT + 1));
		e.name = op & 0x80 ? "foreign:event" : NULL;
		if ((op & 0xc0) == 0xc0) { /* a statedump, dl or stack event */
			e.name = sym_names[op % (sizeof(sym_names) / sizeof(sym_names[0]))];
			e.id = sa_event_lookup(e.name);
		} else if (!e.name && e.id > SA_EV_UNKNOWN && e.id < SA_EV_COUNT) {
			e.name = sa_event_name(e.id); /* as the decoder gives them */
		}
		ts += (int64_t)(int16_t)take(&in, 2);
		e.ts = ts;
		e.trace = (unsigned)take(&in, 1) % 2;
		e.vpid = (int32_t)(take(&in, 1) % 4);
		e.vtid = e.vpid + (int32_t)(take(&in, 1) % 4);
		e.procname = e.vtid & 1 ? "a-rather-long-process-name-beyond-the-limit" : NULL;
		e.nfields = (unsigned)take(&in, 1) % (SA_MAX_FIELDS + 1);
		for (unsigned i = 0; i < e.nfields; i++) {
			e.f[i].name = names[take(&in, 1) % NNAMES];
			e.f[i].v = value(&in);
		}
		uint64_t arr[4] = { (uint64_t)value(&in), (uint64_t)value(&in), 0x1001, 0x2002 };
		e.arr = arr;
		e.narr = (unsigned)(op % 5);
		e.s[0].name = "path";
		e.s[0].v = op & 1 ? "/dev/shm/sem.x" : "/nonexistent/prog";
		e.nstrings = op & 2 ? 1 : 0;
		sa_symbols_feed(m, &e);
		sa_model_feed(m, &e);
	}
	/* Every object named (analysis/symbols/names.c). */
	char site[64];
	for (uint32_t i = 0; i < m->nobjs; i++) {
		struct sa_objname n;
		sa_object_name(m, i, &n);
		sa_site_name(m, m->objs[i].proc, m->objs[i].caller, site, sizeof(site));
		sa_symbols_creation_stack(m, i);
	}
	FILE *out = fopen("/dev/null", "w");
	if (out) {
		for (int f = SA_FMT_TEXT; f <= SA_FMT_CSV; f++) {
			struct sa_report_opts o = { .format = (enum sa_format)f, .sort = f, .top = f,
						    .checks = chk };
			sa_report_render(m, &o, out);
		}
		fclose(out);
	}
	sa_checks_free(chk);
	sa_model_free(m);
	return 0;
}

#ifdef SA_FUZZ_REPLAY
/* usage: fuzz_replay [N [SEED]]: N pseudo-random inputs of up to 4 KiB. */
int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 2000;
	uint64_t s = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5eed;
	static uint8_t buf[4096];
	for (unsigned k = 0; k < n; k++) {
		size_t len = 0;
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		len = s % sizeof(buf);
		for (size_t i = 0; i < len; i++) {
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			buf[i] = (uint8_t)s;
		}
		LLVMFuzzerTestOneInput(buf, len);
	}
	printf("fuzz_replay: %u inputs\n", n);
	return 0;
}
#endif
