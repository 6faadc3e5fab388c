/* The durations' clock (src/internal/clock.c, compiled in): one behaviour
 * per process, test_clock BEHAVIOUR. Every wait for a state is bounded by
 * the ctest timeout, never by a fixed sleep; every comparison with
 * CLOCK_MONOTONIC brackets its reads, so a preempted reader widens its own
 * tolerance instead of failing. */
#include "check.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal/clock.h"
#include "setting/setting.h"

#if ST_CLOCK_HAVE_TSC
#include <cpuid.h>
#endif

/* The processor says its counter is invariant (CPUID 0x80000007 EDX bit
 * 8), judged here independently of clock.c. */
static int invariant_counter(void)
{
#if ST_CLOCK_HAVE_TSC
	unsigned a, b, c, d;
	return __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8));
#else
	return 0;
#endif
}

/* This machine qualifies as clock.c decides (invariant counter; the
 * kernel's clocksource is tsc, or tsc is among those it may use), judged
 * here independently. */
static int machine_has_tsc_clock(void)
{
	char cur[64] = { 0 }, avail[256] = { 0 };
	FILE *f = fopen(st_clock_source_path, "r");
	if (f) {
		if (!fgets(cur, sizeof cur, f))
			cur[0] = 0;
		fclose(f);
	}
	if ((f = fopen(st_clock_available_path, "r"))) {
		if (!fgets(avail, sizeof avail, f))
			avail[0] = 0;
		fclose(f);
	}
	int listed = 0;
	for (char *w = strtok(avail, " \n"); w; w = strtok(0, " \n"))
		listed |= !strcmp(w, "tsc");
	return invariant_counter() && (!strcmp(cur, "tsc\n") || listed);
}

/* Point clock.c at a clocksource of our own and a list of available ones
 * (files in /tmp, removed once the clock has decided: settle()). */
static char cur_path[] = "/tmp/st-clock-XXXXXX", avail_path[] = "/tmp/st-clock-XXXXXX";

static void clocksources(const char *cur, const char *avail)
{
	int fd = mkstemp(cur_path);
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, cur, strlen(cur)), (ssize_t)strlen(cur));
	close(fd);
	fd = mkstemp(avail_path);
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, avail, strlen(avail)), (ssize_t)strlen(avail));
	close(fd);
	st_clock_source_path = cur_path;
	st_clock_available_path = avail_path;
}

static void clocksources_done(void)
{
	unlink(cur_path);
	unlink(avail_path);
	strcpy(cur_path, "/tmp/st-clock-XXXXXX"); /* mkstemp's templates again */
	strcpy(avail_path, "/tmp/st-clock-XXXXXX");
}

static int state(void)
{
	return __atomic_load_n(&st_clock.state, __ATOMIC_ACQUIRE);
}

/* What the trace's meta:clock would say (synctrace_clock_info): source
 * and why, 1 if settled (or final); *hz the counter's measured rate. */
static int told(int final, int *source, int *why, uint64_t *hz)
{
	*source = *why = -1;
	*hz = 1;
	return synctrace_clock_info(source, why, hz, final);
}

/* Settled as want_source for reason want_why; a counter's rate within 1 %
 * of what the pairs 20 ms apart measured (the scale), 0 where never
 * scaled. */
static void says(int want_source, int want_why)
{
	int source, why;
	uint64_t hz;
	CHECK_EQ(told(0, &source, &why, &hz), 1);
	CHECK_EQ(source, want_source);
	CHECK_EQ(why, want_why);
	if (st_clock.hz_mult) {
		double want = 1e9 * 4294967296.0 / (double)st_clock.hz_mult;
		CHECK(hz > 1000000 && (double)hz > want * 0.99 && (double)hz < want * 1.01);
	} else {
		CHECK_EQ(hz, 0);
	}
}

/* Read until the clock has decided (ON or OFF). */
static void settle(void)
{
	while (state() != ST_CLOCK_ON && state() != ST_CLOCK_OFF)
		(void)st_now_ns();
}

/* st_now_ns between two CLOCK_MONOTONIC reads at most 20 us apart. */
static void bracketed(uint64_t *lo, uint64_t *v, uint64_t *hi)
{
	do {
		*lo = st_mono_ns();
		*v = st_now_ns();
		*hi = st_mono_ns();
	} while (*hi - *lo > 20000);
}

