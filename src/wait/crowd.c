/* The crowded-machine hint of the spinners: crowd.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* CPU_COUNT */
#endif
#include "wait/crowd.h"
#include "internal/sysfile.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct st_crowd st_crowd;

int st_crowd_parse_loadavg(const char *line)
{
	const char *p = line;
	for (int field = 0; field < 3; field++) {
		while (*p && *p != ' ')
			p++;
		while (*p == ' ')
			p++;
	}
	if (*p < '0' || *p > '9')
		return -1;
	int n = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((n = n * 10 + (*p - '0')) > 1 << 24)
			return -1;
	return *p == '/' ? n : -1;
}

/* "0-3" or "0,2-5": the CPUs of /sys/devices/system/cpu/online. */
static int count_cpu_list(const char *s)
{
	int n = 0;
	while (*s >= '0' && *s <= '9') {
		int a = 0, b;
		for (; *s >= '0' && *s <= '9'; s++)
			a = a * 10 + (*s - '0');
		b = a;
		if (*s == '-')
			for (b = 0, s++; *s >= '0' && *s <= '9'; s++)
				b = b * 10 + (*s - '0');
		n += b >= a ? b - a + 1 : 0;
		if (*s == ',')
			s++;
	}
	return n;
}

int st_crowd_sample_proc(int *runnable, int *online, int *allowed)
{
	char buf[128];
	cpu_set_t set;
	if (st_read_file("/proc/loadavg", buf, sizeof buf) < 0 ||
	    (*runnable = st_crowd_parse_loadavg(buf)) < 0)
		return -1;
	if (*online <= 0 && st_read_file("/sys/devices/system/cpu/online", buf, sizeof buf) > 0)
		*online = count_cpu_list(buf);
	if (*online <= 0)
		return -1;
	*allowed = syscall(SYS_sched_getaffinity, 0, sizeof set, &set) > 0 ? CPU_COUNT(&set) : *online;
	return 0;
}

int st_crowd_resample(struct st_crowd *c, uint64_t now, st_crowd_sampler sample)
{
	uint64_t due = st_load_relaxed(&c->due);
	/* One sampler per interval; the others keep the last verdict. */
	if (now < due || !__atomic_compare_exchange_n(&c->due, &due, now + ST_CROWD_SAMPLE_NS, 0,
						      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return st_load_relaxed(&c->crowded);
	int runnable, online = st_load_relaxed(&c->cpus), allowed;
	if (sample(&runnable, &online, &allowed) < 0) {
		st_store_relaxed(&c->crowded, 0); /* unknown: spin, as before */
		st_store_relaxed(&c->suspect, 0);
		st_store_relaxed(&c->lone, 0);
		return 0;
	}
	st_store_relaxed(&c->cpus, online);
	st_store_relaxed(&c->lone, allowed == 1);
	int v = st_crowd_verdict(runnable, online, allowed);
	/* A first count above the CPUs is only a suspicion (crowd.h). */
	int first = v && allowed != 1 && !st_load_relaxed(&c->crowded) &&
		    !st_load_relaxed(&c->suspect);
	st_store_relaxed(&c->suspect, first);
	if (first)
		v = 0;
	st_store_relaxed(&c->crowded, v);
	/* Our interval (the CAS above): a crowded or suspect one is shortened. */
	if (v || first)
		st_store_relaxed(&c->due, now + ST_CROWD_RECHECK_NS);
	return v;
}

int st_crowd_spin_ended(struct st_crowd *c, uint64_t t0, uint64_t now, uint64_t tick)
{
	if (now - t0 <= ST_CROWD_PREEMPT_TICKS * tick)
		return 0;
	st_store_relaxed(&c->crowded, 1);
	/* Looked at again soon (a sampler's CAS racing this store only moves
	 * the next sample by an interval). */
	if (st_load_relaxed(&c->due) > now + ST_CROWD_RECHECK_NS)
		st_store_relaxed(&c->due, now + ST_CROWD_RECHECK_NS);
	return 1;
}

void st_crowd_yield(void)
{
	syscall(SYS_sched_yield);
}

uint64_t st_crowd_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t st_crowd_tick(void)
{
	static uint64_t tick;
	uint64_t t = st_load_relaxed(&tick);
	if (!t) {
		struct timespec r;
		t = clock_getres(CLOCK_MONOTONIC_COARSE, &r) == 0 && (r.tv_sec || r.tv_nsec)
			    ? (uint64_t)r.tv_sec * 1000000000ull + (uint64_t)r.tv_nsec
			    : 4000000ull;
		st_store_relaxed(&tick, t);
	}
	return t;
}
