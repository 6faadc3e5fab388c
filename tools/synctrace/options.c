/* The record options, shared by `record` and `run`. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synctrace.h"

static int valid_level(const char *s)
{
	return !strcmp(s, "contention") || !strcmp(s, "full");
}

/* none, bail, full, N, bail:N, full:N (the library parses it; this only
 * catches typos before a trace is made for nothing). */
static int valid_spin(const char *s)
{
	const char *n = s;
	if (!strcmp(s, "none") || !strcmp(s, "bail") || !strcmp(s, "full"))
		return 1;
	if (!strncmp(s, "bail:", 5) || !strncmp(s, "full:", 5))
		n = s + 5;
	if (!*n)
		return 0;
	for (; *n; n++)
		if (*n < '0' || *n > '9')
			return 0;
	return 1;
}

/* The report option of a getopt code of record_parse. */
static char *report_opt(int c)
{
	return c == 'F' ? "--format" : c == 'S' ? "--sort" : c == 'T' ? "--top"
	       : c == 'Y' ? "--by" : c == 'A' ? "--all" : "--wide";
}

int record_parse(int argc, char **argv, struct record_opts *o, void (*help)(void), int for_run)
{
	static const struct option longs[] = {
		{ "output", required_argument, 0, 'o' },
		{ "level", required_argument, 0, 'l' },
		{ "spin", required_argument, 0, 's' },
		{ "blocking", optional_argument, 0, 'b' },
		{ "quiet", no_argument, 0, 'q' },
		{ "stacks", no_argument, 0, 'k' },
		{ "help", no_argument, 0, 'h' },
		{ "format", required_argument, 0, 'F' },
		{ "sort", required_argument, 0, 'S' },
		{ "top", required_argument, 0, 'T' },
		{ "by", required_argument, 0, 'Y' },
		{ "all", no_argument, 0, 'A' },
		{ "wide", no_argument, 0, 'W' },
		{ 0, 0, 0, 0 },
	};
	memset(o, 0, sizeof(*o));
	o->blocking_us = -1;
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
				say("--level wants contention or full, not '%s'", optarg);
				return -1;
			}
			o->level = optarg;
			break;
		case 's':
			if (!valid_spin(optarg)) {
				say("--spin wants none, bail, full, N, bail:N or full:N, not '%s'", optarg);
				return -1;
			}
			o->spin = optarg;
			break;
		case 'b':
			o->blocking = 1;
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
		case 'q':
			o->quiet = 1;
			break;
		case 'k':
			o->stacks = 1;
			break;
		case 'h':
			help();
			return 1;
		case 'F':
		case 'S':
		case 'T':
		case 'Y':
		case 'A':
		case 'W':
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
			say("unknown option '%s' (try --help)", argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc)
		o->argv = argv + optind;
	return 0;
}
