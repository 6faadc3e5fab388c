/* Where things are. The build tree's paths and the install paths are
 * compiled in (tools/CMakeLists.txt); a binary running from the build tree
 * uses the build tree's libraries, an installed one the install libdir,
 * each falling back on the other. SYNCTRACE_LIBDIR overrides both. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "synctrace.h"

const char *self_dir(void)
{
	static char dir[PATH_MAX];
	if (!dir[0]) {
		ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
		if (n <= 0)
			return ".";
		dir[n] = 0;
		char *slash = strrchr(dir, '/');
		if (slash)
			*(slash == dir ? slash + 1 : slash) = 0;
	}
	return dir;
}

static int in_build_tree(void)
{
	char real[PATH_MAX];
	return realpath(ST_BUILD_TOOLS_DIR, real) && !strcmp(real, self_dir());
}

static int exists(const char *path, int mode)
{
	return access(path, mode) == 0;
}

static int libs_in(const char *dir, char *lib, char *tp, size_t size)
{
	snprintf(lib, size, "%s/libsynctrace.so", dir);
	snprintf(tp, size, "%s/libsynctrace-tp.so", dir);
	return exists(lib, R_OK) && exists(tp, R_OK);
}

int find_libraries(char *lib, char *tp, size_t size)
{
	const char *env = getenv("SYNCTRACE_LIBDIR");
	if (env && *env) {
		if (libs_in(env, lib, tp, size))
			return 0;
		say("SYNCTRACE_LIBDIR=%s holds no libsynctrace.so and libsynctrace-tp.so", env);
		return -1;
	}
	const char *first = in_build_tree() ? ST_BUILD_DIR : ST_INSTALL_LIBDIR;
	const char *second = in_build_tree() ? ST_INSTALL_LIBDIR : ST_BUILD_DIR;
	if (libs_in(first, lib, tp, size) || libs_in(second, lib, tp, size))
		return 0;
	say("cannot find libsynctrace.so and libsynctrace-tp.so (looked in %s and %s; "
	    "build the project or set SYNCTRACE_LIBDIR)", ST_BUILD_DIR, ST_INSTALL_LIBDIR);
	return -1;
}

/* The first executable of candidates[] (NULL-terminated) into path. */
static int first_executable(const char *const *candidates, char *path, size_t size)
{
	for (; *candidates; candidates++) {
		if (exists(*candidates, X_OK)) {
			snprintf(path, size, "%s", *candidates);
			return 0;
		}
	}
	return -1;
}

int find_analyzer(char *path, size_t size)
{
	char beside[PATH_MAX], sibling[PATH_MAX];
	snprintf(beside, sizeof(beside), "%s/synctrace-report", self_dir());
	snprintf(sibling, sizeof(sibling), "%s/../analysis/synctrace-report", self_dir());
	const char *env = getenv("SYNCTRACE_REPORT");
	const char *c[] = { env && *env ? env : ST_BUILD_REPORT, ST_BUILD_REPORT, beside, sibling,
			    ST_INSTALL_BINDIR "/synctrace-report", NULL };
	return first_executable(c, path, size);
}

int find_demo(char *path, size_t size)
{
	char beside[PATH_MAX];
	snprintf(beside, sizeof(beside), "%s/synctrace-demo", self_dir());
	const char *build = ST_BUILD_TOOLS_DIR "/synctrace-demo";
	const char *inst = ST_INSTALL_LIBEXECDIR "/synctrace/synctrace-demo";
	const char *c[] = { beside, in_build_tree() ? build : inst, build, inst, NULL };
	return first_executable(c, path, size);
}

/* lttng-ust's fork helper: the path found at configure time if it is
 * still there, else the soname for the dynamic linker to look up. */
const char *ust_fork_helper(void)
{
	return exists(ST_UST_FORK_PATH, R_OK) ? ST_UST_FORK_PATH : "liblttng-ust-fork.so.1";
}
