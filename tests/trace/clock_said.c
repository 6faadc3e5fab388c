/* A program whose waits read the durations' clock until it has settled
 * (its scale measured or found unusable: src/internal/clock.h), for
 * clock_said.sh. Two threads pass a turn through two semaphores (every
 * wait that sleeps reads the clock) until libsynctrace.so's
 * synctrace_clock_info says the clock settled, with a 60 s guard.
 *   clock_said         then exit normally
 *   clock_said kill    then start and join a thread (its exit tells the
 *                      probes, as a summary table or the batches' flusher
 *                      would), and SIGKILL itself: no meta:stop
 * Untraced (no synctrace_clock_info) it says so and exits 2. */
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int synctrace_clock_info(int *source, int *why, uint64_t *hz, int final) __attribute__((weak));

static sem_t ping, pong;
static volatile int done;

static void *partner(void *arg)
{
	(void)arg;
	for (;;) {
		sem_wait(&ping);
		if (done)
			return 0;
		sem_post(&pong);
	}
}

static void *nothing(void *arg)
{
	return arg;
}

int main(int argc, char **argv)
{
	int kill_self = argc > 1 && !strcmp(argv[1], "kill");
	if (!synctrace_clock_info) {
		fprintf(stderr, "clock_said: not preloaded with libsynctrace.so\n");
		return 2;
	}
	pthread_t t;
	sem_init(&ping, 0, 0);
	sem_init(&pong, 0, 0);
	if (pthread_create(&t, 0, partner, 0))
		return 1;
	int source = -1, why = -1;
	uint64_t hz = 0;
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long rounds = 0;
	while (!synctrace_clock_info(&source, &why, &hz, 0)) {
		sem_post(&ping);
		sem_wait(&pong);
		rounds++;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec > 60) {
			fprintf(stderr, "clock_said: the clock did not settle in 60 s (%ld rounds)\n",
				rounds);
			return 1;
		}
	}
	done = 1;
	sem_post(&ping);
	pthread_join(t, 0);
	printf("source=%d why=%d hz=%llu\n", source, why, (unsigned long long)hz);
	fflush(stdout);
	if (kill_self) {
		if (pthread_create(&t, 0, nothing, 0) || pthread_join(t, 0))
			return 1;
		raise(SIGKILL);
	}
	return 0;
}
