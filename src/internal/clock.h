/* The clocks of the primitives' events.
 *
 * st_mono_ns: CLOCK_MONOTONIC (vDSO, ~25 ns here), for a time that is
 * compared with another clock's: the trace's timestamps (a full-level
 * hold's start, released.acq_ts) or a kernel deadline.
 *
 * st_now_ns: the clock of durations (how long a wait, a spin or a sleep
 * lasted: one thread's end minus its own start). Where the processor's
 * time-stamp counter is invariant and the kernel itself keeps time with it
 * (clocksource "tsc") or may (listed in available_clocksource), it is the
 * counter scaled to ns: one rdtsc, ~11 ns
 * here, where clock_gettime costs ~25 (a traced hand-off reads it two to
 * four times). Otherwise, or with SYNCTRACE_CLOCK=monotonic, it is
 * st_mono_ns. SYNCTRACE_CLOCK=counter takes the counter wherever it is
 * invariant, whatever the kernel keeps time with (a VM booted with
 * tsc=unstable, whose clock_gettime costs ~30-45 ns): the user's call
 * that its CPUs' counters agree; the safeguards below still hold.
 *
 * The scale is measured, not read: the first read of a traced process
 * notes a (counter, CLOCK_MONOTONIC) pair, and the first read at least
 * ST_CLOCK_CALIBRATE_NS later takes a second one; their ratio is the scale
 * (error ~ the pairs' brackets over the interval: < 1e-4, typically 5e-6),
 * fixed from then on, so the clock never jumps. Until then st_now_ns is
 * st_mono_ns.
 *
 * State machine (st_clock.state, one CAS per transition; only the thread
 * that wins BUSY writes the fields):
 *
 *   UNKNOWN --eligible?--> BUSY --no------------------------> OFF
 *                               --yes: first pair----------> WARM
 *   WARM --ST_CLOCK_CALIBRATE_NS later--> BUSY --scale------> ON
 *                                              --bad pairs--> WARM
 *   ON --the counter went back------------------------------> OFF
 *
 * BUSY's claimant is the only writer; every other reader returns
 * st_mono_ns meanwhile. ON publishes mult with a release store after
 * base_tsc and base_ns, which never change again: a reader that loads mult
 * (acquire) non-zero reads them whole. A fork while another thread is BUSY
 * leaves the child's state BUSY: st_clock_forked resets it to UNKNOWN.
 *
 * A counter found behind the base by more than ST_CLOCK_SKEW counts went
 * back (reset by a resume from suspend, or a migration): the clock turns
 * OFF for good (mult 0, state OFF) and reads CLOCK_MONOTONIC again; a few
 * counts behind are two CPUs' counters just after the base was taken.
 *
 * A duration never goes backwards: each thread clamps its reads to its
 * last one (st_clock_last), which covers a start read on CLOCK_MONOTONIC
 * just before the scale was published (the first scaled reads begin at
 * the upper bracket of the base pair, never below the kernel clock then)
 * and counters a few cycles apart on two CPUs. */
#ifndef ST_CLOCK_H
#define ST_CLOCK_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define ST_CLOCK_HAVE_TSC 1
#else
#define ST_CLOCK_HAVE_TSC 0
#endif

enum { ST_CLOCK_UNKNOWN, ST_CLOCK_BUSY, ST_CLOCK_OFF, ST_CLOCK_WARM, ST_CLOCK_ON };

/* Why the clock is what it is (st_clock.why; the trace's meta:clock.why,
 * tracepoints/events/meta.def: the same values, checked where the probes
 * emit it). Set by the thread that holds BUSY, or by the one that finds
 * the counter went back, before the state's release. */
enum {
	ST_CLOCK_WHY_KERNEL_USES = 1, /* ON: clocksource tsc */
	ST_CLOCK_WHY_KERNEL_LISTS,    /* ON: listed in available_clocksource */
	ST_CLOCK_WHY_FORCED,          /* ON: SYNCTRACE_CLOCK=counter */
	ST_CLOCK_WHY_SETTING,         /* OFF: SYNCTRACE_CLOCK=monotonic */
	ST_CLOCK_WHY_NO_COUNTER,      /* OFF: no invariant counter */
	ST_CLOCK_WHY_DISTRUSTED,      /* OFF: the kernel neither uses nor lists it */
	ST_CLOCK_WHY_UNMEASURED,      /* OFF: no tight pair to begin the scale */
	ST_CLOCK_WHY_WENT_BACK,       /* OFF: the counter went back */
	ST_CLOCK_WHY_UNCALIBRATED,    /* (told at exit) WARM: scale not measured yet */
	ST_CLOCK_WHY_UNUSED,          /* (told at exit) UNKNOWN: no duration read */
	ST_CLOCK_WHY_PER_CPU,         /* ON: distrusted, so anchored per CPU (below) */
	ST_CLOCK_WHY_DRIFTED,         /* OFF: a CPU's counter left its anchor's line */
};

