/* Four threads contend for one mutex for the seconds given (default 2):
 * a workload long enough for a late tracer registration to catch. The
 * optional second argument is work outside the lock (loop iterations,
 * default 0), to contend less (fewer events). */
#include <pthread.h>
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
	double secs = argc > 1 ? atof(argv[1]) : 2.0;
	outside = argc > 2 ? atoi(argv[2]) : 0;
	struct timespec d = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
	st_check_interposed("pthread_mutex_lock");
	for (int i = 0; i < 4; i++)
		CHECK_EQ(pthread_create(&t[i], 0, run, 0), 0);
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
