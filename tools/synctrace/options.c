/* The record options, shared by `record` and `run`. */
#include <getopt.h>
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

static int valid_spin(const char *s)
{
	int mode, limit;
	return st_parse_spin(s, &mode, &limit) == 0;
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
			if (!for_run || o->nreport > 4) {
				say("unknown option '%s' (try --help)", argv[optind - 1]);
				return -1;
			}
			o->report_args[o->nreport++] = c == 'F' ? "--format" : c == 'S' ? "--sort" : "--top";
			o->report_args[o->nreport++] = optarg;
			break;
		default:
			say("unknown option '%s' (try --help)", argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc)
		o->argv = argv + optind;
	return 0;
}
