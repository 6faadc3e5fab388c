/* A thread's CPU time and its wait for a CPU, told at its end (thread:exit)
 * and by the thread that runs the process's exit (meta:stop), for the
 * report's share of a thread's life on a CPU: a thread that waits on no
 * object but is not on a CPU either is blocked elsewhere (I/O, a sleep, a
 * join), one that waited for a CPU was runnable on a crowded machine. */
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal/thread_times.h"

/* The scheduler's count is read only for a thread that used this much CPU
 * time: a new thread's first look at /proc/thread-self costs ~25 us (its
 * entries are made then; ~4 us a read after that), which a thread churn
 * pays at every exit (a traced create, lock and join of a thread: 53 us
 * a thread before, 80 with the read at every exit); a thread that used
 * under 2 ms of CPU is not what a report's "on a CPU" is about, and it
 * gets the CPU clock (~0.3 us) with its run-queue time unknown. */
#define SCHEDSTAT_MIN_CPU_NS 2000000ull
/* At most this many other threads told at the exit (~25 us each). */
#define ST_TIMES_MAX_THREADS 4096u

/* A schedstat file's CPU and run-queue times: 1, or 0 if it cannot be
 * read (the thread ended, no /proc). System calls, not libc's open, read
 * and close: those are cancellation points (a thread with a cancel pending
 * that ends its start routine normally must still end normally:
 * tests/trace/no_cancel_point.c), and in a forked child close is
 * synctrace's own, which waits for the child's registration
 * (src/trace/ready.h; tests/cli/start_lazy.sh). */
static int read_schedstat(const char *path, uint64_t *cpu_ns, int64_t *runq_ns)
{
	char buf[96];
	long fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	long n = syscall(SYS_read, (int)fd, buf, sizeof(buf) - 1);
	syscall(SYS_close, (int)fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	char *end, *end2;
	unsigned long long cpu = strtoull(buf, &end, 10);
	if (end == buf || *end != ' ')
		return 0;
	unsigned long long rq = strtoull(end + 1, &end2, 10);
	if (end2 == end + 1)
		return 0;
	*cpu_ns = cpu;
	*runq_ns = (int64_t)rq;
	return 1;
}

/* A CPU clock's reading in ns: 1, or 0 if it cannot be read. */
static int clock_ns(clockid_t id, uint64_t *ns)
{
	struct timespec ts;
	if (clock_gettime(id, &ts))
		return 0;
	*ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return 1;
}

void st_thread_times(uint64_t *cpu_ns, int64_t *runq_ns)
{
	int saved = errno;
	*cpu_ns = 0;
	*runq_ns = -1;
	clock_ns(CLOCK_THREAD_CPUTIME_ID, cpu_ns);
	/* (the scheduler's own count, when read, replaces the clock's) */
	if (*cpu_ns >= SCHEDSTAT_MIN_CPU_NS) {
		uint64_t cpu;
		int64_t runq;
		if (read_schedstat("/proc/thread-self/schedstat", &cpu, &runq))
			*cpu_ns = cpu, *runq_ns = runq;
	}
	errno = saved;
}

/* Another thread's CPU clock (the kernel's per-thread clock id, as
 * pthread_getcpuclockid makes it: a system call, no /proc). */
static int thread_cpu_clock(long tid, uint64_t *cpu_ns)
{
	return clock_ns((clockid_t)((~(unsigned long)tid) << 3) | 6 /* per thread, sched */, cpu_ns);
}

static void other_threads(void (*fn)(int tid, uint64_t cpu_ns, int64_t runq_ns), int light)
{
	int saved = errno;
	int self = (int)syscall(SYS_gettid);
	long dir = syscall(SYS_openat, AT_FDCWD, "/proc/self/task",
			   O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0) {
		errno = saved;
		return;
	}
	/* linux_dirent64: ino, off, reclen, type, name */
	char buf[4096] __attribute__((aligned(8)));
	unsigned told = 0;
	for (;;) {
		long n = syscall(SYS_getdents64, (int)dir, buf, sizeof(buf));
		if (n <= 0)
			break;
		for (long at = 0; at < n;) {
			unsigned short reclen;
			memcpy(&reclen, buf + at + 16, sizeof(reclen));
			const char *name = buf + at + 19;
			at += reclen;
			char *end;
			long tid = strtol(name, &end, 10);
			uint64_t cpu;
			int64_t runq;
			char path[64];
			if (*end || tid <= 0 || tid == self || told >= ST_TIMES_MAX_THREADS)
				continue;
			runq = -1;
			if (light && thread_cpu_clock(tid, &cpu) && cpu < SCHEDSTAT_MIN_CPU_NS) {
				fn((int)tid, cpu, runq);
				told++;
				continue;
			}
			snprintf(path, sizeof(path), "/proc/self/task/%ld/schedstat", tid);
			if (!read_schedstat(path, &cpu, &runq))
				continue;
			fn((int)tid, cpu, runq);
			told++;
		}
	}
	syscall(SYS_close, (int)dir);
	errno = saved;
}

void st_other_threads_times(void (*fn)(int tid, uint64_t cpu_ns, int64_t runq_ns))
{
	other_threads(fn, 0);
}

/* For the announcement's meta:base (through libsynctrace-tp.so, hence
 * exported), once a process image or forked child: fn for the calling
 * thread first, its run-queue time read however little CPU it used (a
 * start-up may wait long for a CPU on a crowded machine; ~25 us, a first
 * look at its /proc entry) and its CPU time from the clock (which counts
 * the current slice; schedstat's may lag by one); then for each other
 * thread alive (none in most processes, but lttng-ust's own; a session
 * started while the program ran: all of them), as at the exit but
 * lighter: the CPU clock, and the scheduler's count past 2 ms of CPU
 * (else run-queue time unknown, -1). errno is kept. */
__attribute__((visibility("default"))) void
synctrace_threads_base(void (*fn)(int tid, uint64_t cpu_ns, int64_t runq_ns))
{
	int saved = errno;
	uint64_t cpu = 0, sched_cpu;
	int64_t runq = -1;
	if (!read_schedstat("/proc/thread-self/schedstat", &sched_cpu, &runq))
		runq = -1;
	clock_ns(CLOCK_THREAD_CPUTIME_ID, &cpu);
	fn((int)syscall(SYS_gettid), cpu, runq);
	other_threads(fn, 1);
	errno = saved;
}
