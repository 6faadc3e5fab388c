/* synctrace-report: read one or more synctrace recordings and print the
 * reports. Finds the trace directories, then runs the graph of graph.c:
 *   src.ctf.fs (one per trace directory found) → flt.utils.muxer →
 *   sink.synctrace.report (the class of sink.c, created there)
 * Exit: 0 report complete; 1 report partial or some input unusable (the
 * report covers the rest); 2 no usable input or bad usage; 3 a trace of a
 * newer format (refused). */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sa_checks.h"
#include "sa_export.h"
#include "sa_graph.h"
#include "st_batch.h"
#include "sa_guard.h"
#include "sa_summaries.h"
#include "sa_top_main.h"
#include "sa_timeline.h"
#include "sa_waitfor.h"

#define PROG "synctrace-report"

static void usage(FILE *f)
{
	fprintf(f, "usage: " PROG " --live URL ... (synctrace top's live reader: --live --help)\n"
		   "       " PROG " [--format text|json|csv|html|summary|folded|pprof|chrome]\n"
		   "       [--sample wait|contentions|hold|wasted_wakes] [--sort wait|contended|acquisitions|hold]\n"
		   "       [--by class|object|site] [--all] [--wide] [--top N] [--checks]\n"
		   "       [--window START,END] [--at TIME] [--work-event EVENT[/FIELD]] [-o FILE]\n"
		   "       TRACE_PATH...\n"
		   "       " PROG " --merge [-o FILE] SUMMARY|TRACE_PATH...\n"
		   "       " PROG " --diff [--fail-on EXPR[,EXPR...]] [--format text|json|csv] BASE NEW\n"
		   "       " PROG " --events [-o FILE] TRACE_PATH...\n"
		   "Each TRACE_PATH is a CTF trace directory or a directory searched for them\n"
		   "(an LTTng session output: .../ust/uid/<uid>/64-bit).\n"
		   "The report opens with its findings, then where threads wait, ranked.\n"
		   "--by: group the objects of the ranked view by class (default: the same\n"
		   "name or init site), one row per object, or per init site.\n"
		   "--all: also the rows and threads that never waited.\n"
		   "--wide: text with every table, every column and every row.\n"
		   "--checks: debug checks (misuse, lock-order inversions) as one more table.\n"
		   "--window START,END: the HTML timeline's window, in seconds from the first\n"
		   "event (default: the busiest second); the exports: what ended in it.\n"
		   "--at TIME: the wait-for graph (who holds, who waits for whom, waits nothing\n"
		   "can end) at TIME seconds from the first event, not at the end of the trace.\n"
		   "--work-event PROVIDER:EVENT[/FIELD]: the unit of work of the wakeups-per-unit\n"
		   "tables: one per such event (or its integer FIELD's value), any event in the\n"
		   "trace; default: the program's synctrace_work_done() calls.\n"
		   "Exports for other viewers (-o FILE or standard output): folded (flame graphs:\n"
		   "process;thread;frames;kind lock VALUE, VALUE per --sample, default wait ns),\n"
		   "pprof (gzipped profile.proto for go tool pprof: contentions, delay, hold,\n"
		   "wasted_wakes, spin; labels lock, kind, process, thread, pid, tid), chrome\n"
		   "(Trace Event JSON for Perfetto / chrome://tracing: waits per thread, wake\n"
		   "flows, waiters of the top locks; at most 200000 waits and wakes kept).\n"
		   "summary: counts and fixed log-linear histograms per lock class, which\n"
		   "--merge adds exactly; a TRACE_PATH that is a file is read as a summary (the\n"
		   "ranking of where threads wait, from it). --diff: per lock class, waiting,\n"
		   "contention, wasted and futile wakes of BASE and NEW (traces or summaries),\n"
		   "ranked by change; --fail-on '[CLASS:]METRIC>VALUE' (wait, p99, waits,\n"
		   "contended, timeouts, wasted, futile; +20%%, +5ms, 100) exits 1 when crossed.\n"
		   "See doc/summaries.md.\n"
		   "--events: no report; every event, one line each in time order, as\n"
		   "babeltrace2 prints it, batched records (format 3) as the events they are.\n");
}

/* ---- finding trace directories ------------------------------------------ */

static char **found;
static unsigned nfound, capfound;

