/* sa_guard.h: fork, limit, wait, and retry once up to where the child died. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sa_guard.h"

#define PROG "synctrace-report"

#if defined(__SANITIZE_ADDRESS__)
#define SA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SA_ASAN 1
#endif
#endif

/* The reader's memory limit in MB (0: none): SYNCTRACE_REPORT_MEMORY_MB,
 * else half the machine's memory, between 1 and 8 GB. */
static uint64_t memory_limit_mb(void)
{
	const char *e = getenv("SYNCTRACE_REPORT_MEMORY_MB");
	if (e && *e)
		return strtoull(e, NULL, 10);
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	uint64_t mb = pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz / 2 >> 20 : 8192;
	if (mb > 8192)
		mb = 8192;
	if (mb < 1024)
		mb = 1024;
	return mb;
}

/* A limit on the address space, so a runaway allocation fails (and GLib
 * aborts) instead of taking the machine's memory. Not under ASan, whose
 * shadow memory is terabytes of address space: there the parent watches
 * the reader's resident memory instead (wait_reader). */
static void limit_memory(void)
{
#ifndef SA_ASAN
	uint64_t mb = memory_limit_mb();
	struct rlimit rl;
	if (!mb || getrlimit(RLIMIT_AS, &rl))
		return;
	rlim_t lim = (rlim_t)mb << 20;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > lim) {
		rl.rlim_cur = lim;
		setrlimit(RLIMIT_AS, &rl);
	}
#endif
}

/* waitpid for the reader. Under ASan (no address-space limit) it polls
 * every 20 ms and kills a reader whose resident memory passed the limit,
 * as the limit would have stopped it: a runaway allocation (babeltrace2
 * on a garbage sequence length) otherwise takes the machine's memory.
 * *over: 1 if it was killed so. */
static pid_t wait_reader(pid_t pid, int *status, int *over)
{
	*over = 0;
#ifdef SA_ASAN
	uint64_t mb = memory_limit_mb();
	long psz = sysconf(_SC_PAGESIZE);
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r != 0)
			return r;
		FILE *f = mb && psz > 0 ? fopen(path, "r") : NULL;
		unsigned long long rss; /* statm: size, then resident, in pages */
		if (f) {
			if (fscanf(f, "%*s %llu", &rss) == 1 && !*over &&
			    rss * (uint64_t)psz >> 20 > mb) {
				kill(pid, SIGKILL);
				*over = 1;
			}
			fclose(f);
		}
		struct timespec nap = { 0, 20000000 };
		nanosleep(&nap, NULL);
	}
#else
	return waitpid(pid, status, 0);
#endif
}

int sa_guard_run(sa_guarded_fn fn, void *arg, const char *what)
{
	volatile uint64_t *shared = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE,
					 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint64_t stop = 0;
	int died = 0;
	if (shared == MAP_FAILED)
		return fn(arg, 0, NULL, 0);
	fflush(NULL);
	for (int attempt = 0;; attempt++) {
		*shared = 0;
		pid_t pid = fork();
		if (pid < 0) {
			munmap((void *)shared, sizeof(uint64_t));
			return fn(arg, 0, NULL, 0);
		}
		if (pid == 0) {
			limit_memory();
			int rc = fn(arg, stop, shared, died);
			fflush(NULL);
			_exit(rc);
		}
		int status, over;
		while (wait_reader(pid, &status, &over) < 0)
			if (errno != EINTR) {
				fprintf(stderr, PROG ": waiting for the reader: %s\n", strerror(errno));
				return 2;
			}
		if (WIFEXITED(status)) {
			munmap((void *)shared, sizeof(uint64_t));
			return WEXITSTATUS(status);
		}
		died = WTERMSIG(status);
		if (died == SIGPIPE) {
			/* Not the decoder: whoever read our output went away
			 * (`report | head`). End as a filter does, quietly. */
			munmap((void *)shared, sizeof(uint64_t));
			signal(SIGPIPE, SIG_DFL);
			raise(SIGPIPE);
			return 2;
		}
		uint64_t done = *shared;
		int retry = !attempt && done > 0;
		fprintf(stderr, PROG ": reading %s: the decoder died (%s) after %llu messages "
				"(babeltrace2 on a corrupt stream?)%s\n",
			what, over ? "over its memory limit" : strsignal(died), (unsigned long long)done,
			retry ? "; reading again up to that point" : "; no report");
		if (!retry) {
			munmap((void *)shared, sizeof(uint64_t));
			return 2;
		}
		stop = done;
	}
}
