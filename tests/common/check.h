/* The tests' assertions. A failed check prints where and what, and exits 1:
 * every test runs in its own process, under a ctest timeout. */
#ifndef ST_CHECK_H
#define ST_CHECK_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE

#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(cond)                                                           \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                             \
			exit(1);                                              \
		}                                                             \
	} while (0)

#define CHECK_EQ(a, b)                                                        \
	do {                                                                  \
		long long a_ = (long long)(a), b_ = (long long)(b);           \
		if (a_ != b_) {                                               \
			fprintf(stderr, "%s:%d: check failed: %s == %s (%lld != %lld)\n", \
				__FILE__, __LINE__, #a, #b, a_, b_);          \
			exit(1);                                              \
		}                                                             \
	} while (0)

/* The mode this run is in: "glibc", "preload" or "traced" (ST_TEST_MODE,
 * set by tests/run-mode.sh); "glibc" when run by hand. */
static inline const char *st_test_mode(void)
{
	const char *m = getenv("ST_TEST_MODE");
	return m && *m ? m : "glibc";
}

static inline int st_test_preloaded(void)
{
	return strcmp(st_test_mode(), "glibc") != 0;
}

/* In preload/traced mode, `symbol` as the program binds it must be
 * synctrace's; in glibc mode it must not be: so a broken preload can never
 * test glibc twice. */
static inline void st_check_interposed(const char *symbol)
{
	void *p = dlsym(RTLD_DEFAULT, symbol);
	Dl_info info;
	if (!p || !dladdr(p, &info) || !info.dli_fname) {
		fprintf(stderr, "cannot resolve %s\n", symbol);
		exit(1);
	}
	int ours = strstr(info.dli_fname, "libsynctrace.so") != NULL;
	if (ours != st_test_preloaded()) {
		fprintf(stderr, "mode %s but %s comes from %s\n", st_test_mode(),
			symbol, info.dli_fname);
		exit(1);
	}
}

/* CLOCK_MONOTONIC in ns. */
static inline long long st_mono_now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* An absolute time ms milliseconds from now on clock clk. */
static inline struct timespec st_in_ms(clockid_t clk, long ms)
{
	struct timespec t;
	clock_gettime(clk, &t);
	t.tv_nsec += ms * 1000000L;
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	return t;
}

/* Is the task whose wchan file is `path` (/proc/PID/wchan,
 * /proc/self/task/TID/wchan) asleep in a futex wait? */
static inline int st_wchan_in_futex(const char *path)
{
	char wchan[128] = "";
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(wchan, sizeof(wchan), f))
		wchan[0] = 0;
	fclose(f);
	return strstr(wchan, "futex") != NULL;
}

/* Is thread `tid` of this process asleep in a futex wait? (Tests that need
 * an exact trace wait until a thread is really asleep before waking it.) */
static inline int st_thread_in_futex_wait(int tid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/wchan", tid);
	return st_wchan_in_futex(path);
}

#endif
