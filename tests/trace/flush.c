/* synctrace_flush (include/synctrace/flush.h): N failed sem_trywait calls
 * (N sem:trywait_failed records, the last of them still in the thread's
 * ring), then the flush, its result printed ("flush=R"), then, with DIE
 * "die", the program kills itself (SIGKILL, as a crash right after the
 * flush would end it): every record must be in the trace all the same.
 * DIE "no-flush" the same without the flush (the test's control:
 * records are lost). Otherwise it exits (the untraced runs: R is -1).
 * usage: flush N [die|no-flush|exit] */
#include <signal.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <synctrace/flush.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0, r = 1;
	const char *how = argc > 2 ? argv[2] : "exit";
	sem_t s;

	if (sem_init(&s, 0, 0))
		return 2;
	for (int i = 0; i < n; i++)
		if (sem_trywait(&s) == 0)
			return 2;
	if (strcmp(how, "no-flush"))
		r = synctrace_flush_now();
	printf("flush=%d\n", r);
	fflush(stdout);
	if (!strcmp(how, "die") || !strcmp(how, "no-flush"))
		raise(SIGKILL);
	return 0;
}
