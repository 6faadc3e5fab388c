/* A deliberate, reproducible competitor for the benchmarks: the loops of
 * KIND run until SIGTERM (or SIGINT) or MAX seconds, whichever comes
 * first, then the whole group ends.
 * usage: bench_load KIND MAX_SECONDS
 *   KIND  LOOP:N[+LOOP:N...]  e.g. spin:2, churn:3, churn:3+spin:1
 *   spin   a busy loop
 *   churn  the shape of a build or a test suite: fork/exec a short program
 *          (cat) that reads 64 KiB through a pipe, wait for it, sleep
 *          0.5 ms; repeat
 * Prints nothing; exits 0 after its loops ended, 2 on a bad KIND. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MAX_LOOPS = 64 };

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static void spin_loop(void)
{
	volatile unsigned long x = 0;
	for (;;)
		x++;
}

/* One churn step: cat copies 64 KiB from a pipe to /dev/null. */
static void churn_step(void)
{
	static char buf[4096];
	int p[2];
	if (pipe(p))
		_exit(1);
	pid_t c = fork();
	if (c == 0) {
		int nul = open("/dev/null", O_WRONLY);
		dup2(p[0], 0);
		dup2(nul, 1);
		close(p[0]);
		close(p[1]);
		execlp("cat", "cat", (char *)0);
		_exit(127);
	}
	close(p[0]);
	for (int i = 0; i < 16 && c > 0; i++)
		if (write(p[1], buf, sizeof buf) < 0)
			break;
	close(p[1]);
	if (c > 0)
		while (waitpid(c, 0, 0) < 0 && errno == EINTR)
			;
	struct timespec d = { 0, 500000 };
	nanosleep(&d, 0);
}

static void churn_loop(void)
{
	for (;;)
		churn_step();
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: bench_load spin:N|churn:N[+...] MAX_SECONDS\n");
		return 2;
	}
	void (*loops[MAX_LOOPS])(void);
	int n = 0;
	char *kinds = strdup(argv[1]), *save = 0;
	for (char *k = strtok_r(kinds, "+", &save); k; k = strtok_r(0, "+", &save)) {
		char *colon = strchr(k, ':'), *end;
		long c = colon ? strtol(colon + 1, &end, 10) : -1;
		if (!colon || end == colon + 1 || *end || c < 1 || c > MAX_LOOPS - n) {
			fprintf(stderr, "bench_load: bad kind '%s' (LOOP:N, N from 1 to %d in all)\n", k, MAX_LOOPS);
			return 2;
		}
		*colon = 0;
		void (*f)(void) = !strcmp(k, "spin") ? spin_loop : !strcmp(k, "churn") ? churn_loop : 0;
		if (!f) {
			fprintf(stderr, "bench_load: unknown loop '%s' (spin, churn)\n", k);
			return 2;
		}
		while (c--)
			loops[n++] = f;
	}
	double max = atof(argv[2]);
	if (n == 0 || !(max > 0)) {
		fprintf(stderr, "bench_load: nothing to run\n");
		return 2;
	}
	setpgid(0, 0); /* the loops and their children: one group to end */
	struct sigaction sa = { .sa_handler = on_stop };
	sigaction(SIGTERM, &sa, 0);
	sigaction(SIGINT, &sa, 0);
	signal(SIGCHLD, SIG_DFL);
	pid_t pids[MAX_LOOPS];
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			signal(SIGTERM, SIG_DFL);
			signal(SIGINT, SIG_DFL);
			loops[i]();
		}
	}
	struct timespec d = { (time_t)max, (long)((max - (time_t)max) * 1e9) };
	while (!stop && nanosleep(&d, &d) < 0 && errno == EINTR)
		;
	signal(SIGTERM, SIG_IGN);
	kill(0, SIGTERM); /* our group only: the loops and their cats */
	for (int i = 0; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], 0, 0);
	return 0;
}