/* Settled, the clock is the counter if want, else CLOCK_MONOTONIC, and its
 * durations agree with CLOCK_MONOTONIC's within 1e-3 over 50 ms (the
 * calibration's error is ~1e-5). */
static void agrees(int want)
{
	settle();
	CHECK_EQ(state(), want ? ST_CLOCK_ON : ST_CLOCK_OFF);
	CHECK_EQ(st_clock.mult != 0, want);
	for (int round = 0; round < 3; round++) {
		uint64_t lo1, v1, hi1, lo2, v2, hi2;
		bracketed(&lo1, &v1, &hi1);
		uint64_t until = lo1 + 50000000;
		while (st_mono_ns() < until)
			;
		bracketed(&lo2, &v2, &hi2);
		/* the true interval between the two reads is in [lo2 - hi1, hi2 - lo1] */
		double d = (double)(v2 - v1), min = (double)(lo2 - hi1), max = (double)(hi2 - lo1);
		if (!(d >= min * (1 - 1e-3) && d <= max * (1 + 1e-3))) {
			fprintf(stderr, "round %d: %.0f ns by st_now_ns, [%.0f, %.0f] by CLOCK_MONOTONIC\n",
				round, d, min, max);
			CHECK(0);
		}
	}
}

/* Where the machine qualifies the clock turns to the counter; elsewhere
 * it stays CLOCK_MONOTONIC. */
static void calibrates(void)
{
	int source, why;
	uint64_t hz;
	/* nothing read yet: not settled; at exit, "unused" */
	CHECK_EQ(told(0, &source, &why, &hz), 0);
	CHECK_EQ(told(1, &source, &why, &hz), 1);
	CHECK_EQ(source, 0);
	CHECK_EQ(why, ST_CLOCK_WHY_UNUSED);
	CHECK_EQ(hz, 0);
	(void)st_now_ns();
	if (state() == ST_CLOCK_WARM) { /* calibrating: still CLOCK_MONOTONIC */
		CHECK_EQ(told(0, &source, &why, &hz), 0);
		CHECK_EQ(told(1, &source, &why, &hz), 1);
		CHECK_EQ(source, 0);
		CHECK_EQ(why, ST_CLOCK_WHY_UNCALIBRATED);
	}
	agrees(machine_has_tsc_clock());
	if (machine_has_tsc_clock())
		CHECK(st_clock.why == ST_CLOCK_WHY_KERNEL_USES ||
		      st_clock.why == ST_CLOCK_WHY_KERNEL_LISTS);
	says(machine_has_tsc_clock(), st_clock.why);
}

/* SYNCTRACE_CLOCK=counter (config.c: ST_CLOCK_TSC_FORCED) on a kernel
 * that keeps time with another clocksource: the counter wherever it is
 * invariant, calibrated as on a tsc kernel (exit 77, skipped, on a
 * processor without an invariant counter). */
static void forced_counter(void)
{
	if (!invariant_counter()) {
		printf("clock_forced_counter: this processor's counter is not invariant\n");
		exit(77);
	}
	clocksources("kvm-clock\n", "kvm-clock acpi_pm \n");
	st_clock_tsc_allowed = ST_CLOCK_TSC_FORCED;
	settle();
	clocksources_done();
	agrees(1);
	says(1, ST_CLOCK_WHY_FORCED);
}

/* A kernel that keeps time with another clocksource (a VM's kvm-clock,
 * preferred by its rating) but lists tsc among those it may use: the
 * counter, by default (exit 77, skipped, without an invariant counter). A
 * list with only tsc-early (the boot-time one) does not count. */
static void tsc_available(void)
{
	if (!invariant_counter()) {
		printf("clock_tsc_available: this processor's counter is not invariant\n");
		exit(77);
	}
	pid_t p = fork();
	CHECK(p >= 0);
	if (!p) {
		clocksources("kvm-clock\n", "kvm-clock tsc-early acpi_pm \n");
		settle();
		clocksources_done();
		CHECK_EQ(state(), ST_CLOCK_OFF);
		says(0, ST_CLOCK_WHY_DISTRUSTED);
		_exit(0);
	}
	int status;
	CHECK_EQ(waitpid(p, &status, 0), p);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	clocksources("kvm-clock\n", "kvm-clock tsc acpi_pm \n");
	settle();
	clocksources_done();
	agrees(1);
	says(1, ST_CLOCK_WHY_KERNEL_LISTS);
}

