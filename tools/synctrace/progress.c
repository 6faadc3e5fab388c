/* The progress indicator: a spinner and the elapsed time on standard
 * error, redrawn in place. Callers use it only when stderr is a terminal;
 * it starts after a second, so short runs print nothing. */
#include <stdio.h>
#include <time.h>

#include "synctrace.h"

static const char *label;
static struct timespec started;
static int drawn, last_quarter = -1;

static double elapsed(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - started.tv_sec) + (now.tv_nsec - started.tv_nsec) / 1e9;
}

void progress_start(const char *what)
{
	label = what;
	drawn = 0;
	last_quarter = -1;
	clock_gettime(CLOCK_MONOTONIC, &started);
}

void progress_tick(void)
{
	static const char spin[] = "|/-\\";
	double t = elapsed();
	int quarter = (int)(t * 4);
	if (!label || t < 1.0 || quarter == last_quarter)
		return;
	last_quarter = quarter;
	fprintf(stderr, "\r\033[K" PROG ": %s %c %.0f s", label, spin[quarter & 3], t);
	fflush(stderr);
	drawn = 1;
}

void progress_end(void)
{
	if (drawn)
		fputs("\r\033[K", stderr);
	label = NULL;
	drawn = 0;
}
