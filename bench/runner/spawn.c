/* The start cost of a process: spawns PROGRAM N times, one at a time
 * (posix_spawn, then waitpid), and prints the median and the range of the
 * time from the spawn to the child's exit, in milliseconds. GAP_MS between
 * two spawns lets the session daemon finish with the last one first.
 * usage: spawn N GAP_MS PROGRAM [ARGS...]
 * prints: spawn n=N median_ms=M min_ms=A max_ms=B */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc < 4 || atoi(argv[1]) < 1) {
		fprintf(stderr, "usage: spawn N GAP_MS PROGRAM [ARGS...]\n");
		return 2;
	}
	int n = atoi(argv[1]), gap = atoi(argv[2]);
	long long *d = calloc((size_t)n, sizeof(*d));
	if (!d)
		return 1;
	for (int i = 0; i < n; i++) {
		pid_t pid;
		int st;
		long long t = now_ns();
		if (posix_spawn(&pid, argv[3], 0, 0, argv + 3, environ) ||
		    waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) {
			fprintf(stderr, "spawn: %s failed\n", argv[3]);
			return 1;
		}
		d[i] = now_ns() - t;
		if (gap > 0)
			usleep((useconds_t)gap * 1000);
	}
	qsort(d, (size_t)n, sizeof(*d), cmp);
	printf("spawn n=%d median_ms=%.2f min_ms=%.2f max_ms=%.2f\n", n, d[n / 2] / 1e6, d[0] / 1e6,
	       d[n - 1] / 1e6);
	free(d);
	return 0;
}