/* SYNCTRACE_CLOCK=monotonic (config.c clears st_clock_tsc_allowed): the
 * clock stays CLOCK_MONOTONIC, read for read. */
static void monotonic_setting(void)
{
	st_clock_tsc_allowed = ST_CLOCK_TSC_NEVER;
	settle();
	CHECK_EQ(state(), ST_CLOCK_OFF);
	CHECK_EQ(st_clock.mult, 0);
	says(0, ST_CLOCK_WHY_SETTING);
	for (int i = 0; i < 1000; i++) {
		uint64_t lo = st_mono_ns(), v = st_now_ns(), hi = st_mono_ns();
		CHECK(v >= lo && v <= hi);
	}
}

/* A kernel that keeps time with another clocksource and does not list
 * tsc among those it may use (a VM booted with tsc=unstable, a machine
 * whose counters drifted apart): CLOCK_MONOTONIC. */
static void other_clocksource(void)
{
	clocksources("kvm-clock\n", "kvm-clock acpi_pm \n");
	settle();
	clocksources_done();
	CHECK_EQ(state(), ST_CLOCK_OFF);
	CHECK_EQ(st_clock.mult, 0);
	says(0, invariant_counter() ? ST_CLOCK_WHY_DISTRUSTED : ST_CLOCK_WHY_NO_COUNTER);
	int pc = 1;
	CHECK_EQ(synctrace_clock_scale_cpu(&pc), -1);
	CHECK_EQ(pc, 0);
}

/* A counter that went back (a resume from suspend resets it): a few counts
 * behind the base is two CPUs' skew and changes nothing; far behind turns
 * the clock to CLOCK_MONOTONIC for good, in order. Needs an invariant
 * counter (exit 77, skipped, on a machine without it); taken with
 * SYNCTRACE_CLOCK=counter, so a kernel on another clocksource runs it too. */
static void counter_went_back(void)
{
	st_clock_tsc_allowed = ST_CLOCK_TSC_FORCED;
	settle();
	if (state() != ST_CLOCK_ON) {
		printf("clock_counter_went_back: this machine's durations do not read the counter\n");
		exit(77);
	}
	uint64_t base = st_clock.base_tsc, prev = st_now_ns();
	st_clock.base_tsc = __rdtsc() + 1000; /* a few counts ahead of ours */
	uint64_t v = st_now_ns();
	CHECK(v >= prev);
	CHECK_EQ(state(), ST_CLOCK_ON);
	st_clock.base_tsc = base;
	prev = st_now_ns();
	st_clock.base_tsc = __rdtsc() + (1ull << 40); /* ours went far back */
	v = st_now_ns();
	CHECK(v >= prev);
	CHECK_EQ(state(), ST_CLOCK_OFF);
	CHECK_EQ(st_clock.mult, 0);
	says(0, ST_CLOCK_WHY_WENT_BACK); /* and still the rate it measured */
	{
		int source, why;
		uint64_t hz;
		told(0, &source, &why, &hz);
		CHECK(hz > 1000000);
	}
	st_clock.base_tsc = base;
	/* from here CLOCK_MONOTONIC, never before the last scaled read (which
	 * is at most its bracket, 2 us, ahead of the kernel clock) */
	for (int i = 0; i < 1000; i++) {
		prev = v;
		v = st_now_ns();
		CHECK(v >= prev && v <= st_mono_ns() + 2000);
	}
	uint64_t lo = st_mono_ns() + 3000;
	while (st_mono_ns() < lo)
		;
	lo = st_mono_ns();
	v = st_now_ns();
	CHECK(v >= lo && v <= st_mono_ns());
}

/* No thread ever reads a time before its previous one: not across the
 * switch from CLOCK_MONOTONIC to the counter (the threads start before it),
 * not across CPUs (each hops between the CPUs it may use). */
static volatile int go;