/* Per-CPU anchors (why PER_CPU): where the kernel distrusts an invariant
 * counter (a VM booted with tsc=unstable: its CPUs' counters may differ
 * by an offset, or change rate when the host moves the VM), the
 * durations still read it, never across CPUs (and so do the records,
 * through anchors of their own: tracepoints/batch.h): a read maps its own CPU's count to ns
 * through that CPU's anchor, a (count, CLOCK_MONOTONIC) pair taken on
 * that CPU at most ST_CLOCK_REANCHOR_NS before, with the process's
 * measured scale. Each new anchor first checks the old one's prediction:
 * off by more than ST_CLOCK_DRIFT_NS (plus the scale's error) the counter
 * is not linear with the kernel's clock on that CPU, and the clock turns
 * OFF for good (why DRIFTED). The CPU is the thread's rseq cpu_id (glibc
 * registers rseq: a TLS load, where sched_getcpu costs ~20 ns), read
 * before and after the count; a thread that moved in between reads
 * CLOCK_MONOTONIC. Why not one ordered clock read: clock_gettime on
 * kvm-clock (and rdtscp, lfence;rdtsc) waits for the loads before it,
 * so on a hand-off's path, behind a cache line coming from the other
 * CPU, it costs ~35 ns a read more than a plain rdtsc (bench/README.md,
 * "Per-CPU anchors, session 24").
 *
 * Each anchor is a seqlock: seq odd while its writer (one thread, which
 * won the CAS from even) stores; a reader that sees seq odd, or changed
 * across its loads, takes the slow path. seq 0: never anchored. */
#define ST_CLOCK_CPUS 256
#define ST_CLOCK_REANCHOR_NS 8000000ull /* the scale's error (~1e-5) over it: ~80 ns */
#define ST_CLOCK_DRIFT_NS 20000ull
/* TSan models no fences (-Wtsan): its builds order an anchor's fields by
 * their own accesses instead (acquire loads, release stores), which
 * orders what the fences order here. */
#ifdef __SANITIZE_THREAD__
#define ST_ANCHOR_LOAD __ATOMIC_ACQUIRE
#define ST_ANCHOR_STORE __ATOMIC_RELEASE
#define st_anchor_fence(order) ((void)0)
#else
#define ST_ANCHOR_LOAD __ATOMIC_RELAXED
#define ST_ANCHOR_STORE __ATOMIC_RELAXED
#define st_anchor_fence(order) __atomic_thread_fence(order)
#endif
struct st_clock_anchor {
	uint32_t seq;
	uint64_t tsc, ns; /* the pair, ns its bracket's middle (clock.c, anchor_pair) */
} __attribute__((aligned(64)));
extern struct st_clock_anchor st_clock_anchors[ST_CLOCK_CPUS];
/* The per-CPU mode may be used (config.c sets it at every level; the
 * summary level's alone until session 26); tests/clock sets and clears it. */
extern int st_clock_percpu_allowed;

/* Counts behind the base that two CPUs' counters in step can differ by
 * (~0.3 ms at 3 GHz); more is a counter that went back. */
#define ST_CLOCK_SKEW (1ll << 20)

/* 20 ms between the two pairs: a bracket of ~100 ns is 5e-6 of it. */
#define ST_CLOCK_CALIBRATE_NS 20000000ull

struct st_clock {
	uint64_t mult;     /* ns per count, 32.32 fixed point; 0 until ON */
	uint64_t base_tsc; /* the second pair: its count ... */
	uint64_t base_ns;  /* ... and its CLOCK_MONOTONIC, the bracket's upper end */
	uint64_t warm_tsc, warm_ns; /* the first pair (WARM) */
	int state;
	int why; /* ST_CLOCK_WHY_*: of OFF and ON */
	uint64_t hz_mult; /* mult as measured, kept when the counter went back */
	int percpu;        /* ON through per-CPU anchors (set before mult) */
	int warm_cpu;      /* per-CPU: the CPU of the first pair */
	uint64_t reanchor; /* per-CPU: ST_CLOCK_REANCHOR_NS in counts (before mult) */
};
extern struct st_clock st_clock;
/* SYNCTRACE_CLOCK (config.c sets it): ST_CLOCK_TSC_AUTO (default),
 * _NEVER (monotonic), _FORCED (counter: src/setting/setting.h). */