/* `synctrace record` leaves "KEY: TEXT" lines in the trace folder when the
 * recording was bounded (tools/synctrace/limits.c: a cut by --max-size or
 * --duration, a --keep-last ring); each becomes a report message. */
#define RECORD_NOTE "synctrace-record.txt"
static char *notes[8];
static unsigned nnotes;

static void read_note(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	while (f && nnotes < sizeof(notes) / sizeof(notes[0]) && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		char *text = strstr(line, ": ");
		if (!text || (strncmp(line, "cut:", 4) && strncmp(line, "rotating:", 9)))
			continue;
		notes[nnotes] = strdup(text + 2);
		if (notes[nnotes])
			nnotes++;
	}
	if (f)
		fclose(f);
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	if (type == FTW_F && !strcmp(path + ftw->base, RECORD_NOTE))
		read_note(path);
	if (type != FTW_F || strcmp(path + ftw->base, "metadata"))
		return 0;
	if (nfound == capfound) {
		unsigned c = capfound ? capfound * 2 : 8;
		char **p = realloc(found, c * sizeof(char *));
		if (!p)
			return -1;
		found = p;
		capfound = c;
	}
	found[nfound] = strndup(path, (size_t)ftw->base ? (size_t)ftw->base - 1 : 1);
	if (found[nfound])
		nfound++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- reading and reporting (in the guarded child, guard.c) ------------- */

struct run {
	struct sa_report_opts opts; /* format, sort, top from the command line */
	const char *outpath, *first;
	int npaths, checks, have_window, have_at, events;
	double at;                  /* --at: seconds from the first event */
	const char *work_event;     /* --work-event, or NULL */
	double win_start, win_end;
};

static int report(void *arg, uint64_t stop_after, volatile uint64_t *progress, int died)
{
	struct run *r = arg;
	struct sa_sink_state st;
	struct sa_graph_classes cls = { 0 };
	int rc = 0;

	memset(&st, 0, sizeof(st));
	st.opts = r->opts;
	st.stop_after = stop_after;
	st.progress = progress;
	st.model = sa_model_new();
	st.out = stdout;
	if (!st.model) {
		rc = 2;
		goto out;
	}
	if (r->work_event)
		sa_model_set_work_event(st.model, r->work_event); /* checked in main */
	if (r->opts.by == SA_BY_OBJECT) /* one row per object: none folded into classes */
		sa_model_keep_objects(st.model, 1);
	if (r->have_at && sa_waitfor_at(st.model, r->at)) {
		rc = 2;
		goto out;
	}
	if (r->checks && !(st.opts.checks = sa_checks_attach(st.model))) {
		rc = 2;
		goto out;
	}
	/* html: the folded export's rows draw its flame graph (over the whole
	 * trace, like its tables: --window is the timeline's). */
	if ((st.opts.format >= SA_FMT_FOLDED || st.opts.format == SA_FMT_HTML) &&
	    !(st.opts.exp = sa_export_attach(st.model, st.opts.format == SA_FMT_HTML ? SA_X_FOLDED
					     : (enum sa_xformat)(st.opts.format - SA_FMT_FOLDED)))) {
		rc = 2;
		goto out;
	}
	if (st.opts.exp && r->have_window && st.opts.format != SA_FMT_HTML)
		sa_export_window(st.opts.exp, r->win_start, r->win_end);
	if (st.opts.format == SA_FMT_HTML &&
	    !(st.opts.timeline = sa_timeline_attach(st.model, r->have_window, r->win_start,
						    r->win_end))) {
		rc = 2;
		goto out;
	}
	if (sa_graph_classes_get(&cls, 0)) {
		rc = 2;
		goto out;
	}
	for (unsigned i = 0; i < nnotes; i++)
		sa_graph_message(&st.opts, "%s", notes[i]);
	if (r->events && !(st.dump = r->outpath ? fopen(r->outpath, "w") : stdout)) {
		fprintf(stderr, PROG ": %s: %s\n", r->outpath, strerror(errno));
		rc = 2;
		goto out;
	}
	if ((rc = sa_graph_read(&cls, &st, found, nfound, 0)) == 2)
		goto out;
	sa_merge_drain(&st.merge); /* an input cut short: what came is reported */
	if (st.merge.late)
		sa_graph_message(&st.opts, "%llu batched events were analyzed out of time order: "
				 "a later event had been analyzed (they reached the trace more than "
				 "%lld ms after they happened, or behind a later record of their thread)",
				 (unsigned long long)st.merge.late, (long long)(st.merge.window / 1000000));
	if (st.merge.unknown || st.merge.bad)
		sa_graph_message(&st.opts, "%llu batched records of events this analyzer does not "
				 "know and %llu malformed ones were skipped",
				 (unsigned long long)st.merge.unknown, (unsigned long long)st.merge.bad);
	if (st.dump) { /* --events: the lines are the output, what was noted goes to stderr */
		for (unsigned i = 0; i < st.opts.nmessages; i++)
			fprintf(stderr, PROG ": %s\n", st.opts.messages[i]);
		if (ferror(st.dump) || (st.dump != stdout && fclose(st.dump))) {
			fprintf(stderr, PROG ": writing the events failed\n");
			rc = 2;
		}
		goto out;
	}
	if (st.stopped) {
		sa_graph_message(&st.opts, "the decoder died (%s) after %llu messages (a corrupt "
				 "stream?): partial report of what came before", strsignal(died),
				 (unsigned long long)st.consumed);
		st.opts.partial = 1;
		rc = rc ? rc : 1;
	}

	if (rc != 3) {
		if (!st.synctrace_events) {
			fprintf(stderr, PROG ": no synctrace events in %s%s\n", r->first,
				r->npaths > 1 ? " (and the other paths)" : "");
			if (!st.opts.partial)
				rc = rc ? rc : 1;
			if (st.opts.format >= SA_FMT_FOLDED) /* still a valid, empty file */
				sa_graph_message(&st.opts, "no synctrace events in the trace");
		}
		FILE *out = stdout;
		if (r->outpath && !(out = fopen(r->outpath, "w"))) {
			fprintf(stderr, PROG ": %s: %s\n", r->outpath, strerror(errno));
			rc = 2;
		} else if (st.synctrace_events || st.opts.partial || st.opts.format >= SA_FMT_SUMMARY) {
			if (sa_report_render(st.model, &st.opts, out) && st.opts.format >= SA_FMT_SUMMARY) {
				fprintf(stderr, PROG ": out of memory writing the %s\n",
					st.opts.format == SA_FMT_SUMMARY ? "summary" : "export");
				rc = 2;
			}
			if (ferror(out) || (out != stdout && fclose(out))) {
				fprintf(stderr, PROG ": writing the report failed\n");
				rc = 2;
			}
		}
	}
	if (st.model->oom) {
		fprintf(stderr, PROG ": out of memory: the report is incomplete\n");
		rc = rc ? rc : 1;
	}
out:
	sa_graph_classes_put(&cls);
	sa_sink_state_clear(&st);
	sa_model_free(st.model);
	sa_checks_free(st.opts.checks);
	sa_timeline_free(st.opts.timeline);
	sa_export_free(st.opts.exp);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "sort", required_argument, NULL, 's' },
		{ "top", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "checks", no_argument, NULL, 'c' },
		{ "window", required_argument, NULL, 'w' },
		{ "work-event", required_argument, NULL, 'W' },
		{ "at", required_argument, NULL, 'a' },
		{ "by", required_argument, NULL, 'B' },
		{ "all", no_argument, NULL, 'A' },
		{ "wide", no_argument, NULL, 'D' },
		{ "sample", required_argument, NULL, 'S' },
		{ "merge", no_argument, NULL, 'M' },
		{ "diff", no_argument, NULL, 'F' },
		{ "fail-on", required_argument, NULL, 'X' },
		{ "events", no_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct run r = { .win_end = -1 };
	int c, merge = 0, diff = 0;
	const char *fail_on = NULL;
	char what[4200];

	if (argc > 1 && !strncmp(argv[1], "--live", 6)) /* synctrace top's reader: top.c */
		return sa_top_main(argc, argv);
	while ((c = getopt_long(argc, argv, "f:s:t:o:hcw:", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if ((c = sa_report_parse_format(optarg)) < 0) {
				fprintf(stderr, PROG ": unknown format '%s' (text, json, csv, html, folded, pprof, chrome)\n", optarg);
				return 2;
			}
			r.opts.format = (enum sa_format)c;
			break;
		case 's':
			if ((c = sa_report_parse_sort(optarg)) < 0) {
				fprintf(stderr, PROG ": unknown sort key '%s' (wait, contended, "
						"acquisitions, hold)\n", optarg);
				return 2;
			}
			r.opts.sort = (enum sa_sort)c;
			break;
		case 't': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v < 0) {
				fprintf(stderr, PROG ": --top wants a number, not '%s'\n", optarg);
				return 2;
			}
			r.opts.top = (unsigned)v;
			break;
		}
		case 'o':
			r.outpath = optarg;
			break;
		case 'B':
			if ((c = sa_report_parse_by(optarg)) < 0) {
				fprintf(stderr, PROG ": --by wants class, object or site, not '%s'\n",
					optarg);
				return 2;
			}
			r.opts.by = (enum sa_by)c;
			break;
		case 'S':
			if ((c = sa_export_parse_sample(optarg)) < 0) {
				fprintf(stderr, PROG ": --sample wants wait, contentions, hold or "
						"wasted_wakes, not '%s'\n", optarg);
				return 2;
			}
			r.opts.sample = c;
			break;
		case 'A':
			r.opts.all = 1;
			break;
		case 'E':
			r.events = 1;
			break;
		case 'D':
			r.opts.wide = 1;
			break;
		case 'c':
			r.checks = 1;
			break;
		case 'w': {
			char *end;
			r.win_start = strtod(optarg, &end);
			if (*end == ',')
				r.win_end = strtod(end + 1, &end);
			if (*end || !(r.win_end > r.win_start) || r.win_start < 0) {
				fprintf(stderr, PROG ": --window wants START,END in seconds from the "
						"first event (START < END), not '%s'\n", optarg);
				return 2;
			}
			r.have_window = 1;
			break;
		}
		case 'a': {
			char *end;
			r.at = strtod(optarg, &end);
			if (*end == 's' && end[1] == 0)
				end++;
			if (*end || end == optarg || !(r.at >= 0)) {
				fprintf(stderr, PROG ": --at wants a time in seconds from the first "
						"event (2.5), not '%s'\n", optarg);
				return 2;
			}
			r.have_at = 1;
			break;
		}
		case 'W':
			if (sa_model_set_work_event(NULL, optarg)) {
				fprintf(stderr, PROG ": --work-event wants PROVIDER:EVENT or "
						"PROVIDER:EVENT/FIELD (a synctrace_ event this analyzer "
						"knows, or any other), not '%s'\n", optarg);
				return 2;
			}
			r.work_event = optarg;
			break;
		case 'M':
			merge = 1;
			break;
		case 'F':
			diff = 1;
			break;
		case 'X':
			fail_on = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc || (merge && diff) || (fail_on && !diff)) {
		if (fail_on && !diff)
			fprintf(stderr, PROG ": --fail-on goes with --diff\n");
		usage(stderr);
		return 2;
	}
	if (merge || diff || sa_summaries_any(argv + optind, argc - optind))
		return sa_summaries_run(merge ? SA_SUM_MERGE : diff ? SA_SUM_DIFF : SA_SUM_REPORT,
					argv + optind, argc - optind, &r.opts, r.outpath, fail_on);

	/* Every path must exist and hold at least one trace. */
	for (int i = optind; i < argc; i++) {
		struct stat sb;
		unsigned before = nfound;
		if (stat(argv[i], &sb)) {
			fprintf(stderr, PROG ": %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		if (!S_ISDIR(sb.st_mode)) {
			fprintf(stderr, PROG ": %s: not a directory (give a CTF trace directory "
					"or a directory holding some)\n", argv[i]);
			return 2;
		}
		if (nftw(argv[i], visit, 32, FTW_PHYS)) {
			fprintf(stderr, PROG ": %s: cannot search: %s\n", argv[i], strerror(errno));
			return 2;
		}
		if (nfound == before) {
			fprintf(stderr, PROG ": %s: no CTF trace here (no 'metadata' file in it or "
					"below it)\n", argv[i]);
			return 2;
		}
	}
	qsort(found, nfound, sizeof(char *), cmp_str);
	r.first = argv[optind];
	r.npaths = argc - optind;
	snprintf(what, sizeof(what), "%s%s", argv[optind],
		 argc - optind > 1 ? " (and the other paths)" : "");
	c = sa_guard_run(report, &r, what);
	for (unsigned i = 0; i < nfound; i++)
		free(found[i]);
	free(found);
	return c;
}
