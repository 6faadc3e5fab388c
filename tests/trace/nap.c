/* The batches' flusher naps while no ring holds a record (tracepoints/
 * batch.c): N1 records (failed sem_trywait calls) are made, the flusher
 * writes them out and then naps (it sleeps in a futex wait, not in its
 * 5 ms sleeps); its voluntary context switches over IDLE_MS while the
 * process idles are printed ("idle_wakes=K"); then N2 more records, which
 * must wake it (the test sets SYNCTRACE_TEST_NAP_MS: its nap would
 * otherwise last minutes), and once it naps again, written out, the
 * program kills itself (SIGKILL): the shell script counts N1 + N2 records
 * in the trace. Exit 1 with a message if a state is not reached in 60 s.
 * usage: nap N1 N2 IDLE_MS */
#define _GNU_SOURCE
#include <dirent.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long task_read(int tid, const char *file, char *buf, size_t n)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", tid, file);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t k = fread(buf, 1, n - 1, f);
	fclose(f);
	buf[k] = 0;
	return (long)k;
}

/* The flusher: the thread neither main nor lttng-ust's ("NAME-ust"). */
static int find_flusher(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int found = 0;
	char comm[64];
	while (d && (e = readdir(d))) {
		int tid = atoi(e->d_name);
		if (tid <= 0 || tid == getpid() || task_read(tid, "comm", comm, sizeof(comm)) <= 0)
			continue;
		char *nl = strchr(comm, '\n');
		if (nl)
			*nl = 0;
		size_t l = strlen(comm);
		if (l >= 4 && !strcmp(comm + l - 4, "-ust"))
			continue;
		found = tid;
	}
	if (d)
		closedir(d);
	return found;
}

/* Its system call now (-1: running, or unreadable). */
static long syscall_of(int tid)
{
	char buf[256];
	if (task_read(tid, "syscall", buf, sizeof(buf)) <= 0 || !strncmp(buf, "running", 7))
		return -1;
	return strtol(buf, 0, 10);
}

static long switches(int tid)
{
	char buf[4096];
	if (task_read(tid, "status", buf, sizeof(buf)) <= 0)
		return -1;
	const char *v = strstr(buf, "\nvoluntary_ctxt_switches:");
	return v ? strtol(v + strlen("\nvoluntary_ctxt_switches:"), 0, 10) : -1;
}

static void pause_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000 };
	while (nanosleep(&t, &t))
		;
}

static void records(sem_t *s, int n)
{
	for (int i = 0; i < n; i++)
		if (sem_trywait(s) == 0)
			exit(2);
}

/* Until the flusher naps (in a futex wait) having switched at least
 * `after` times in all; 0 if it never does in 60 s. */
static int napping(int tid, long after)
{
	for (int ms = 0; ms < 60000; ms++) {
		if (syscall_of(tid) == SYS_futex && switches(tid) >= after)
			return 1;
		pause_ms(1);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n1 = argc > 1 ? atoi(argv[1]) : 50, n2 = argc > 2 ? atoi(argv[2]) : 30;
	long idle_ms = argc > 3 ? atol(argv[3]) : 300;
	sem_t s;
	if (sem_init(&s, 0, 0))
		return 2;
	records(&s, n1);
	int tid = 0;
	for (int ms = 0; !tid && ms < 60000; ms++)
		if (!(tid = find_flusher()))
			pause_ms(1);
	if (!tid) {
		printf("no flusher thread\n");
		return 1;
	}
	if (!napping(tid, 0)) {
		printf("the flusher never napped (system call %ld)\n", syscall_of(tid));
		return 1;
	}
	long v0 = switches(tid);
	pause_ms(idle_ms);
	long v1 = switches(tid);
	printf("idle_wakes=%ld\n", v1 - v0);
	records(&s, n2);
	/* woken (its nap would last minutes), then its 5 ms sleeps until the
	 * records are out and two more, then a nap again */
	if (!napping(tid, v1 + 3)) {
		printf("the flusher was not woken by a record, or never napped again "
		       "(%ld switches, system call %ld)\n", switches(tid) - v1, syscall_of(tid));
		return 1;
	}
	fflush(stdout);
	raise(SIGKILL);
	return 0;
}
