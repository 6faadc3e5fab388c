/* The trace folder: -o DIR (created, parents too; an existing one must be
 * empty), or a new ./synctrace-YYYYmmdd-HHMMSS[-N]. A trace is never
 * written over another. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "synctrace.h"

static int absolute(const char *path, char *out, size_t size)
{
	char cwd[PATH_MAX];
	if (path[0] == '/') {
		snprintf(out, size, "%s", path);
		return 0;
	}
	if (!getcwd(cwd, sizeof(cwd))) {
		say("cannot get the current directory: %s", strerror(errno));
		return -1;
	}
	snprintf(out, size, "%s/%s", cwd, path);
	return 0;
}

/* mkdir -p; errno of the failing step. */
static int mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		int r = mkdir(path, 0755);
		*p = '/';
		if (r && errno != EEXIST)
			return -1;
	}
	return mkdir(path, 0755);
}

static int is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	struct dirent *e;
	int empty = 1;
	while (empty && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = 0;
	closedir(d);
	return empty;
}

static int writable(const char *dir)
{
	if (access(dir, W_OK | X_OK) == 0)
		return 0;
	say("output folder %s is not writable: %s", dir, strerror(errno));
	return -1;
}

static int requested_dir(const char *requested, char *dir, size_t size, int *created)
{
	struct stat st;
	if (absolute(requested, dir, size))
		return -1;
	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			say("output %s exists and is not a folder", dir);
			return -1;
		}
		if (!is_empty(dir)) {
			say("output folder %s is not empty; synctrace never writes over a trace "
			    "(choose a new folder)", dir);
			return -1;
		}
		return writable(dir);
	}
	if (mkdirs(dir)) {
		say("cannot create output folder %s: %s", dir, strerror(errno));
		return -1;
	}
	*created = 1;
	return writable(dir);
}

static int new_dir(char *dir, size_t size)
{
	char base[PATH_MAX], stamp[32];
	time_t now = time(NULL);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	if (absolute("synctrace-", base, sizeof(base)))
		return -1;
	for (int n = 1; n < 1000; n++) {
		if (n == 1)
			snprintf(dir, size, "%s%s", base, stamp);
		else
			snprintf(dir, size, "%s%s-%d", base, stamp, n);
		if (mkdir(dir, 0755) == 0)
			return writable(dir); /* just made: ours */
		if (errno != EEXIST) {
			say("cannot create output folder %s: %s", dir, strerror(errno));
			return -1;
		}
	}
	say("cannot find a new folder name for %s%s", base, stamp);
	return -1;
}

int outdir_make(const char *requested, char *dir, size_t size, int *created)
{
	*created = !requested;
	return requested ? requested_dir(requested, dir, size, created) : new_dir(dir, size);
}
