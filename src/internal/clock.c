/* The durations' clock's slow path: deciding, calibrating (clock.h has the
 * state machine and the reasons). */
#include "clock.h"
#include "setting/setting.h"
#include "sysfile.h"

#include <pthread.h>
#include <string.h>

#if ST_CLOCK_HAVE_TSC
#include <cpuid.h>
#endif

struct st_clock st_clock;
struct st_clock_anchor st_clock_anchors[ST_CLOCK_CPUS];
int st_clock_percpu_allowed;
int st_clock_tsc_allowed = ST_CLOCK_TSC_AUTO;
__thread uint64_t st_clock_last __attribute__((tls_model("initial-exec")));
/* Where the kernel names its clocksource; a test points it elsewhere. */
const char *st_clock_source_path = "/sys/devices/system/clocksource/clocksource0/current_clocksource";
const char *st_clock_available_path =
	"/sys/devices/system/clocksource/clocksource0/available_clocksource";

/* Whether the space-separated list s names w. */
static int lists(const char *s, const char *w)
{
	size_t k = strlen(w);
	for (const char *p = s; (p = strstr(p, w)); p += k)
		if ((p == s || p[-1] == ' ') && (p[k] == ' ' || p[k] == '\n' || !p[k]))
			return 1;
	return 0;
}

/* A pair (count, CLOCK_MONOTONIC) read back to back, within a bracket of
 * at most 2 us (a thread preempted between the reads retries, up to 8
 * times): *ns is the bracket's upper end. 0 if no try was tight enough. */
static int pair(uint64_t *tsc, uint64_t *ns)
{
#if ST_CLOCK_HAVE_TSC
	for (int i = 0; i < 8; i++) {
		uint64_t a = st_mono_ns(), t = __rdtsc(), b = st_mono_ns();
		if (b >= a && b - a <= 2000) {
			*tsc = t, *ns = b;
			return 1;
		}
	}
#else
	(void)tsc, (void)ns;
#endif
	return 0;
}

/* The counter runs at a constant rate through frequency changes and idle
 * states (CPUID 0x80000007 EDX bit 8), and the kernel keeps its own time
 * with it, or lists it among the clocksources it may switch to (a VM's
 * kernel that prefers kvm-clock by rating: the kernel drops a counter it
 * found out of step, or was told to distrust with tsc=unstable, from that
 * list), so it judged the counters of all CPUs in step; or the user says
 * they are (SYNCTRACE_CLOCK=counter). */
static int eligible(int *why)
{
	if (st_clock_tsc_allowed == ST_CLOCK_TSC_NEVER) {
		*why = ST_CLOCK_WHY_SETTING;
		return 0;
	}
	*why = ST_CLOCK_WHY_NO_COUNTER;
#if ST_CLOCK_HAVE_TSC
	unsigned a, b, c, d;
	if (!__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1u << 8)))
		return 0;
	if (st_clock_tsc_allowed == ST_CLOCK_TSC_FORCED) {
		*why = ST_CLOCK_WHY_FORCED; /* whatever the clocksource */
		return 1;
	}
	char buf[256];
	if (st_read_file(st_clock_source_path, buf, sizeof buf) > 0 && !strcmp(buf, "tsc\n")) {
		*why = ST_CLOCK_WHY_KERNEL_USES;
		return 1;
	}
	if (st_read_file(st_clock_available_path, buf, sizeof buf) > 0 && lists(buf, "tsc")) {
		*why = ST_CLOCK_WHY_KERNEL_LISTS;
		return 1;
	}
	*why = ST_CLOCK_WHY_DISTRUSTED;
	/* The summary level: anchored per CPU, where glibc registered rseq
	 * (this thread's cpu_id valid) */
	if (st_clock_percpu_allowed && &__rseq_size && __rseq_size >= 8 &&
	    (unsigned)st_rseq_cpu() < ST_CLOCK_CPUS) {
		*why = ST_CLOCK_WHY_PER_CPU;
		return 1;
	}
#endif
	return 0;
}

#if ST_CLOCK_HAVE_TSC
/* An anchor's pair: the narrowest of three (count, CLOCK_MONOTONIC)
 * brackets, its middle (off by at most half of it, ~15 ns here, and by
 * about the same on every CPU: a duration across two anchors loses the
 * difference); 0 if none was within 1 us (interrupted) or the thread
 * moved meanwhile. */
static int anchor_pair(uint64_t *tsc, uint64_t *ns, int *cpu)
{
	uint64_t best = UINT64_MAX;
	int c = st_rseq_cpu();
	*tsc = *ns = 0;
	for (int i = 0; i < 3; i++) {
		uint64_t a = st_mono_ns(), t = __rdtsc(), b = st_mono_ns();
		if (b >= a && b - a < best) {
			best = b - a;
			*tsc = t;
			*ns = a + (b - a) / 2;
		}
	}
	if (best > 1000 || st_rseq_cpu() != c)
		return 0;
	*cpu = c;
	return 1;
}

