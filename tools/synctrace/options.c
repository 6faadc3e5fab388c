/* The record options, shared by `record`, `run` and `top`. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "setting/setting.h"
#include "synctrace.h"

/* The library's own parsers (src/setting/setting.c, compiled in), so the
 * command accepts exactly the values the library will. */
static int valid_level(const char *s)
{
	int level;
	return st_parse_level(s, &level) == 0;
}

static int valid_clock(const char *s)
{
	int allowed;
	return st_parse_clock(s, &allowed) == 0;
}

static int valid_spin(const char *s)
{
	int mode, limit;
	return st_parse_spin(s, &mode, &limit) == 0;
}

int parse_size(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno || v < 0 || isnan(v))
		return -1;
	double mult = 1;
	switch (*end) {
	case 'k': case 'K': mult = 1024.0; end++; break;
	case 'm': case 'M': mult = 1024.0 * 1024; end++; break;
	case 'g': case 'G': mult = 1024.0 * 1024 * 1024; end++; break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	v *= mult;
	if (*end || v >= 18e18)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

int parse_duration_ms(const char *s, int64_t *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno || v < 0 || isnan(v))
		return -1;
	double mult = 1000;
	if (!strcmp(end, "ms"))
		mult = 1;
	else if (!strcmp(end, "s") || !*end)
		mult = 1000;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		mult = 60e3;
	else if (!strcmp(end, "h"))
		mult = 3600e3;
	else
		return -1;
	v *= mult;
	if (v >= 9e18)
		return -1;
	*out = (int64_t)v;
	return 0;
}

static int size_opt(const char *name, const char *arg, uint64_t min, uint64_t *out)
{
	if (parse_size(arg, out) || *out < min) {
		say("%s wants a size of at least %llu bytes (4096, 512k, 64M, 1G), not '%s'", name,
		    (unsigned long long)min, arg);
		return -1;
	}
	return 0;
}

/* The report option of a getopt code of record_parse. */
static char *report_opt(int c)
{
	return c == 'F' ? "--format" : c == 'S' ? "--sort" : c == 'T' ? "--top"
	       : c == 'Y' ? "--by" : c == 'A' ? "--all" : "--wide"; /* 'E' */
}

int record_parse(int argc, char **argv, struct record_opts *o, void (*help)(void), int for_run)
{
	static const struct option longs[] = {
		{ "output", required_argument, 0, 'o' },
		{ "level", required_argument, 0, 'l' },
		{ "spin", required_argument, 0, 's' },
		{ "blocking", optional_argument, 0, 'b' },
		{ "no-blocking", no_argument, 0, 'n' },
		{ "quiet", no_argument, 0, 'q' },
		{ "stacks", no_argument, 0, 'k' },
		{ "help", no_argument, 0, 'h' },
		{ "buffer-size", required_argument, 0, 'B' },
		{ "max-size", required_argument, 0, 'M' },
		{ "duration", required_argument, 0, 'D' },
		{ "keep-last", required_argument, 0, 'K' },
		{ "warn-rate", required_argument, 0, 'W' },
		{ "format", required_argument, 0, 'F' },
		{ "sort", required_argument, 0, 'S' },
		{ "top", required_argument, 0, 'T' },
		{ "by", required_argument, 0, 'Y' },
		{ "all", no_argument, 0, 'A' },
		{ "wide", no_argument, 0, 'E' },
		{ "relayd", required_argument, 0, 'R' },
		{ "session", required_argument, 0, 'N' },
		{ "batch", no_argument, 0, 'X' },
		{ "interval", required_argument, 0, 'I' },
		{ "count", required_argument, 0, 'C' },
		{ "max-behind", required_argument, 0, 'H' },
		{ "threshold", required_argument, 0, 'Z' },
		{ "clock", required_argument, 0, 'c' },
		{ 0, 0, 0, 0 },
	};
	memset(o, 0, sizeof(*o));
	o->blocking = 1;
	o->blocking_us = ST_BLOCKING_US_DEFAULT;
	o->warn_rate = ST_WARN_RATE_DEFAULT;
	optind = 1;
	opterr = 0;
	int c;
	/* '+': stop at the first non-option, the command. */
	while ((c = getopt_long(argc, argv, "+o:l:s:qh", longs, 0)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case 'l':
			if (!valid_level(optarg)) {
				say("--level wants contention, full or summary, not '%s'", optarg);
				return -1;
			}
			o->level = optarg;
			break;
		case 'c':
			if (!valid_clock(optarg)) {
				say("--clock wants auto, counter or monotonic, not '%s'", optarg);
				return -1;
			}
			o->clock = optarg;
			break;
		case 'Z': {
			long long ns;
			if (st_parse_duration_ns(optarg, &ns)) {
				say("--threshold wants a duration (100us, 2ms, 1s), not '%s'", optarg);
				return -1;
			}
			o->threshold = optarg;
			break;
		}
		case 's':
			if (!valid_spin(optarg)) {
				say("--spin wants none, bail, full, N, bail:N or full:N, not '%s'", optarg);
				return -1;
			}
			o->spin = optarg;
			break;
		case 'b':
			o->blocking = 1;
			o->blocking_us = -1;
			if (optarg) {
				char *end;
				long long v = strtoll(optarg, &end, 10);
				if (*end || end == optarg || v < -1) {
					say("--blocking=USEC wants microseconds (or -1: forever), not '%s'", optarg);
					return -1;
				}
				o->blocking_us = v;
			}
			break;
		case 'n':
			o->blocking = 0;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'k':
			o->stacks = 1;
			break;
		case 'h':
			help();
			return 1;
		case 'B':
			if (size_opt("--buffer-size", optarg, 8192, &o->buffer_size))
				return -1;
			break;
		case 'M':
			if (size_opt("--max-size", optarg, 1, &o->max_size))
				return -1;
			break;
		case 'K':
			if (size_opt("--keep-last", optarg, 1 << 20, &o->keep_last))
				return -1;
			break;
		case 'W':
			if (parse_size(optarg, &o->warn_rate)) {
				say("--warn-rate wants bytes per second (64M; 0: never), not '%s'", optarg);
				return -1;
			}
			break;
		case 'D':
			if (parse_duration_ms(optarg, &o->duration_ms) || o->duration_ms == 0) {
				say("--duration wants a time (30s, 500ms, 2m, 1h), not '%s'", optarg);
				return -1;
			}
			break;
		case 'R':
			if (for_run == 1)
				goto unknown;
			o->relayd = optarg;
			break;
		case 'N':
		case 'X':
		case 'I':
		case 'C':
		case 'H':
			if (for_run != 2) /* top's */
				goto unknown;
			if (c == 'H')
				o->max_behind = optarg;
			else if (c == 'N')
				o->session = optarg;
			else if (c == 'X')
				o->batch = 1;
			else if (c == 'I')
				o->interval = optarg;
			else
				o->count = optarg;
			break;
		case 'F':
		case 'S':
		case 'T':
		case 'Y':
		case 'A':
		case 'E':
			if (for_run == 2 && c != 'T' && c != 'E') /* top: --top and --wide only */
				goto unknown;
			if (for_run && o->nreport <= 8) { /* run: the report's options, passed on */
				o->report_args[o->nreport++] = report_opt(c);
				if (optarg)
					o->report_args[o->nreport++] = optarg;
				if (c == 'F')
					o->report_format = optarg;
				break;
			}
			/* fall through */
		default:
		unknown:
			say("unknown option '%s' (try --help)", argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc)
		o->argv = argv + optind;
	return 0;
}
