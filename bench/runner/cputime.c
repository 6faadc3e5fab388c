/* Runs a program and reports the CPU it got: user and system seconds of
 * the process and all its threads (wait4's rusage), its wall time, and
 * the share of a CPU those make (CPU seconds over wall seconds).
 * usage: bench_cputime OUT PROGRAM [ARGS...]
 * The program's output passes through; OUT gets one line:
 *   cpu_s=U+S user_s=U sys_s=S wall_s=W cpu_share=C
 * Exit status: the program's (128+signal if it was killed). */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static double secs(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench_cputime OUT PROGRAM [ARGS...]\n");
		return 2;
	}
	double t0 = now();
	pid_t pid = fork();
	if (pid < 0) {
		perror("bench_cputime: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("bench_cputime: exec");
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("bench_cputime: wait4");
		return 2;
	}
	double wall = now() - t0, user = secs(ru.ru_utime), sys = secs(ru.ru_stime);
	FILE *f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	fprintf(f, "cpu_s=%.6f user_s=%.6f sys_s=%.6f wall_s=%.6f cpu_share=%.3f\n", user + sys,
		user, sys, wall, wall > 0 ? (user + sys) / wall : 0);
	fclose(f);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