extern int st_clock_tsc_allowed;
/* Where the kernel names its clocksource and those it may switch to
 * (sysfs); tests/clock points them at files of its own. */
extern const char *st_clock_source_path;
extern const char *st_clock_available_path;
/* The calling thread's last st_now_ns (the clamp). */
extern __thread uint64_t st_clock_last __attribute__((tls_model("initial-exec")));

static inline unsigned long long st_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* t, or the calling thread's last read if that was later (and then t
 * becomes the last). */
static inline unsigned long long st_clock_clamp(uint64_t t)
{
	uint64_t last = st_clock_last;
	if (__builtin_expect(t < last, 0))
		return last;
	return st_clock_last = t;
}

unsigned long long st_clock_slow(void);
/* A count before the base: d counts behind it (clock.c). */
unsigned long long st_clock_back(int64_t d);
/* A forked child (the library's atfork handler). */
void st_clock_forked(void);

/* What the durations read, for the trace (the probes' meta:clock):
 * exported as synctrace_clock_info(&source, &why, &hz, final), source 0
 * CLOCK_MONOTONIC, 1 the counter; hz the counter's measured rate (0 if it
 * was never scaled). Returns 1 once the clock has settled (ON or OFF),
 * and with final (the process ends) whatever the state: a clock still
 * calibrating read CLOCK_MONOTONIC (UNCALIBRATED), one never read nothing
 * (UNUSED); else 0, and nothing is written. */
int synctrace_clock_info(int *source, int *why, uint64_t *hz, int final);
/* The scale for the record clock (tracepoints/batch.h): ns per count in
 * 32.32, 0 not yet, -1 never (CLOCK_MONOTONIC); *per_cpu: anchored per
 * CPU. */
int64_t synctrace_clock_scale_cpu(int *per_cpu);

/* The time a record of a moment read by st_now_ns as t is to carry
 * (st_<family>_ev_<event>_at's t, src/internal/trace.h): t itself where
 * the durations' clock is CLOCK_MONOTONIC (no scale: the kernel keeps
 * time with another clocksource, or SYNCTRACE_CLOCK=monotonic), which is
 * the records' clock; else 0: the record reads its own. Where
 * clock_gettime costs ~27 ns (kvm-clock here) that is one read less a
 * record that ends a wait. The record is written after the read: any
 * record of this thread written in between is later, and the batch
 * clamps t to it (tracepoints/batch.h, st_batch_at). */
static inline int64_t st_rec_at(unsigned long long t)
{
	return __atomic_load_n(&st_clock.mult, __ATOMIC_RELAXED) ? 0 : (int64_t)t;
}

#if ST_CLOCK_HAVE_TSC
#include "st_rseq.h" /* tracepoints/: st_rseq_cpu, which the records read too */
#endif

/* The per-CPU slow path (clock.c): a new anchor for cpu, or
 * CLOCK_MONOTONIC. */
unsigned long long st_clock_cpu_slow(int cpu);

static inline unsigned long long st_now_ns(void)
{
#if ST_CLOCK_HAVE_TSC
	uint64_t m = __atomic_load_n(&st_clock.mult, __ATOMIC_ACQUIRE);
	if (__builtin_expect(m != 0, 1)) {
		if (st_clock.percpu) {
			/* A seqlock read of this CPU's anchor around the count,
			 * the CPU the same before and after. */
			int cpu = st_rseq_cpu();
			if ((unsigned)cpu < ST_CLOCK_CPUS) {
				struct st_clock_anchor *a = &st_clock_anchors[cpu];
				uint32_t q = __atomic_load_n(&a->seq, __ATOMIC_ACQUIRE);
				uint64_t bt = __atomic_load_n(&a->tsc, ST_ANCHOR_LOAD);
				uint64_t bn = __atomic_load_n(&a->ns, ST_ANCHOR_LOAD);
				uint64_t d = __rdtsc() - bt;
				st_anchor_fence(__ATOMIC_ACQUIRE);
				if (q && !(q & 1) && __atomic_load_n(&a->seq, __ATOMIC_RELAXED) == q &&
				    st_rseq_cpu() == cpu && d < st_clock.reanchor)
					return st_clock_clamp(bn +
							      (uint64_t)(((unsigned __int128)d * m) >> 32));
			}
			return st_clock_cpu_slow(cpu);
		}
		int64_t d = (int64_t)(__rdtsc() - st_clock.base_tsc);
		if (__builtin_expect(d < 0, 0))
			return st_clock_back(d);
		return st_clock_clamp(st_clock.base_ns +
				      (uint64_t)(((unsigned __int128)d * m) >> 32));
	}
#endif
	return st_clock_slow();
}

#endif
