/* The conformance set: our own tests of the places where a public suite
 * found synctrace unlike glibc (issue 18), one behaviour per process:
 * `test_conformance CASE` runs one case, `--list` prints every case (the
 * README table's ids). Each case asserts glibc's behaviour where we match
 * it, and where we deliberately do not, glibc's in glibc mode and ours
 * preloaded, so that glibc's half is measured on every run. */
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "conformance.h"

static const struct {
	const char *name;
	void (*run)(void);
	const char *symbol; /* interposed preloaded, glibc's otherwise */
} cases[] = {
#define CASE(fn, sym) { #fn, fn, sym }
	CASE(once_throw_resets, "pthread_once"),
	CASE(call_once_throw_resets, "pthread_once"),
	CASE(c11_call_once_throw_resets, "call_once"),
	CASE(once_throw_wakes_waiter, "pthread_once"),
	CASE(thread_throw_terminates, "pthread_create"),
	CASE(sem_wait_token_cancelled, "sem_wait"),
	CASE(sem_timedwait_token_cancelled, "sem_timedwait"),
	CASE(sem_timedwait_einval_not_cancelled, "sem_timedwait"),
	CASE(sem_timedwait_expired_cancelled, "sem_timedwait"),
	CASE(sem_clockwait_token_not_cancelled, "sem_clockwait"),
	CASE(sem_clockwait_empty_cancelled, "sem_clockwait"),
	CASE(sem_clockwait_expired_not_cancelled, "sem_clockwait"),
	CASE(sem_trywait_not_cancelled, "sem_trywait"),
	CASE(barrier_destroy_waits_for_round, "pthread_barrier_destroy"),
	CASE(cond_destroy_waiter_busy, "pthread_cond_destroy"),
	CASE(cond_destroy_pshared_waits, "pthread_cond_destroy"),
#undef CASE
};

int conf_gettid(void)
{
	return (int)syscall(SYS_gettid);
}

void conf_wait_flag(volatile int *flag)
{
	struct timespec d = { 0, 100000 };
	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE))
		nanosleep(&d, 0);
}

int conf_wait_asleep(int tid, volatile int *done)
{
	struct timespec d = { 0, 100000 };
	for (;;) {
		if (__atomic_load_n(done, __ATOMIC_ACQUIRE))
			return 0;
		if (st_thread_in_futex_wait(tid))
			return !__atomic_load_n(done, __ATOMIC_ACQUIRE);
		nanosleep(&d, 0);
	}
}

int main(int argc, char **argv)
{
	size_t n = sizeof(cases) / sizeof(cases[0]);
	if (argc != 2) {
		fprintf(stderr, "usage: %s CASE | --list\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(argv[1], "--list")) {
			puts(cases[i].name);
			continue;
		}
		if (strcmp(argv[1], cases[i].name))
			continue;
		st_check_interposed(cases[i].symbol);
		cases[i].run();
		return 0;
	}
	if (!strcmp(argv[1], "--list"))
		return 0;
	fprintf(stderr, "no case %s\n", argv[1]);
	return 2;
}
