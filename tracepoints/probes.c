/* libsynctrace-tp.so: the LTTng-UST probes of every synctrace provider.
 *
 * Loaded only when tracing is wanted (preloaded by `synctrace record`, or
 * dlopen'ed by libsynctrace.so when SYNCTRACE_TRACE=1). Its constructor runs
 * after liblttng-ust's (which it links) and hands libsynctrace.so a table of
 * functions, one per event; each fires its tracepoint. */
#include <stdint.h>

/* meta:start's nonce and repeat fields are this library's, not arguments
 * libsynctrace.so passes (events/meta.def): the probe reads them here. */
static uint64_t st_meta_nonce;
static int st_meta_repeat;

#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "st_all_providers.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "modules.h"
#include "st_batch.h"
#include "st_probes.h"
#include "shared.h"
#include "stacks.h"
#include "tracer.h"

/* synctrace_meta:start and synctrace_meta:config: the announcement.
 *
 * libsynctrace.so hands their values over when the probes register (start,
 * then config: registry.c); the pair is emitted then if a session already
 * records it, else lazily, just before the first event recorded after
 * meta:start became enabled (SYNCTRACE_TRACE=1 loads lttng-ust from a
 * constructor, before it can register with the session daemon; or a
 * session starts later). Either way it precedes every other synctrace
 * event of the process.
 *
 * A lazy announcement can be lost: lttng-ust enables a starting session's
 * tracepoints, then registers each channel with the session daemon (a
 * round trip), and only then marks the session active; an event fired in
 * between emits the pair into the inactive session, which drops it. No
 * probe can see that state, so a lazy announcement is made twice: again,
 * with repeat = 1, by the first event at least ST_REPEAT_NS later (the
 * window is one round trip to the daemon: well under a millisecond, a few
 * scheduler slices on a loaded machine), or by meta:stop if the process
 * ends sooner. meta:start carries a nonce, random per process image and per
 * forked child, by which the analyzers know the repeat for the same
 * process and not an exec (a new image: new nonce, repeat = 0).
 * An announcement made at registration is not repeated: lttng-ust's
 * constructor, which ran before ours, returned once the daemon had set up
 * and started its sessions for this process (unless its wait for the
 * daemon timed out: LTTNG_UST_REGISTER_TIMEOUT, 3 s by default).
 *
 * st_ann, the state; transitions by CAS, by whichever thread gets there:
 *   NONE -> FIRST -> PENDING  an event, once meta:start is enabled (lazy)
 *   NONE -> FIRST -> DONE     the probes register with meta:start enabled
 *   PENDING -> REPEAT -> DONE an event ST_REPEAT_NS after the first, or stop
 *   any -> NONE               a forked child, with the fork helper (new nonce)
 * Threads whose event finds FIRST or REPEAT wait for the pair's end. */
enum {
	ST_ANN_NONE,	/* not announced (values unknown, or nothing enabled yet) */
	ST_ANN_FIRST,	/* a thread is emitting the first pair; others wait */
	ST_ANN_PENDING, /* announced lazily at st_ann_ns: the repeat is due */
	ST_ANN_REPEAT,	/* a thread is emitting the repeat; others wait */
	ST_ANN_DONE,	/* nothing more to emit */
};
#define ST_REPEAT_NS 100000000LL /* 100 ms */

static int st_start_args[5], st_config_args[3], st_start_known;
static uint64_t st_config_threshold;
static volatile int st_ann;
static int64_t st_ann_ns;
/* lttng-ust's fork helper is preloaded: a child registers anew, with its own
 * vpid, and announces itself. Without it the child records under the
 * parent's cached vpid and stays, for the trace, the parent. */
static int st_fork_helper;
/* The process's first event waits for lttng-ust's registration
 * (SYNCTRACE_REGISTER_WAIT, src/trace/ready.h); cleared by that wait. */
static int st_await;
/* This thread is a forked child's, whose registration may still run: it
 * waits for it before closing descriptors or setting limits (fork). */
static __thread int st_child_unsettled __attribute__((tls_model("initial-exec")));
/* The command `synctrace record` runs (SYNCTRACE_TOP_PID): in the trace
 * even if it records nothing (st_tp_init). */
static int st_top;

static int64_t st_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A process image's nonce: random; if the kernel has no entropy to give
 * yet, the time, the pid and a stack address (ASLR) mixed. Never 0. */
static uint64_t st_new_nonce(void)
{
	uint64_t n = 0;
	if (getrandom(&n, sizeof(n), GRND_NONBLOCK) != (ssize_t)sizeof(n)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		n = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		n ^= ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)&ts;
		n = (n ^ (n >> 30)) * 0xBF58476D1CE4E5B9ull; /* splitmix64's finalizer */
		n = (n ^ (n >> 27)) * 0x94D049BB133111EBull;
		n ^= n >> 31;
	}
	return n ? n : 1;
}