static void *reader(void *arg)
{
	long id = (long)arg;
	cpu_set_t mine;
	int cpus[CPU_SETSIZE], n = 0;
	CHECK_EQ(sched_getaffinity(0, sizeof mine, &mine), 0);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &mine))
			cpus[n++] = c;
	while (!go)
		;
	uint64_t last = st_now_ns(), start = st_mono_ns();
	long reads = 0;
	/* at least 2e6 reads, and until the clock decided plus 100 ms */
	for (int hop = 0;; hop++) {
		if (n > 1) {
			cpu_set_t one;
			CPU_ZERO(&one);
			CPU_SET(cpus[(hop + id) % n], &one);
			sched_setaffinity(0, sizeof one, &one);
		}
		for (int i = 0; i < 1000; i++, reads++) {
			uint64_t t = st_now_ns();
			if (t < last) {
				fprintf(stderr, "thread %ld, read %ld: %llu after %llu\n", id, reads,
					(unsigned long long)t, (unsigned long long)last);
				CHECK(0);
			}
			last = t;
		}
		int s = state();
		if (reads >= 2000000 && (s == ST_CLOCK_ON || s == ST_CLOCK_OFF) &&
		    st_mono_ns() - start > ST_CLOCK_CALIBRATE_NS + 100000000ull)
			break;
	}
	return 0;
}

