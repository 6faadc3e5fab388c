/* Four threads contend for one mutex for the seconds given (default 2):
 * a workload long enough for a late tracer registration to catch. The
 * optional second argument is work outside the lock (loop iterations,
 * default 0), to contend less (fewer events). "usr1:SECONDS": print
 * "busy: running" once the threads run, and run until SIGUSR1 comes (at
 * most 60 s), then SECONDS more: a late session started before the signal
 * records SECONDS of work however loaded the machine is. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile int stop;
static long counter;
static int outside;

static void *run(void *arg)
{
	(void)arg;
	while (!stop) {
		CHECK_EQ(pthread_mutex_lock(&m), 0);
		counter++;
		for (volatile int i = 0; i < 200; i++)
			;
		CHECK_EQ(pthread_mutex_unlock(&m), 0);
		for (volatile int i = 0; i < outside; i++)
			;
	}
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t t[4];
	const char *arg = argc > 1 ? argv[1] : "2";
	int on_signal = !strncmp(arg, "usr1:", 5);
	double secs = atof(on_signal ? arg + 5 : arg);
	outside = argc > 2 ? atoi(argv[2]) : 0;
	struct timespec d = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	st_check_interposed("pthread_mutex_lock");
	if (on_signal) /* before the threads: they inherit the mask */
		CHECK_EQ(pthread_sigmask(SIG_BLOCK, &usr1, 0), 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(pthread_create(&t[i], 0, run, 0), 0);
	if (on_signal) {
		struct timespec most = { 60, 0 };
		printf("busy: running\n");
		fflush(stdout);
		CHECK_EQ(sigtimedwait(&usr1, 0, &most), SIGUSR1);
	}
	nanosleep(&d, 0);
	stop = 1;
	for (int i = 0; i < 4; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	printf("busy: %ld acquisitions\n", counter);
	/* Which tracing libraries are mapped (for tests/preload/trace_env.sh). */
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[4096];
	int tp = 0, ust = 0;
	while (maps && fgets(line, sizeof(line), maps)) {
		tp |= strstr(line, "libsynctrace-tp.so") != NULL;
		ust |= strstr(line, "liblttng-ust.so") != NULL;
	}
	if (maps)
		fclose(maps);
	printf("busy: probes %s, lttng-ust %s\n", tp ? "mapped" : "absent", ust ? "mapped" : "absent");
	return 0;
}