static void st_emit_module(const struct st_module *m, int first)
{
	lttng_ust_tracepoint(synctrace_meta, module, m->baddr, m->memsz, m->path, m->build_id,
			     m->nbuild_id, first);
}

static void st_emit_base(int tid, uint64_t cpu_ns, int64_t runq_ns)
{
	lttng_ust_tracepoint(synctrace_meta, base, tid, cpu_ns, runq_ns);
}

/* The pair's only call sites; then the loaded objects (modules.c), all of
 * them each time: the repeat's list replaces what the first may have lost. */
static void st_announce(int repeat)
{
	st_meta_repeat = repeat;
	lttng_ust_tracepoint(synctrace_meta, start, st_start_args[0], st_start_args[1],
			     st_start_args[2], st_start_args[3], st_start_args[4]);
	lttng_ust_tracepoint(synctrace_meta, config, st_config_args[0], st_config_args[1],
			     st_config_args[2], st_config_threshold);
	if (lttng_ust_tracepoint_enabled(synctrace_meta, module))
		st_modules_each(1, st_emit_module);
	/* What the threads alive now used before the trace (the repeat's own
	 * values: a reader takes those of the announcement it took) */
	if (lttng_ust_tracepoint_enabled(synctrace_meta, base))
		synctrace_threads_base(st_emit_base);
}

/* After a dlopen that returned a handle: the objects it loaded, unless the
 * process is not announced yet (its announcement will list them). A pair
 * being emitted may have listed the objects before this load: wait for
 * it, then emit what it did not. */
static void st_dlopened(void)
{
	int cs, s;
	if (!lttng_ust_tracepoint_enabled(synctrace_meta, module))
		return;
	while ((s = __atomic_load_n(&st_ann, __ATOMIC_ACQUIRE)) == ST_ANN_FIRST ||
	       s == ST_ANN_REPEAT)
		sched_yield();
	if (s == ST_ANN_NONE)
		return;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
	st_modules_each(0, st_emit_module);
	pthread_setcancelstate(cs, 0);
}

/* dlopen and dlmopen, preloaded with this library by `synctrace record`,
 * which no longer preloads lttng-ust's dl helper: objects loaded after the
 * announcement are emitted as they come. As with the helper, the real call
 * sees this library as its caller, which matters only to a bare name
 * looked up in the calling object's DT_RPATH or DT_RUNPATH. */
typedef void *(*dlopen_fn)(const char *, int);
typedef void *(*dlmopen_fn)(Lmid_t, const char *, int);

/* The next definition of `name` (libc's), looked up once into *slot (the
 * same value whichever thread stores it). */
static void *st_next(void **slot, const char *name)
{
	void *f = __atomic_load_n(slot, __ATOMIC_RELAXED);
	if (!f && (f = dlsym(RTLD_NEXT, name)))
		__atomic_store_n(slot, f, __ATOMIC_RELAXED);
	return f;
}

__attribute__((visibility("default"))) void *dlopen(const char *file, int mode)
{
	static void *next;
	dlopen_fn real = (dlopen_fn)st_next(&next, "dlopen");
	void *h = real ? real(file, mode) : NULL;
	if (h && file)
		st_dlopened();
	return h;
}

__attribute__((visibility("default"))) void *dlmopen(Lmid_t lmid, const char *file, int mode)
{
	static void *next;
	dlmopen_fn real = (dlmopen_fn)st_next(&next, "dlmopen");
	void *h = real ? real(lmid, file, mode) : NULL;
	if (h && file)
		st_dlopened();
	return h;
}

/* fork, preloaded before lttng-ust's fork helper (whose fork registers the
 * child anew, as a process of its own). The child returns at once, while
 * its registration runs in lttng-ust's listener thread: as for a new image
 * (src/trace/ready.h), its first event waits for that registration, at
 * most SYNCTRACE_REGISTER_WAIT ms. Until then the forking thread also
 * waits before the calls that would pull the registration from under
 * lttng-ust: a limit on its resources (setrlimit, prlimit: a child that
 * limits its address space at once, LTP's pthread_mutex_init/5-1 and
 * tests/tracer/oom.c, made lttng-ust assert in its descriptor tracker) and
 * the replacing of a descriptor that may be one of the registration's
 * sockets (dup2, dup3 onto one not known as the program's own,
 * close_range with flags); close, closefrom and close_range go through
 * lttng-ust's descriptor tracker instead, which keeps its own open
 * (below). A shell's child that
 * only execs, or closes and redirects first, so waits for nothing. Other
 * threads of the child are not held: they are the child's own after
 * fork, rare before an exec. Direct system calls are not seen.
 * posix_spawn and vfork children register nothing before their exec. */