static void readers(void)
{
	pthread_t t[3];
	CHECK_EQ(state(), ST_CLOCK_UNKNOWN);
	for (long i = 0; i < 3; i++)
		CHECK_EQ(pthread_create(&t[i], 0, reader, (void *)i), 0);
	go = 1;
	for (int i = 0; i < 3; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
}

static void never_backwards(void)
{
	readers();
	CHECK_EQ(state(), machine_has_tsc_clock() ? ST_CLOCK_ON : ST_CLOCK_OFF);
}

/* ---- per-CPU anchors (the summary level where the kernel distrusts the
 * counter: internal/clock.h) ---- */

/* The per-CPU mode can be had here: an invariant counter and glibc's
 * rseq registration (else exit 77, skipped). */
static void need_per_cpu(const char *what)
{
	if (!invariant_counter() || !&__rseq_size || __rseq_size < 8 ||
	    (unsigned)st_rseq_cpu() >= ST_CLOCK_CPUS) {
		printf("clock_%s: no invariant counter or no rseq here\n", what);
		exit(77);
	}
}

/* A kernel that distrusts the counter, the summary level's allowance:
 * settled ON, anchored per CPU. */
static void per_cpu_on(const char *what)
{
	need_per_cpu(what);
	clocksources("kvm-clock\n", "kvm-clock acpi_pm \n");
	st_clock_percpu_allowed = 1;
	settle();
	clocksources_done();
	CHECK_EQ(state(), ST_CLOCK_ON);
	CHECK_EQ(st_clock.percpu, 1);
}

/* The calling thread on CPU c alone (0 if it may not run there). */
static int pin_to(int c)
{
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(c, &one);
	return sched_setaffinity(0, sizeof one, &one) == 0;
}

/* A kernel that distrusts the counter, at the summary level: the counter
 * anyway, read through an anchor per CPU; every CPU used gets its own,
 * each read on a CPU agrees with CLOCK_MONOTONIC; the records are given
 * the scale, to be read per CPU (tracepoints/batch.h). Not allowed, the
 * same kernel gives CLOCK_MONOTONIC (other_clocksource). */
static void per_cpu(void)
{
	cpu_set_t all;
	CHECK_EQ(sched_getaffinity(0, sizeof all, &all), 0);
	per_cpu_on("per_cpu");
	says(1, ST_CLOCK_WHY_PER_CPU);
	int pc = 0;
	CHECK_EQ(synctrace_clock_scale_cpu(&pc), (int64_t)st_clock.mult);
	CHECK_EQ(pc, 1);
	int used = 0;
	for (int c = 0; c < CPU_SETSIZE && c < ST_CLOCK_CPUS; c++) {
		if (!CPU_ISSET(c, &all) || !pin_to(c))
			continue;
		agrees(1); /* 3 x 50 ms of reads on CPU c */
		uint32_t q = __atomic_load_n(&st_clock_anchors[c].seq, __ATOMIC_ACQUIRE);
		CHECK(q != 0 && !(q & 1));
		used++;
	}
	CHECK(used >= 1);
	CHECK_EQ(sched_setaffinity(0, sizeof all, &all), 0);
	CHECK_EQ(state(), ST_CLOCK_ON);
}

/* Renewing an anchor checks the old one: one that still predicts the
 * kernel's clock is replaced (stays ON); one 1 ms off (a counter that
 * changed rate or jumped on this CPU) turns the clock OFF for good, why
 * DRIFTED, and the reads go on in order on CLOCK_MONOTONIC. */
static void per_cpu_drift(void)
{
	per_cpu_on("per_cpu_drift");
	int c = st_rseq_cpu();
	CHECK(pin_to(c));
	struct st_clock_anchor *a = &st_clock_anchors[c];
	(void)st_now_ns();
	uint32_t q = a->seq;
	CHECK(q != 0 && !(q & 1));
	/* the same line, an interval earlier: due, and still right */
	uint64_t back = st_clock.reanchor + 1000;
	a->tsc -= back;
	a->ns -= (uint64_t)(((unsigned __int128)back * st_clock.mult) >> 32);
	uint64_t prev = st_now_ns();
	CHECK_EQ(state(), ST_CLOCK_ON);
	CHECK_EQ(a->seq, q + 2);
	/* due again, 1 ms off its line */
	a->tsc -= back;
	a->ns -= (uint64_t)(((unsigned __int128)back * st_clock.mult) >> 32) + 1000000;
	uint64_t v = st_now_ns();
	CHECK(v >= prev);
	CHECK_EQ(state(), ST_CLOCK_OFF);
	CHECK_EQ(st_clock.mult, 0);
	says(0, ST_CLOCK_WHY_DRIFTED);
	for (int i = 0; i < 1000; i++) {
		prev = v;
		v = st_now_ns();
		CHECK(v >= prev && v <= st_mono_ns() + 2000);
	}
}

/* Per-CPU reads by threads that hop between CPUs, across the switch
 * from CLOCK_MONOTONIC: never backwards (each thread's clamp, each
 * CPU's own anchor). */
static void per_cpu_never_backwards(void)
{
	need_per_cpu("per_cpu_never_backwards");
	clocksources("kvm-clock\n", "kvm-clock acpi_pm \n");
	st_clock_percpu_allowed = 1;
	readers();
	clocksources_done();
	CHECK_EQ(state(), ST_CLOCK_ON);
	CHECK_EQ(st_clock.percpu, 1);
}

/* A fork while another thread held BUSY: the child starts over (UNKNOWN,
 * or ON if the scale was published), and then decides on its own. */
static void forked_while_busy(void)
{
	settle();
	int decided = state();
	uint64_t mult = st_clock.mult;
	st_clock.state = ST_CLOCK_BUSY; /* as if another thread was calibrating */
	pid_t p = fork();
	CHECK(p >= 0);
	if (!p) {
		st_clock_forked();
		if (mult)
			CHECK_EQ(state(), ST_CLOCK_ON);
		else {
			CHECK_EQ(state(), ST_CLOCK_UNKNOWN);
			settle();
			CHECK_EQ(state(), decided);
		}
		_exit(0);
	}
	int status;
	CHECK_EQ(waitpid(p, &status, 0), p);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(int argc, char **argv)
{
	const char *b = argc > 1 ? argv[1] : "";
	if (!strcmp(b, "calibrates"))
		calibrates();
	else if (!strcmp(b, "forced_counter"))
		forced_counter();
	else if (!strcmp(b, "tsc_available"))
		tsc_available();
	else if (!strcmp(b, "monotonic_setting"))
		monotonic_setting();
	else if (!strcmp(b, "other_clocksource"))
		other_clocksource();
	else if (!strcmp(b, "counter_went_back"))
		counter_went_back();
	else if (!strcmp(b, "never_backwards"))
		never_backwards();
	else if (!strcmp(b, "forked_while_busy"))
		forked_while_busy();
	else if (!strcmp(b, "per_cpu"))
		per_cpu();
	else if (!strcmp(b, "per_cpu_drift"))
		per_cpu_drift();
	else if (!strcmp(b, "per_cpu_never_backwards"))
		per_cpu_never_backwards();
	else {
		fprintf(stderr, "usage: %s calibrates | forced_counter | tsc_available | monotonic_setting | other_clocksource | "
				"counter_went_back | never_backwards | forked_while_busy | per_cpu | per_cpu_drift | "
				"per_cpu_never_backwards\n", argv[0]);
		return 2;
	}
	return 0;
}
