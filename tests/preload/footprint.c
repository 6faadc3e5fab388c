/* Loading libsynctrace.so without tracing changes nothing a program can
 * see: no extra thread, no pthread key taken, no liblttng-ust mapped, no
 * file descriptor opened. Run against glibc and preloaded: same answers. */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static int count_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;
	CHECK(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static int maps_mention(const char *what)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int found = 0;
	CHECK(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, what))
			found = 1;
	fclose(f);
	return found;
}

int main(void)
{
	int fds = count_dir("/proc/self/fd"); /* before anything of ours opens one */
	st_check_interposed("pthread_mutex_lock");
	CHECK_EQ(count_dir("/proc/self/task"), 1);
	CHECK(!maps_mention("lttng"));
	CHECK(!maps_mention("liburcu"));
	CHECK_EQ(maps_mention("libsynctrace.so"), st_test_preloaded());
	CHECK(!maps_mention("libsynctrace-tp"));

	/* The program's first key is key 0, as in a program without us. */
	pthread_key_t k;
	CHECK_EQ(pthread_key_create(&k, 0), 0);
	CHECK_EQ(k, 0);

	/* Using the primitives starts nothing either. */
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	CHECK_EQ(pthread_mutex_lock(&m), 0);
	CHECK_EQ(pthread_mutex_unlock(&m), 0);
	CHECK_EQ(count_dir("/proc/self/task"), 1);
	CHECK(!maps_mention("lttng"));
	/* fds: the count at entry (one more is opendir's own) is unchanged. */
	CHECK_EQ(count_dir("/proc/self/fd"), fds);
	printf("footprint: %s: 1 thread, key 0, no tracer mapped, %d fds\n", st_test_mode(), fds);
	return 0;
}