typedef pid_t (*fork_fn)(void);

static void st_start_pending(int lazy, int force);
static void st_await_ready(void);

/* The wait st_await asks for, never again after it; announce: then the
 * announcement, as at registration (lazy = 0: the session is started by
 * then), before other threads stop waiting for it. */
static void st_await_registration(int announce)
{
	if (synctrace_ready_wait() && announce)
		st_start_pending(0, 0);
	__atomic_store_n(&st_await, 0, __ATOMIC_RELAXED);
}

__attribute__((visibility("default"))) pid_t fork(void)
{
	static void *next;
	fork_fn real = (fork_fn)st_next(&next, "fork");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	pid_t p = real();
	/* Set once the helper is done with the parent's descriptors (it
	 * closes them in this thread before it registers the child). */
	if (p == 0 && __atomic_load_n(&st_await, __ATOMIC_RELAXED))
		st_child_unsettled = 1;
	return p;
}

/* A forked child's forking thread, before a call that could pull its
 * registration from under lttng-ust: wait for it (and announce, as the
 * first event would). Never again in this thread. */
static void st_child_settle(void)
{
	st_child_unsettled = 0;
	if (__atomic_load_n(&st_await, __ATOMIC_RELAXED))
		st_await_ready();
}

typedef int (*close_fn)(int);
typedef int (*dup2_fn)(int, int);
typedef int (*dup3_fn)(int, int, int);
typedef int (*close_range_fn)(unsigned, unsigned, int);
typedef void (*closefrom_fn)(int);
typedef int (*setrlimit_fn)(__rlimit_resource_t, const struct rlimit *);
typedef int (*setrlimit64_fn)(__rlimit_resource_t, const struct rlimit64 *);
typedef int (*prlimit_fn)(pid_t, __rlimit_resource_t, const struct rlimit *, struct rlimit *);
typedef int (*prlimit64_fn)(pid_t, __rlimit_resource_t, const struct rlimit64 *,
			    struct rlimit64 *);

/* The calls that wait for a child's registration, and their next
 * definitions (libc's), looked up in st_tp_init. */
#define ST_SETTLED_CALLS(X) \
	X(close) X(dup2) X(dup3) X(close_range) X(closefrom) \
	X(setrlimit) X(setrlimit64) X(prlimit) X(prlimit64)
#define ST_NEXT_SLOT(name) static void *st_next_##name;
ST_SETTLED_CALLS(ST_NEXT_SLOT)

/* lttng-ust's descriptor tracker (liblttng-ust-common, 2.9 on; what its
 * liblttng-ust-fd preload uses, no public header in 2.13): lttng-ust
 * creates and closes its sockets and shared memory descriptors under the
 * tracker's lock and marks them; a close through it leaves a marked one
 * open (EBADF), so a forked child's close of another descriptor need not
 * wait for its registration. Looked up by name (NULL: not there, wait). */
typedef int (*st_safe_close_fn)(int, int (*)(int));
static void *st_safe_close_slot;

/* The tracker's close (NULL: not there) and, into *one, libc's. */
static st_safe_close_fn st_safe_close(close_fn *one)
{
	*one = (close_fn)st_next(&st_next_close, "close");
	return *one ? (st_safe_close_fn)st_next(&st_safe_close_slot, "lttng_ust_safe_close_fd")
		    : NULL;
}

/* Is fd open and not lttng-ust's? Asked through the tracker with a close
 * that closes nothing: it is called only for an unmarked descriptor (or
 * from lttng-ust itself, holding the tracker: then it does not wait
 * either). An fd not open may become lttng-ust's at any moment: no. */
static __thread int st_fd_unmarked __attribute__((tls_model("initial-exec")));

static int st_fd_note_unmarked(int fd)
{
	(void)fd;
	st_fd_unmarked = 1;
	return 0;
}

static int st_fd_not_lttng(int fd)
{
	close_fn one;
	st_safe_close_fn safe = st_safe_close(&one);
	if (!safe || syscall(SYS_fcntl, fd, F_GETFD) < 0)
		return 0;
	st_fd_unmarked = 0;
	safe(fd, st_fd_note_unmarked);
	return st_fd_unmarked;
}

/* The next `name` (of type name_fn) as `real`, once settled if `wait`. */
#define ST_NEXT_SETTLED(name, wait)                                       \
	if (__builtin_expect(st_child_unsettled, 0) && (wait))            \
		st_child_settle();                                        \
	name##_fn real = (name##_fn)st_next(&st_next_##name, #name);      \
	if (!real) {                                                      \
		errno = ENOSYS;                                           \
		return -1;                                                \
	}