/* An anchor's pair for the per-CPU calibration: up to 8 tries. */
static int pair_on(uint64_t *tsc, uint64_t *ns, int *cpu)
{
	for (int i = 0; i < 8; i++)
		if (anchor_pair(tsc, ns, cpu))
			return 1;
	return 0;
}
#endif

/* Claim the state from `from` to BUSY; 1 if this thread won. */
static int claim(int from)
{
	return __atomic_compare_exchange_n(&st_clock.state, &from, ST_CLOCK_BUSY, 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void set_state(int s)
{
	__atomic_store_n(&st_clock.state, s, __ATOMIC_RELEASE);
}

/* Turn the clock OFF for good, saying why (a reader that loaded the old
 * mult just before computes one more scaled time, which its clamp keeps
 * in order). */
static void give_up(int why)
{
	__atomic_store_n(&st_clock.mult, 0, __ATOMIC_RELEASE);
	st_clock.why = why;
	set_state(ST_CLOCK_OFF);
}

unsigned long long st_clock_slow(void)
{
	uint64_t now = st_mono_ns();
	int s = __atomic_load_n(&st_clock.state, __ATOMIC_ACQUIRE);
	if (s == ST_CLOCK_UNKNOWN && claim(ST_CLOCK_UNKNOWN)) {
		/* BUSY: ours alone. Registered on first use, not at load. */
		pthread_atfork(0, 0, st_clock_forked);
		int why, el = eligible(&why), ok = el;
#if ST_CLOCK_HAVE_TSC
		if (el && why == ST_CLOCK_WHY_PER_CPU) /* both pairs on one CPU */
			ok = pair_on(&st_clock.warm_tsc, &st_clock.warm_ns, &st_clock.warm_cpu);
		else
#endif
			ok = el && pair(&st_clock.warm_tsc, &st_clock.warm_ns);
		/* what ON will say; or why OFF: not eligible, or no pair */
		st_clock.why = ok || !el ? why : ST_CLOCK_WHY_UNMEASURED;
		set_state(ok ? ST_CLOCK_WARM : ST_CLOCK_OFF);
	} else if (s == ST_CLOCK_WARM &&
		   (int64_t)(now - st_clock.warm_ns) >= (int64_t)ST_CLOCK_CALIBRATE_NS &&
		   claim(ST_CLOCK_WARM)) {
		/* BUSY: the warm pair (written before WARM's release, read
		 * after the claim's acquire) is ours to read, the base ours to
		 * write. */
		uint64_t t, ns;
		int pc = st_clock.why == ST_CLOCK_WHY_PER_CPU, ok;
#if ST_CLOCK_HAVE_TSC
		int cpu;
		if (pc) /* on the first pair's CPU, or later */
			ok = pair_on(&t, &ns, &cpu) && cpu == st_clock.warm_cpu;
		else
#endif
			ok = pair(&t, &ns);
		if (ok && t > st_clock.warm_tsc && ns - st_clock.warm_ns >= ST_CLOCK_CALIBRATE_NS) {
			uint64_t m = (uint64_t)(((unsigned __int128)(ns - st_clock.warm_ns) << 32) /
						(t - st_clock.warm_tsc));
			if (m) {
				st_clock.base_tsc = t;
				st_clock.base_ns = ns;
				st_clock.hz_mult = m;
				if (pc) {
					st_clock.reanchor = (uint64_t)(((unsigned __int128)
									ST_CLOCK_REANCHOR_NS << 32) / m);
					st_clock.percpu = 1;
				}
				__atomic_store_n(&st_clock.mult, m, __ATOMIC_RELEASE);
				set_state(ST_CLOCK_ON);
				return st_clock_clamp(now);
			}
		}
		set_state(ST_CLOCK_WARM); /* a later read tries again */
	}
	return st_clock_clamp(now);
}

unsigned long long st_clock_back(int64_t d)
{
	if (d >= -ST_CLOCK_SKEW)
		return st_clock_clamp(st_clock.base_ns);
	/* Gone back: every later read takes the slow path (mult 0) and finds
	 * OFF there. A reader that loaded the old mult just before computes
	 * one more scaled time, which its clamp keeps in order. */
	give_up(ST_CLOCK_WHY_WENT_BACK);
	return st_clock_clamp(st_mono_ns());
}

void st_clock_forked(void)
{
	/* The only thread now; a claimant that was BUSY is gone, as is a
	 * writer of an anchor (odd: never anchored again, 0). */
	if (st_clock.state == ST_CLOCK_BUSY)
		st_clock.state = st_clock.mult ? ST_CLOCK_ON : ST_CLOCK_UNKNOWN;
	for (int i = 0; i < ST_CLOCK_CPUS; i++)
		if (st_clock_anchors[i].seq & 1)
			st_clock_anchors[i].seq = 0;
}

unsigned long long st_clock_cpu_slow(int cpu)
{
#if ST_CLOCK_HAVE_TSC
	uint64_t m = __atomic_load_n(&st_clock.mult, __ATOMIC_ACQUIRE);
	if (!m || (unsigned)cpu >= ST_CLOCK_CPUS)
		return st_clock_clamp(st_mono_ns());
	struct st_clock_anchor *a = &st_clock_anchors[cpu];
	uint32_t q = __atomic_load_n(&a->seq, __ATOMIC_RELAXED);
	/* Another thread of this CPU (preempted in here) writes it: ours is
	 * CLOCK_MONOTONIC this once. */
	if ((q & 1) || !__atomic_compare_exchange_n(&a->seq, &q, q + 1, 0, __ATOMIC_ACQUIRE,
						    __ATOMIC_RELAXED))
		return st_clock_clamp(st_mono_ns());
	/* Ours: seq odd. The release fence orders it before the fields'
	 * stores for a reader (its acquire fence, then seq again). */
	st_anchor_fence(__ATOMIC_RELEASE);
	uint64_t t, ns;
	int c;
	if (!anchor_pair(&t, &ns, &c) || c != cpu) { /* moved, or no tight pair */
		__atomic_store_n(&a->seq, q, __ATOMIC_RELEASE); /* as it was */
		return st_clock_clamp(st_mono_ns());
	}
	if (q) { /* the old anchor's prediction against the kernel's clock */
		uint64_t bt = a->tsc, bn = a->ns;
		if (t + (uint64_t)ST_CLOCK_SKEW < bt) {
			__atomic_store_n(&a->seq, q + 2, __ATOMIC_RELEASE);
			give_up(ST_CLOCK_WHY_WENT_BACK);
			return st_clock_clamp(ns);
		}
		if (t > bt) {
			uint64_t p = bn + (uint64_t)(((unsigned __int128)(t - bt) * m) >> 32);
			uint64_t err = p > ns ? p - ns : ns - p;
			/* the scale's error: 1e-4 of the interval, generously */
			if (err > ST_CLOCK_DRIFT_NS + (ns - bn) / 10000) {
				__atomic_store_n(&a->seq, q + 2, __ATOMIC_RELEASE);
				give_up(ST_CLOCK_WHY_DRIFTED);
				return st_clock_clamp(ns);
			}
		}
	}
	__atomic_store_n(&a->tsc, t, ST_ANCHOR_STORE);
	__atomic_store_n(&a->ns, ns, ST_ANCHOR_STORE);
	__atomic_store_n(&a->seq, q + 2, __ATOMIC_RELEASE);
	return st_clock_clamp(ns);
#else
	(void)cpu;
	return st_clock_clamp(st_mono_ns());
#endif
}

/* For libsynctrace-tp.so's record clock (tracepoints/batch.h), which reads
 * the same counter: its scale once measured (ns per count, 32.32), 0 not
 * yet, -1 never (the durations read CLOCK_MONOTONIC: OFF, for good);
 * *per_cpu: read per CPU (the records anchor each CPU's counter on their
 * own, as the durations do here). Not measured yet: a read of the clock
 * takes the calibration a step on, as a traced wait's would (the caller
 * asks at most once a millisecond per thread). */
__attribute__((visibility("default"))) int64_t synctrace_clock_scale_cpu(int *per_cpu)
{
	uint64_t m = __atomic_load_n(&st_clock.mult, __ATOMIC_ACQUIRE);
	if (!m && __atomic_load_n(&st_clock.state, __ATOMIC_ACQUIRE) != ST_CLOCK_OFF) {
		(void)st_now_ns();
		m = __atomic_load_n(&st_clock.mult, __ATOMIC_ACQUIRE);
	}
	*per_cpu = 0;
	if (m) {
		*per_cpu = st_clock.percpu; /* set before mult's release */
		return (int64_t)m;
	}
	return __atomic_load_n(&st_clock.state, __ATOMIC_ACQUIRE) == ST_CLOCK_OFF ? -1 : 0;
}

/* Read by the probes (meta:clock), from any thread: the state (acquire)
 * before why and the scale, which its release published. A counter that
 * went back keeps its scale (its rate is still said) in hz_mult. */
__attribute__((visibility("default"))) int synctrace_clock_info(int *source, int *why,
								uint64_t *hz, int final)
{
	int s = __atomic_load_n(&st_clock.state, __ATOMIC_ACQUIRE);
	uint64_t m = __atomic_load_n(&st_clock.hz_mult, __ATOMIC_RELAXED);
	if (s == ST_CLOCK_ON || s == ST_CLOCK_OFF) {
		*why = st_clock.why;
		*source = s == ST_CLOCK_ON;
	} else if (final) {
		*why = s == ST_CLOCK_UNKNOWN ? ST_CLOCK_WHY_UNUSED : ST_CLOCK_WHY_UNCALIBRATED;
		*source = 0;
	} else {
		return 0;
	}
	*hz = m ? (uint64_t)((1000000000ull << 32) / m) : 0;
	return 1;
}
