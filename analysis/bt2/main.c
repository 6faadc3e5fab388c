/* synctrace-report: read one or more synctrace recordings and print the
 * reports. Builds the graph itself:
 *   src.ctf.fs (one per trace directory found) → flt.utils.muxer →
 *   sink.synctrace.report (the class of sink.c, created here)
 * Exit: 0 report complete; 1 report partial or some input unusable (the
 * report covers the rest); 2 no usable input or bad usage; 3 a trace of a
 * newer format (refused). */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sa_checks.h"
#include "sa_sink.h"
#include "sa_timeline.h"

#define PROG "synctrace-report"

static void usage(FILE *f)
{
	fprintf(f, "usage: " PROG " [--format text|json|csv|html] [--sort wait|contended|acquisitions|hold]\n"
		   "       [--top N] [--checks] [--window START,END] [-o FILE] TRACE_PATH...\n"
		   "Each TRACE_PATH is a CTF trace directory or a directory searched for them\n"
		   "(an LTTng session output: .../ust/uid/<uid>/64-bit).\n"
		   "--checks: debug checks (misuse, lock-order inversions) as one more table.\n"
		   "--window START,END: the HTML timeline's window, in seconds from the first\n"
		   "event (default: the busiest second).\n");
}

/* ---- finding trace directories ------------------------------------------ */

static char **found;
static unsigned nfound, capfound;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
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

/* 1 if the metadata file names a synctrace provider, 0 if not, -1 if it
 * cannot be read (message printed). */
static int metadata_has_synctrace(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/metadata", dir);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return -1;
	}
	static char buf[1 << 16];
	size_t keep = 0, n;
	int hit = 0, any = 0;
	while (!hit && (n = fread(buf + keep, 1, sizeof(buf) - keep, f)) > 0) {
		any = 1;
		n += keep;
		if (memmem(buf, n, "synctrace_", 10))
			hit = 1;
		keep = n < 16 ? n : 16;
		memmove(buf, buf + n - keep, keep);
	}
	fclose(f);
	if (!any) {
		fprintf(stderr, PROG ": %s: empty metadata file\n", path);
		return -1;
	}
	return hit;
}

/* A message for the report (errors met while reading). */
static void add_msg(struct sa_report_opts *o, const char *fmt, ...)
{
	static char buf[16][512];
	va_list ap;
	if (o->nmessages >= 16)
		return;
	va_start(ap, fmt);
	vsnprintf(buf[o->nmessages], sizeof(buf[0]), fmt, ap);
	va_end(ap);
	o->messages[o->nmessages] = buf[o->nmessages];
	o->nmessages++;
}

/* ---- babeltrace2 errors --------------------------------------------------- */

static void print_bt_error(const char *what)
{
	const bt_error *err = bt_current_thread_take_error();
	fprintf(stderr, PROG ": %s\n", what);
	if (!err)
		return;
	uint64_t n = bt_error_get_cause_count(err), own = 0;
	/* The plugins' causes name the file; the library's only repeat them. */
	for (uint64_t i = 0; i < n; i++)
		own += strcmp(bt_error_cause_get_module_name(bt_error_borrow_cause_by_index(err, i)),
			      "libbabeltrace2") != 0;
	for (uint64_t i = 0; i < n; i++) {
		const bt_error_cause *c = bt_error_borrow_cause_by_index(err, i);
		if (own && !strcmp(bt_error_cause_get_module_name(c), "libbabeltrace2"))
			continue;
		fprintf(stderr, "  %s: %s\n", bt_error_cause_get_module_name(c),
			bt_error_cause_get_message(c));
	}
	bt_error_release(err);
}

static const bt_component_class *find_class(const char *plugin, const char *name, int type)
{
	const bt_plugin *p = NULL;
	if (bt_plugin_find(plugin, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE, &p) !=
	    BT_PLUGIN_FIND_STATUS_OK)
		return NULL;
	const bt_component_class *cls = NULL;
	if (type == 0) {
		const bt_component_class_source *c =
			bt_plugin_borrow_source_component_class_by_name_const(p, name);
		cls = c ? bt_component_class_source_as_component_class_const(c) : NULL;
	} else {
		const bt_component_class_filter *c =
			bt_plugin_borrow_filter_component_class_by_name_const(p, name);
		cls = c ? bt_component_class_filter_as_component_class_const(c) : NULL;
	}
	if (cls)
		bt_component_class_get_ref(cls);
	bt_plugin_put_ref(p);
	return cls;
}