/* A forked child closes through the tracker and goes on (a shell's child
 * closes its script's descriptor before its exec: waiting there for a
 * registration its exec throws away cost ~13 ms a command of a bash
 * script, bench/README.md); without the tracker, it waits. */
__attribute__((visibility("default"))) int close(int fd)
{
	if (__builtin_expect(st_child_unsettled, 0)) {
		close_fn one;
		st_safe_close_fn safe = st_safe_close(&one);
		if (safe)
			return safe(fd, one);
	}
	ST_NEXT_SETTLED(close, 1);
	return real(fd);
}

/* Onto an open descriptor not lttng-ust's (a redirection onto standard
 * output): nothing of the registration's is replaced, no wait. */
__attribute__((visibility("default"))) int dup2(int fd, int to)
{
	ST_NEXT_SETTLED(dup2, fd != to && !st_fd_not_lttng(to));
	return real(fd, to);
}

__attribute__((visibility("default"))) int dup3(int fd, int to, int flags)
{
	ST_NEXT_SETTLED(dup3, !st_fd_not_lttng(to));
	return real(fd, to, flags);
}

/* A forked child's descriptors from lo to hi closed through the tracker,
 * those open only (listed from /proc/self/fd, by system calls: lttng-ust's
 * own closefrom through the tracker makes one call a descriptor up to the
 * limit, a million where the limit is a million). 1 done; 0 not (no
 * tracker, no /proc): then the caller waits and closes them at once. The
 * kernel lists a process's descriptors by number, so closing while
 * listing skips none; one lttng-ust makes meanwhile is marked (made under
 * the tracker's lock), or not listed. */
