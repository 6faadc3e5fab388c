/* One run of a real program, timed: its wall time from spawn to exit, its
 * standard output to /dev/null (the apps experiment, exp_apps.sh).
 * usage: timed PROGRAM [ARGS...]
 * prints: timed seconds=S runs_per_s=R status=N  (N: the exit status,
 * or 128 + the signal that ended it) */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: timed PROGRAM [ARGS...]\n");
		return 2;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	double t0 = now();
	int e = posix_spawnp(&pid, argv[1], &fa, 0, argv + 1, environ);
	if (e) {
		fprintf(stderr, "timed: cannot run %s\n", argv[1]);
		return 127;
	}
	int st = 0;
	while (waitpid(pid, &st, 0) < 0)
		;
	double s = now() - t0;
	int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	printf("timed seconds=%.4f runs_per_s=%.4f status=%d\n", s, s > 0 ? 1 / s : 0, status);
	return status;
}
