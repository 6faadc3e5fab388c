/* analysis/symbols without LTTng: synthetic statedump and stack events
 * describing this very process, then the lookups a report makes. Built
 * -g -O0; links the analyzers' static library. */
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sa_model.h"
#include "sa_symbols.h"

static int call_line;

__attribute__((noinline)) static void *here(void)
{
	return __builtin_return_address(0);
}

__attribute__((noinline)) static void *call_site(void)
{
	void *r = here(); call_line = __LINE__;
	return r;
}

struct self {
	uint64_t base, memsz;
};

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct self *s = data;
	uint64_t lo = UINT64_MAX, hi = 0;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		if (ph->p_vaddr < lo)
			lo = ph->p_vaddr;
		if (ph->p_vaddr + ph->p_memsz > hi)
			hi = ph->p_vaddr + ph->p_memsz;
	}
	s->base = info->dlpi_addr + lo; /* as lttng-ust's statedump gives baddr */
	s->memsz = hi - lo;
	return 1; /* the program is the first object */
}

static struct sa_event ev(const char *name, int32_t vpid)
{
	struct sa_event e;
	memset(&e, 0, sizeof(e));
	e.name = name;
	e.id = sa_event_lookup(name);
	e.vpid = vpid;
	e.vtid = vpid;
	e.procname = "symbols_test";
	return e;
}

static void feed(struct sa_model *m, const struct sa_event *e)
{
	sa_model_feed(m, e);
	sa_symbols_feed(m, e);
}

static void bin_info(struct sa_model *m, int32_t vpid, const struct self *s, const char *path)
{
	struct sa_event e = ev("lttng_ust_statedump:bin_info", vpid);
	sa_ev_set(&e, "baddr", (int64_t)s->base);
	sa_ev_set(&e, "memsz", (int64_t)s->memsz);
	e.nstrings = 1;
	e.s[0].name = "path";
	e.s[0].v = path;
	feed(m, &e);
}

int main(void)
{
	char exe[4096], want[256], buf[512];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(n > 0);
	exe[n] = 0;
	struct self self;
	dl_iterate_phdr(first_object, &self);
	uint64_t ra = (uint64_t)(uintptr_t)call_site();
	snprintf(want, sizeof(want), "call_site at symbols_test.c:%d", call_line);

	struct sa_model *m = sa_model_new();
	CHECK(m);
	/* No statedump yet: nothing is symbolized, reports print as before. */
	CHECK(!sa_symbols_addr(m, 0, 1, ra, buf, sizeof(buf)));

	bin_info(m, 1, &self, exe);
	const char *s = sa_symbols_addr(m, 0, 1, ra, buf, sizeof(buf));
	CHECK(s && !strcmp(s, want));
	/* Outside every module, or another process: unknown. */
	CHECK(!sa_symbols_addr(m, 0, 1, 8, buf, sizeof(buf)));
	CHECK(!sa_symbols_addr(m, 0, 2, ra, buf, sizeof(buf)));

	/* A mutex whose stack was recorded: named by its call site; the
	 * stack is listed once with its two uses, even though the use came
	 * before the frames. */
	uint64_t frames[2] = { ra, ra + 1 };
	struct sa_event use = ev("synctrace_stack:use", 1);
	sa_ev_set(&use, "obj", 0x1000);
	sa_ev_set(&use, "id", 42);
	feed(m, &use);
	struct sa_event fr = ev("synctrace_stack:frames", 1);
	sa_ev_set(&fr, "id", 42);
	fr.arr = frames;
	fr.narr = 2;
	feed(m, &fr);
	feed(m, &use);
	struct sa_event req = ev("synctrace_mutex:requested", 1);
	sa_ev_set(&req, "obj", 0x1000);
	sa_ev_set(&req, "caller", (int64_t)ra);
	sa_ev_set(&req, "owner", 2);
	sa_ev_set(&req, "waiters", 0);
	feed(m, &req);
	CHECK_EQ(m->nobjs, 1);
	s = sa_symbols_object_site(m, &m->objs[0], buf, sizeof(buf));
	CHECK(s && !strcmp(s, want));
	const uint64_t *f;
	uint64_t uses;
	CHECK_EQ(sa_symbols_object_stack(m, &m->objs[0], 0, &f, &uses), 2);
	CHECK_EQ(uses, 2);
	CHECK(f && f[0] == ra);
	CHECK_EQ(sa_symbols_object_stack(m, &m->objs[0], 1, &f, &uses), -1);

	/* A build id that is not the file's: the file is not used, the frame
	 * stays module+offset. */
	bin_info(m, 3, &self, exe);
	struct sa_event bid = ev("lttng_ust_statedump:build_id", 3);
	uint64_t wrong[20] = { 1, 2, 3 };
	sa_ev_set(&bid, "baddr", (int64_t)self.base);
	bid.arr = wrong;
	bid.narr = 20;
	feed(m, &bid);
	const char *base = strrchr(exe, '/') + 1;
	snprintf(want, sizeof(want), "%s+0x%llx", base, (unsigned long long)(ra - self.base));
	s = sa_symbols_addr(m, 0, 3, ra, buf, sizeof(buf));
	CHECK(s && !strcmp(s, want));

	sa_model_free(m);
	puts("symbols_test: call site, object site, stacks and build-id check as expected");
	return 0;
}
