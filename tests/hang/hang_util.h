/* Shared by the tests/hang programs: each reaches its state, checks in
 * /proc that the threads it means are asleep where it means (the kernel
 * says so: task state S in the system call it names), then says so by
 * writing its pid to the file argv[1] (written whole, then renamed in),
 * and sleeps until the test stops the recording or kills it. */
#ifndef HANG_UTIL_H
#define HANG_UTIL_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <synctrace/flush.h>

#define HANG_FUTEX SYS_futex
#define HANG_NANOSLEEP SYS_clock_nanosleep

static inline pid_t hang_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static inline void hang_nap(long ns)
{
	struct timespec ts = { 0, ns };
	nanosleep(&ts, NULL);
}

/* 1 when thread tid is asleep (state S) in system call nr. */
static inline int hang_asleep_in(pid_t tid, long nr)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *p = strrchr(buf, ')'); /* after the name, which may hold anything */
	if (!p || p[1] != ' ' || p[2] != 'S')
		return 0;
	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	if (!(f = fopen(path, "r")))
		return 0;
	long got = -1;
	int ok = fscanf(f, "%ld", &got) == 1;
	fclose(f);
	return ok && got == nr;
}

/* Wait (20 s at most, else the program fails) until tid sleeps in nr. */
static inline void hang_wait_asleep(_Atomic pid_t *tid, long nr, const char *who)
{
	for (int i = 0; i < 20000; i++) {
		pid_t t = atomic_load(tid);
		if (t && hang_asleep_in(t, nr))
			return;
		hang_nap(1000000);
	}
	fprintf(stderr, "hang test: %s never fell asleep\n", who);
	exit(2);
}

static inline void hang_wait_phase(_Atomic int *phase, int want)
{
	for (int i = 0; i < 20000 && atomic_load(phase) < want; i++)
		hang_nap(1000000);
	if (atomic_load(phase) < want) {
		fprintf(stderr, "hang test: phase %d never reached\n", want);
		exit(2);
	}
}

/* Say the state is reached (HANG_IGNORE_INT=1: with SIGINT ignored from
 * now, as a program that traps it would be). */
static inline void hang_say_ready(const char *path)
{
	char tmp[4096];
	/* The threads just fell asleep: their last records are still in their
	 * batch rings, which the probes' flusher writes out once they are
	 * 10 ms old, every 5 ms (tracepoints/batch.c), and a Ctrl-C kills the
	 * process with what is not written out. A user's Ctrl-C comes long
	 * after a hang began; the test's may come at once (one full test run
	 * lost every record that way): write them out before saying ready.
	 * Traced at the contention or full level, synctrace_flush is there and
	 * succeeds; anything else is a failure of the test's set-up. */
	if (synctrace_flush_now()) {
		fprintf(stderr, "hang test: synctrace_flush failed (not traced?)\n");
		exit(2);
	}
	if (getenv("HANG_IGNORE_INT"))
		signal(SIGINT, SIG_IGN);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) || rename(tmp, path)) {
		perror(path);
		exit(2);
	}
}

/* ... then sleep until stopped. */
static inline void hang_ready(const char *path)
{
	hang_say_ready(path);
	for (;;)
		pause();
}

static inline void hang_name(const char *name)
{
	pthread_setname_np(pthread_self(), name);
}

#endif
