/* Bounded recordings: --max-size and --duration stop the session (the
 * command runs on, untraced) and leave a note in the trace folder that the
 * analyzer turns into a message; the trace's growth rate is watched and a
 * warning printed once when it passes --warn-rate. Called from the child's
 * wait loop every 100 ms (limits_tick). */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "synctrace.h"

static const struct record_opts *opts;
static const char *session, *folder;
static struct timespec started;
static int stopped;
static uint64_t rate_bytes;   /* size at the last rate sample */
static double rate_t;         /* its time */
static int warned;

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - started.tv_sec) + (t.tv_nsec - started.tv_nsec) / 1e9;
}

static uint64_t sum;
static int add_size(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)p, (void)f;
	if (flag == FTW_F)
		sum += (uint64_t)st->st_size;
	return 0;
}

/* Bytes in the trace folder (what the consumer daemon has written). */
static uint64_t folder_bytes(void)
{
	sum = 0;
	nftw(folder, add_size, 16, FTW_PHYS);
	return sum;
}

/* One line "KEY: TEXT" appended to the folder's note (analysis/bt2 turns
 * each into a report message). */
static void note(const char *key, const char *text)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/" ST_RECORD_NOTE, folder);
	FILE *f = fopen(path, "a");
	if (!f) {
		say("cannot write %s: %s", path, strerror(errno));
		return;
	}
	fprintf(f, "%s: %s\n", key, text);
	fclose(f);
}

int limits_active(const struct record_opts *o)
{
	return o->max_size || o->duration_ms > 0 || o->warn_rate;
}

void limits_start(const struct record_opts *o, const char *name, const char *dir)
{
	opts = o;
	session = name;
	folder = dir;
	stopped = 0;
	warned = 0;
	rate_bytes = 0;
	rate_t = 0;
	clock_gettime(CLOCK_MONOTONIC, &started);
	if (o->keep_last) {
		char text[160];
		snprintf(text, sizeof(text), "rotating recording (--keep-last %llu bytes): the trace "
			 "holds the end of the run only", (unsigned long long)o->keep_last);
		note("rotating", text);
	}
}

/* The note the analyzer reads (analysis/bt2: SA_CUT_NOTE). */
void limits_tick(void)
{
	if (!opts || stopped)
		return;
	double t = now_s();
	int by_time = opts->duration_ms > 0 && t * 1000.0 >= (double)opts->duration_ms;
	uint64_t bytes = (opts->max_size || opts->warn_rate || by_time) ? folder_bytes() : 0;
	int by_size = opts->max_size && bytes >= opts->max_size;
	if (opts->warn_rate && !warned && t - rate_t >= 0.5) {
		double rate = (double)(bytes - rate_bytes) / (t - rate_t);
		if (rate > (double)opts->warn_rate && !opts->quiet) {
			progress_end();
			say("warning: the trace grows at %.0f MB/s (%.0f MB so far); --max-size, "
			    "--duration or --keep-last bound it, --threshold 1ms (only waits of "
			    "1 ms or more as events) or --level summary (counts only) shrink it",
			    rate / 1e6, (double)bytes / 1e6);
			warned = 1;
		}
		rate_bytes = bytes;
		rate_t = t;
	}
	if (!by_time && !by_size)
		return;
	stopped = 1;
	session_stop(session);
	uint64_t final = folder_bytes();
	char why[96], text[256];
	if (by_size)
		snprintf(why, sizeof(why), "--max-size %llu bytes reached",
			 (unsigned long long)opts->max_size);
	else
		snprintf(why, sizeof(why), "--duration %lld ms reached", (long long)opts->duration_ms);
	snprintf(text, sizeof(text), "recording stopped %.3f s after the start (%s, %llu bytes "
		 "written): what ran after it is not in the trace", t, why,
		 (unsigned long long)final);
	note("cut", text);
	if (!opts->quiet) {
		progress_end();
		say("recording stopped after %.1f s, %.1f MB (%s); the command runs on, untraced",
		    t, (double)final / 1e6, why);
	}
}

int limits_stopped(void)
{
	return stopped;
}