/* Connect every output port of src to a fresh input port of the muxer. */
static int connect_source(bt_graph *g, const bt_component_source *src,
			  const bt_component_filter *mux)
{
	uint64_t n = bt_component_source_get_output_port_count(src);
	for (uint64_t i = 0; i < n; i++) {
		const bt_port_output *out = bt_component_source_borrow_output_port_by_index_const(src, i);
		uint64_t k = bt_component_filter_get_input_port_count(mux);
		const bt_port_input *in = NULL;
		for (uint64_t j = 0; j < k; j++) {
			const bt_port_input *p = bt_component_filter_borrow_input_port_by_index_const(mux, j);
			if (!bt_port_is_connected(bt_port_input_as_port_const(p))) {
				in = p;
				break;
			}
		}
		if (!in || bt_graph_connect_ports(g, out, in, NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
			return -1;
	}
	return 0;
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sa_sink_state st;
	int c, rc = 0;
	const char *outpath = NULL;
	bt_graph *g = NULL;
	const bt_component_class *fs = NULL, *muxc = NULL;
	bt_component_class_sink *sinkc = NULL;
	unsigned usable = 0;
	int checks = 0, have_window = 0;
	double win_start = 0, win_end = -1;

	memset(&st, 0, sizeof(st));
	while ((c = getopt_long(argc, argv, "f:s:t:o:hcw:", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if ((c = sa_report_parse_format(optarg)) < 0) {
				fprintf(stderr, PROG ": unknown format '%s' (text, json, csv, html)\n", optarg);
				return 2;
			}
			st.opts.format = (enum sa_format)c;
			break;
		case 's':
			if ((c = sa_report_parse_sort(optarg)) < 0) {
				fprintf(stderr, PROG ": unknown sort key '%s' (wait, contended, "
						"acquisitions, hold)\n", optarg);
				return 2;
			}
			st.opts.sort = (enum sa_sort)c;
			break;
		case 't': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v < 0) {
				fprintf(stderr, PROG ": --top wants a number, not '%s'\n", optarg);
				return 2;
			}
			st.opts.top = (unsigned)v;
			break;
		}
		case 'o':
			outpath = optarg;
			break;
		case 'c':
			checks = 1;
			break;
		case 'w': {
			char *end;
			win_start = strtod(optarg, &end);
			if (*end == ',')
				win_end = strtod(end + 1, &end);
			if (*end || !(win_end > win_start) || win_start < 0) {
				fprintf(stderr, PROG ": --window wants START,END in seconds from the "
						"first event (START < END), not '%s'\n", optarg);
				return 2;
			}
			have_window = 1;
			break;
		}
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}

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

	st.model = sa_model_new();
	st.out = stdout;
	if (!st.model) {
		rc = 2;
		goto out;
	}
	if (checks && !(st.opts.checks = sa_checks_attach(st.model))) {
		rc = 2;
		goto out;
	}
	if (st.opts.format == SA_FMT_HTML &&
	    !(st.opts.timeline = sa_timeline_attach(st.model, have_window, win_start, win_end))) {
		rc = 2;
		goto out;
	}
	g = bt_graph_create(0);
	fs = find_class("ctf", "fs", 0);
	muxc = find_class("utils", "muxer", 1);
	if (!g || !fs || !muxc) {
		print_bt_error("cannot set up babeltrace2 (is the ctf/utils plugin installed?)");
		rc = 2;
		goto out;
	}
	sinkc = bt_component_class_sink_create("report", sa_sink_consume);
	bt_component_class_sink_set_initialize_method(sinkc, sa_sink_initialize);
	bt_component_class_sink_set_graph_is_configured_method(sinkc, sa_sink_graph_is_configured);
	bt_component_class_sink_set_finalize_method(sinkc, sa_sink_finalize);

	const bt_component_filter *mux = NULL;
	const bt_component_sink *sink = NULL;
	if (bt_graph_add_filter_component(g, (const bt_component_class_filter *)muxc, "muxer",
					  NULL, BT_LOGGING_LEVEL_NONE, &mux) ||
	    bt_graph_add_sink_component_with_initialize_method_data(
		    g, sinkc, "report", NULL, &st, BT_LOGGING_LEVEL_NONE, &sink)) {
		print_bt_error("cannot create the muxer or the report sink");
		rc = 2;
		goto out;
	}

	for (unsigned i = 0; i < nfound; i++) {
		int has = metadata_has_synctrace(found[i]);
		if (has <= 0) {
			if (has == 0)
				fprintf(stderr, PROG ": %s/metadata: no synctrace provider in this "
						"trace (not a synctrace recording?); skipped\n", found[i]);
			add_msg(&st.opts, "%s: skipped (%s)", found[i],
				 has == 0 ? "no synctrace provider" : "unreadable metadata");
			rc = 1;
			continue;
		}
		bt_value *params = bt_value_map_create();
		bt_value *inputs = NULL;
		char name[32];
		snprintf(name, sizeof(name), "src%u", i);
		bt_value_map_insert_empty_array_entry(params, "inputs", &inputs);
		bt_value_array_append_string_element(inputs, found[i]);
		const bt_component_source *src = NULL;
		bt_graph_add_component_status s = bt_graph_add_source_component(
			g, (const bt_component_class_source *)fs, name, params,
			BT_LOGGING_LEVEL_NONE, &src);
		bt_value_put_ref(params);
		if (s != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
			char what[4200];
			snprintf(what, sizeof(what), "%s: cannot read this trace; skipped", found[i]);
			print_bt_error(what);
			add_msg(&st.opts, "%s: skipped (babeltrace2 cannot read it)", found[i]);
			rc = 1;
			continue;
		}
		if (connect_source(g, src, mux)) {
			print_bt_error("cannot connect a trace to the muxer");
			rc = 2;
			goto out;
		}
		usable++;
	}
	if (!usable) {
		fprintf(stderr, PROG ": no usable synctrace trace\n");
		rc = 2;
		goto out;
	}
	if (bt_graph_connect_ports(g, bt_component_filter_borrow_output_port_by_index_const(mux, 0),
				   bt_component_sink_borrow_input_port_by_index_const(sink, 0),
				   NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
		print_bt_error("cannot connect the muxer to the report sink");
		rc = 2;
		goto out;
	}

	bt_graph_run_status rs;
	do
		rs = bt_graph_run(g);
	while (rs == BT_GRAPH_RUN_STATUS_AGAIN);
	if (st.refused) {
		bt_current_thread_clear_error();
		fprintf(stderr, PROG ": %s\n", st.refuse_msg);
		rc = 3;
	} else if (rs != BT_GRAPH_RUN_STATUS_OK) {
		print_bt_error("reading the trace failed; the report is partial");
		add_msg(&st.opts, "reading stopped on an error (truncated or corrupt stream?): partial report");
		st.opts.partial = 1;
		rc = 1;
	}
	bt_graph_put_ref(g);
	g = NULL;

	if (rc != 3) {
		if (!st.synctrace_events) {
			fprintf(stderr, PROG ": no synctrace events in %s%s\n", argv[optind],
				argc - optind > 1 ? " (and the other paths)" : "");
			if (!st.opts.partial)
				rc = rc ? rc : 1;
		}
		FILE *out = stdout;
		if (outpath && !(out = fopen(outpath, "w"))) {
			fprintf(stderr, PROG ": %s: %s\n", outpath, strerror(errno));
			rc = 2;
		} else if (st.synctrace_events || st.opts.partial) {
			sa_report_render(st.model, &st.opts, out);
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
	bt_graph_put_ref(g);
	bt_component_class_put_ref(fs);
	bt_component_class_put_ref(muxc);
	bt_component_class_sink_put_ref(sinkc);
	sa_sink_state_clear(&st);
	sa_model_free(st.model);
	sa_checks_free(st.opts.checks);
	sa_timeline_free(st.opts.timeline);
	for (unsigned i = 0; i < nfound; i++)
		free(found[i]);
	free(found);
	return rc;
}