static int st_safe_close_open(unsigned lo, unsigned hi)
{
	close_fn one;
	st_safe_close_fn safe = st_safe_close(&one);
	if (!safe)
		return 0;
	long dir = syscall(SYS_openat, AT_FDCWD, "/proc/self/fd",
			   O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return 0;
	/* linux_dirent64: ino, off, reclen, type, name */
	char buf[4096] __attribute__((aligned(8)));
	long n;
	while ((n = syscall(SYS_getdents64, (int)dir, buf, sizeof(buf))) > 0) {
		for (long at = 0; at < n;) {
			unsigned short reclen;
			memcpy(&reclen, buf + at + 16, sizeof(reclen));
			const char *name = buf + at + 19;
			at += reclen;
			char *end;
			unsigned long fd = strtoul(name, &end, 10);
			if (end == name || *end || fd == (unsigned long)dir || fd < lo || fd > hi)
				continue;
			safe((int)fd, one);
		}
	}
	syscall(SYS_close, (int)dir);
	return 1;
}

/* Without flags, through the tracker (above); else it waits. */
__attribute__((visibility("default"))) int close_range(unsigned lo, unsigned hi, int flags)
{
	if (__builtin_expect(st_child_unsettled, 0) && !flags && lo <= hi &&
	    st_safe_close_open(lo, hi))
		return 0;
	ST_NEXT_SETTLED(close_range, 1);
	return real(lo, hi, flags);
}

__attribute__((visibility("default"))) void closefrom(int lo)
{
	if (__builtin_expect(st_child_unsettled, 0)) {
		if (lo >= 0 && st_safe_close_open((unsigned)lo, ~0u))
			return;
		st_child_settle();
	}
	closefrom_fn real = (closefrom_fn)st_next(&st_next_closefrom, "closefrom");
	if (real)
		real(lo);
}

__attribute__((visibility("default"))) int setrlimit(__rlimit_resource_t r, const struct rlimit *l)
{
	ST_NEXT_SETTLED(setrlimit, 1);
	return real(r, l);
}

__attribute__((visibility("default"))) int setrlimit64(__rlimit_resource_t r,
						       const struct rlimit64 *l)
{
	ST_NEXT_SETTLED(setrlimit64, 1);
	return real(r, l);
}

/* A query (no new limit) changes nothing: it does not wait. */
__attribute__((visibility("default"))) int prlimit(pid_t pid, __rlimit_resource_t r,
						   const struct rlimit *l, struct rlimit *old)
{
	ST_NEXT_SETTLED(prlimit, l != 0);
	return real(pid, r, l, old);
}

__attribute__((visibility("default"))) int prlimit64(pid_t pid, __rlimit_resource_t r,
						     const struct rlimit64 *l, struct rlimit64 *old)
{
	ST_NEXT_SETTLED(prlimit64, l != 0);
	return real(pid, r, l, old);
}

/* Before an event (lazy = 1), or at registration (lazy = 0): emit what is
 * due. force: the repeat now, however recent the first (meta:stop). */
static void st_start_pending(int lazy, int force)
{
	if (!__atomic_load_n(&st_start_known, __ATOMIC_ACQUIRE) ||
	    !lttng_ust_tracepoint_enabled(synctrace_meta, start))
		return;
	int s = __atomic_load_n(&st_ann, __ATOMIC_ACQUIRE);
	if (s == ST_ANN_NONE &&
	    __atomic_compare_exchange_n(&st_ann, &s, ST_ANN_FIRST, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		st_announce(0);
		__atomic_store_n(&st_ann_ns, st_now_ns(), __ATOMIC_RELAXED); /* published by the release below */
		__atomic_store_n(&st_ann, lazy ? ST_ANN_PENDING : ST_ANN_DONE, __ATOMIC_RELEASE);
		return;
	}
	if (s == ST_ANN_PENDING) {
		if (!force && st_now_ns() - st_ann_ns < ST_REPEAT_NS)
			return;
		if (__atomic_compare_exchange_n(&st_ann, &s, ST_ANN_REPEAT, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			st_announce(1);
			__atomic_store_n(&st_ann, ST_ANN_DONE, __ATOMIC_RELEASE);
			return;
		}
	}
	/* Another thread is emitting the pair: our event must come after. */
	while ((s = __atomic_load_n(&st_ann, __ATOMIC_ACQUIRE)) == ST_ANN_FIRST ||
	       s == ST_ANN_REPEAT)
		sched_yield();
}

static void st_note_start(int format_major, int format_minor, int level, int spin_mode,
			  int spin_limit)
{
	/* batched records: a format older readers must refuse */
	st_start_args[0] = st_batch_on ? ST_BATCH_FORMAT_MAJOR : format_major;
	st_start_args[1] = format_minor;
	st_start_args[2] = level;
	st_start_args[3] = spin_mode;
	st_start_args[4] = spin_limit;
}

/* The second announcement: now both are known. */
static void st_note_config(int sem_max_mode, int sem_max, int all_mutexes_spin,
			   uint64_t threshold_ns)
{
	/* Without batches no wait can be held back: every wait is recorded. */
	st_config_threshold = st_batch_on ? threshold_ns : 0;
	st_batch_threshold_ns = (int64_t)st_config_threshold;
	st_config_args[0] = sem_max_mode;
	st_config_args[1] = sem_max;
	st_config_args[2] = all_mutexes_spin;
	__atomic_store_n(&st_start_known, 1, __ATOMIC_RELEASE);
	st_start_pending(0, 0);
}

static void st_fire_meta_stop(int objects_flushed, uint64_t cpu_ns, int64_t runq_ns);
static void st_fire_thread_times(int tid, uint64_t cpu_ns, int64_t runq_ns);
static void st_fire_meta_clock(int source, int why, uint64_t counter_hz);

/* meta:clock, the durations' clock (libsynctrace.so's synctrace_clock_info):
 * said once it has settled and again when it changes (the counter went
 * back), by whichever caller sees it first: the batches' flusher (about
 * every ST_AGE_NS / 2), a summary table going out, a thread's exit, and
 * the process's stop (final: said however things stand). told: the last
 * (source, why) said, 1 + source + 2 * why; 0 none yet (a forked child
 * with a trace identity of its own starts over). The codes are meta.def's
 * (src/trace/registry.c checks that clock.h's are the same). */
static int st_clock_told;

static int st_clock_code(int source, int why)
{
	return 1 + source + 2 * why;
}

int st_clock_due(void)
{
	int source, why;
	uint64_t hz;
	return synctrace_clock_info(&source, &why, &hz, 0) &&
	       __atomic_load_n(&st_clock_told, __ATOMIC_RELAXED) != st_clock_code(source, why);
}

void st_clock_tell(int final)
{
	int source, why, cs;
	uint64_t hz;
	if (!synctrace_clock_info(&source, &why, &hz, final))
		return;
	int now = st_clock_code(source, why), was = __atomic_load_n(&st_clock_told, __ATOMIC_RELAXED);
	if (was == now ||
	    !__atomic_compare_exchange_n(&st_clock_told, &was, now, 0, __ATOMIC_RELAXED,
					 __ATOMIC_RELAXED))
		return;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
	st_fire_meta_clock(source, why, hz);
	pthread_setcancelstate(cs, 0);
}

/* Nothing recorded yet (every event waits first) and not registered: the
 * trace has nothing of this process to end, and no wait for it: neither
 * stop nor the times of the threads alive at the exit, which come before
 * it (tests/cli/start_lazy.sh: a process that records nothing leaves no
 * event). */
static int st_nothing_to_end(void)
{
	if (__atomic_load_n(&st_await, __ATOMIC_RELAXED)) {
		int r = synctrace_ready_state();
		if (r == 1)
			return 1;
		if (r == 0)
			__atomic_store_n(&st_await, 0, __ATOMIC_RELAXED);
	}
	return 0;
}

static void st_note_thread_times(int tid, uint64_t cpu_ns, int64_t runq_ns)
{
	if (!st_nothing_to_end())
		st_fire_thread_times(tid, cpu_ns, runq_ns);
}

/* The process ends: a repeat still due is made now, before stop. */
static void st_note_stop(int objects_flushed, uint64_t cpu_ns, int64_t runq_ns)
{
	int cs;
	if (st_nothing_to_end())
		return;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
	if (__atomic_load_n(&st_ann, __ATOMIC_ACQUIRE) == ST_ANN_PENDING)
		st_start_pending(1, 1);
	pthread_setcancelstate(cs, 0);
	st_batch_stop(); /* the records precede stop */
	st_clock_tell(1);
	st_fire_meta_stop(objects_flushed, cpu_ns, runq_ns);
}

/* In a child of fork() (the only thread now). With the fork helper: a new
 * process instance, with a nonce of its own, announced by its first
 * recorded event. Without: still the parent for the trace; only a pair the
 * parent was emitting at the fork, which no thread here will finish, is
 * made again (same nonce: the analyzers take it for the same process). */
static void st_forked_child(void)
{
	int s = __atomic_load_n(&st_ann, __ATOMIC_ACQUIRE);
	st_modules_forked();
	if (st_fork_helper) {
		st_meta_nonce = st_new_nonce();
		s = ST_ANN_NONE;
		st_clock_told = 0;
		/* The helper registers the child anew, after this handler. */
		st_await = synctrace_ready_rearm();
		st_top = 0;
	} else {
		/* No listener thread here: a registration the parent awaited
		 * never ends in the child; its events go as the parent's. */
		st_await = 0;
		if (s == ST_ANN_FIRST)
			s = ST_ANN_NONE;
		else if (s == ST_ANN_REPEAT)
			s = ST_ANN_PENDING;
	}
	__atomic_store_n(&st_ann, s, __ATOMIC_RELEASE);
}

/* Recording an event may make a system call that is a cancellation point
 * (lttng-ust writes to the consumer's wakeup pipe when a sub-buffer is
 * delivered): a pending cancel would act right there, inside a
 * pthread_mutex_lock or unlock that POSIX says is no cancellation point,
 * and unwind the program with a lock it does not know it holds. So
 * cancellation is disabled around each event written to LTTng (here, and
 * around each batch in batch.c; a batched record makes no system call).
 * tests/cond/cancel_destroy.c, traced, cancels threads at that moment.
 *
 * Events whose fields are their arguments go to the thread's batch
 * (batch.c) when batching is on and the session records batches, whether
 * or not their own tracepoints are enabled: `synctrace record` enables
 * only the providers of the events written singly (session.c), since each
 * enabled tracepoint costs every new process a round trip to the session
 * daemon (~60 us: bench/README.md, start cost). The others (strings,
 * arrays, fields the probe adds: listed in st_single) are emitted as they
 * are, as is every event when batching is off, each if it is enabled. */
static const unsigned char st_single[ST_EVI_N] = {
	[ST_EVI_meta_start] = 1, [ST_EVI_meta_config] = 1, [ST_EVI_meta_stop] = 1,
	[ST_EVI_meta_clock] = 1, [ST_EVI_meta_base] = 1,
	[ST_EVI_meta_mapping] = 1, [ST_EVI_meta_module] = 1, [ST_EVI_stack_frames] = 1,
	[ST_EVI_thread_name] = 1,
	[ST_EVI_summary_object] = 1, [ST_EVI_batch_records] = 1,
	/* The summary level's flush marks: rare, and written at exit or before a
	 * kill, when a batch ring may never be written out. */
	[ST_EVI_summary_flushed] = 1,
};

/* The first announcement's end (CLOCK_MONOTONIC, the records' time line;
 * 0 before it): a record whose time was read before it (ST_TRACE_AT: a
 * wait's end read for its duration, then the event fires and announces the
 * process, or finds another thread announcing it) takes this time instead,
 * so no record of the process precedes its meta:start in the trace (the
 * analyzers would take it for an earlier process image). Read after
 * st_start_due, which returns only once the first pair is out; published
 * by st_ann's release store. Only a lazy announcement's first events are
 * moved, by at most the pair's duration. */
static inline int64_t st_ann_at(void)
{
	return __atomic_load_n(&st_ann_ns, __ATOMIC_RELAXED);
}

static void st_start_due(void)
{
	int cs;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
	st_start_pending(1, 0);
	pthread_setcancelstate(cs, 0);
}

/* A process's first event, before lttng-ust registered it: wait for the
 * registration (every thread that gets here), then announce the process as
 * at registration (lazy = 0: the session is started by then, no repeat is
 * needed). Timed out: lazily, as with no wait. */
static void st_await_ready(void)
{
	int cs;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
	st_await_registration(1);
	pthread_setcancelstate(cs, 0);
}

/* st_probes.record_at: the time the calling thread's next batched record
 * is to have (0: read the clock then). Taken by that record, or cleared by
 * the next event that is not one of the singly written ones (which a
 * wrapper may emit first: a stack, a mapping), so that it never reaches a
 * later record. LTTng stamps an event written singly itself: the time is
 * for batched records only (record_time tells the caller whether they
 * are). */
static __thread int64_t st_next_at __attribute__((tls_model("initial-exec")));

#define ST_EVENT(fam, name, args, fields)                                         \
	static void st_fire_##fam##_##name(ST_DECL args)                          \
	{                                                                         \
		int cs;                                                           \
		int64_t at_ = 0;                                                  \
		if (!st_single[ST_EVI_##fam##_##name] &&                          \
		    __builtin_expect(st_next_at != 0, 0)) {                       \
			at_ = st_next_at;                                         \
			st_next_at = 0;                                           \
		}                                                                 \
		if (__builtin_expect(__atomic_load_n(&st_await, __ATOMIC_RELAXED), 0)) \
			st_await_ready();                                         \
		const int batch_ = !st_single[ST_EVI_##fam##_##name] && st_batch_on && \
			lttng_ust_tracepoint_enabled(synctrace_batch, records);   \
		if (!batch_ && !lttng_ust_tracepoint_enabled(synctrace_##fam, name)) \
			return;                                                   \
		if (__builtin_expect(st_ann != ST_ANN_DONE, 0))                   \
			st_start_due();                                           \
		/* a time read before the announcement: never before it */        \
		if (__builtin_expect(at_ != 0, 0) && at_ < st_ann_at())          \
			at_ = st_ann_at();                                        \
		if (batch_) {                                                     \
			const uint64_t w_[] = { ST_WORDS args };                  \
			const uint32_t n_ = sizeof(w_) / sizeof(w_[0]);           \
			uint64_t *p_ = st_batch_reserve(n_ + 2);                  \
			if (p_) {                                                 \
				int64_t now_ = at_ ? st_batch_at(st_mine, at_) : st_batch_clock(st_mine); \
				p_[0] = ST_BATCH_HEAD(st_ev_hash[ST_EVI_##fam##_##name], n_); \
				p_[1] = (uint64_t)now_;                           \
				memcpy(p_ + 2, w_, sizeof(w_));                   \
				if (__builtin_expect(st_batch_threshold_ns != 0, 0) && \
				    st_batch_wait_begins[ST_EVI_##fam##_##name])  \
					st_batch_hold(w_[0], now_);               \
				st_batch_commit(n_ + 2, now_, ST_EVI_##fam##_##name); \
				if (__builtin_expect(st_batch_threshold_ns != 0, 0) && \
				    st_batch_wait_slot[ST_EVI_##fam##_##name]) {  \
					const unsigned s_ = st_batch_wait_slot[ST_EVI_##fam##_##name]; \
					st_batch_wait_end(w_[0], s_ == ST_WAIT_SINCE_HOLD \
						? (uint64_t)(now_ - st_mine->hold_ns) \
						: w_[s_ - 1]);                    \
				}                                                 \
				return;                                           \
			}                                                         \
			if (!lttng_ust_tracepoint_enabled(synctrace_##fam, name)) { \
				/* no ring (the thread ended, the process stops, \
				 * no memory) and no tracepoint of its own: this \
				 * record alone, as a batch */                    \
				uint64_t one_[sizeof(w_) / sizeof(w_[0]) + 2];    \
				one_[0] = ST_BATCH_HEAD(st_ev_hash[ST_EVI_##fam##_##name], n_); \
				one_[1] = (uint64_t)(at_ ? at_ : st_batch_now()); \
				memcpy(one_ + 2, w_, sizeof(w_));                 \
				pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs); \
				st_batch_emit((int)gettid(), one_, n_ + 2);       \
				pthread_setcancelstate(cs, 0);                    \
				return;                                           \
			}                                                         \
		}                                                                 \
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);              \
		lttng_ust_do_tracepoint(synctrace_##fam, name, ST_NAMES args);    \
		pthread_setcancelstate(cs, 0);                                    \
	}
#include "st_all_events.h"
#undef ST_EVENT

/* st_probes.record_time: the record clock's now while this thread's
 * batchable events go to its ring (or to a batch of their own: either way
 * stamped by us), else 0. */
static int64_t st_record_time(void)
{
	if (!st_batch_on || !lttng_ust_tracepoint_enabled(synctrace_batch, records))
		return 0;
	struct st_batch *b = st_mine;
	return (uintptr_t)b > 1 ? st_batch_clock(b) : st_batch_now();
}

static void st_record_at(int64_t t)
{
	st_next_at = t;
}

void st_batch_emit(int tid, const uint64_t *words, unsigned n)
{
	st_fire_batch_records(tid, words, n);
}

/* From the flusher thread, in a rotating recording (batch.h): the
 * announcement again, as its repeat, with every loaded object. Only once
 * the process is announced: then nothing else runs st_announce (a fork
 * resets the state in the child alone). */
void st_batch_reannounce(void)
{
	if (__atomic_load_n(&st_ann, __ATOMIC_ACQUIRE) == ST_ANN_DONE)
		st_announce(1);
}

/* The thread's last event: its batch goes out with it. */
static void st_note_thread_exit(int cancelled, uint64_t cpu_ns, int64_t runq_ns)
{
	st_fire_thread_exit(cancelled, cpu_ns, runq_ns);
	st_batch_retire();
	st_clock_tell(0);
}

/* A summary table went out (at most once a second a thread, or at its
 * exit): the clock its durations were read with, once known. */
static void st_note_summary_flushed(int reason, int objects, uint64_t since_ns)
{
	st_fire_summary_flushed(reason, objects, since_ns);
	st_clock_tell(0);
}

/* Not const: st_stacks_install may wrap some entries (SYNCTRACE_STACKS=1). */
static struct st_probes st_table = {
#define ST_EVENT(fam, name, args, fields) .fam##_##name = st_fire_##fam##_##name,
#include "st_all_events.h"
#undef ST_EVENT
	.record_time = st_record_time,
	.record_at = st_record_at,
	.flush = st_batch_flush,
};

/* A call whose caller is in the tracer's code is the tracer's own and is
 * never traced. */
int st_is_tracer_object(const char *name)
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
	if (!info->dlpi_name || !st_is_tracer_object(info->dlpi_name))
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
	Dl_info fork_at;
	void *fork_next = dlsym(RTLD_NEXT, "fork"); /* the next after ours */
	/* At exit lttng-ust cancels its threads; glibc's pthread_cancel
	 * dlopens libgcc_s the first time (to unwind) and aborts the process
	 * if that fails, as it does out of memory (an address-space limit in
	 * a forked child). Loaded now, while there is memory, it is there. */
	dlopen("libgcc_s.so.1", RTLD_NOW | RTLD_NODELETE);
	dl_iterate_phdr(collect_ranges, &c);
	st_meta_nonce = st_new_nonce();
	st_batch_init();
	st_table.batched = st_batch_on;
	st_fork_helper = fork_next && dladdr(fork_next, &fork_at) && fork_at.dli_fname &&
			 strstr(fork_at.dli_fname, "liblttng-ust-fork");
	pthread_atfork(0, 0, st_forked_child);
	/* Looked up now: a forked child must not take the loader's lock. */
#define ST_NEXT_LOOKUP(name) st_next(&st_next_##name, #name);
	ST_SETTLED_CALLS(ST_NEXT_LOOKUP)
	st_table.meta_start = st_note_start;
	st_table.meta_config = st_note_config;
	st_table.meta_stop = st_note_stop;
	st_table.thread_times = st_note_thread_times;
	st_table.thread_exit = st_note_thread_exit;
	st_table.summary_flushed = st_note_summary_flushed;
	st_stacks_install(&st_table);
	st_shared_install(&st_table); /* after: mappings precede stack:use */
	/* Set before the table is in: the process's first event waits. */
	st_await = synctrace_ready_state() == 1;
	const char *top = getenv("SYNCTRACE_TOP_PID");
	st_top = top && atoi(top) == (int)getpid();
	/* The command itself waits here, as lttng-ust's constructor would have
	 * (a process may end in _exit, with no destructor and no stop event):
	 * so the trace always has it, and the channel its processes share is
	 * declared even if all the others end during their registration. */
	if (st_top && st_await)
		st_await_registration(0);
	synctrace_register_probes(&st_table, sizeof(st_table), c.r, c.n);
}

__attribute__((destructor)) static void st_tp_fini(void)
{
	synctrace_unregister_probes();
}
