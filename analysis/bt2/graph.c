/* The graph of synctrace-report (sa_graph.h): finding the component
 * classes, adding one src.ctf.fs per trace directory, running the graph
 * into the report sink, and saying what went wrong with the file named. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sa_graph.h"

#define PROG "synctrace-report"

/* 1 if the metadata file names a synctrace provider, 0 if not, -1 if it
 * cannot be read (message printed unless quiet). */
static int metadata_has_synctrace(const char *dir, int quiet)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/metadata", dir);
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (!quiet)
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
		if (!quiet)
			fprintf(stderr, PROG ": %s: empty metadata file\n", path);
		return -1;
	}
	return hit;
}

/* A message for the report (errors met while reading). */
void sa_graph_message(struct sa_report_opts *o, const char *fmt, ...)
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

/* What went wrong, then babeltrace2's causes (which name the stream file
 * and offset), indented. quiet: only take the error. */
static void print_bt_error(const char *what, int quiet)
{
	const bt_error *err = bt_current_thread_take_error();
	if (!quiet)
		fprintf(stderr, PROG ": %s\n", what);
	if (!err)
		return;
	uint64_t n = bt_error_get_cause_count(err), own = 0;
	/* The plugins' causes name the file; the library's only repeat them. */
	for (uint64_t i = 0; i < n; i++)
		own += strcmp(bt_error_cause_get_module_name(bt_error_borrow_cause_by_index(err, i)),
			      "libbabeltrace2") != 0;
	for (uint64_t i = 0; i < n && !quiet; i++) {
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

int sa_graph_classes_get(struct sa_graph_classes *c, int quiet)
{
	memset(c, 0, sizeof(*c));
	c->fs = find_class("ctf", "fs", 0);
	c->mux = find_class("utils", "muxer", 1);
	c->live = find_class("ctf", "lttng-live", 0);
	c->sink = bt_component_class_sink_create("report", sa_sink_consume);
	if (!c->fs || !c->mux || !c->sink) {
		print_bt_error("cannot set up babeltrace2 (is the ctf/utils plugin installed?)", quiet);
		sa_graph_classes_put(c);
		return -1;
	}
	bt_component_class_sink_set_initialize_method(c->sink, sa_sink_initialize);
	bt_component_class_sink_set_graph_is_configured_method(c->sink, sa_sink_graph_is_configured);
	bt_component_class_sink_set_finalize_method(c->sink, sa_sink_finalize);
	return 0;
}

void sa_graph_classes_put(struct sa_graph_classes *c)
{
	bt_component_class_put_ref(c->fs);
	bt_component_class_put_ref(c->mux);
	bt_component_class_put_ref(c->live);
	bt_component_class_sink_put_ref(c->sink);
	memset(c, 0, sizeof(*c));
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

/* Add src.ctf.fs for each usable directory; the number added, -1 on a
 * graph error. *rc becomes 1 when one is skipped. */
static int add_sources(const struct sa_graph_classes *c, bt_graph *g, const bt_component_filter *mux,
		       struct sa_sink_state *st, char *const *dirs, unsigned n, int quiet, int *rc)
{
	int usable = 0;
	for (unsigned i = 0; i < n; i++) {
		int has = metadata_has_synctrace(dirs[i], quiet);
		if (has <= 0) {
			if (has == 0 && !quiet)
				fprintf(stderr, PROG ": %s/metadata: no synctrace provider in this "
						"trace (not a synctrace recording?); skipped\n", dirs[i]);
			sa_graph_message(&st->opts, "%s: skipped (%s)", dirs[i],
				has == 0 ? "no synctrace provider" : "unreadable metadata");
			*rc = 1;
			continue;
		}
		bt_value *params = bt_value_map_create();
		bt_value *inputs = NULL;
		char name[32];
		snprintf(name, sizeof(name), "src%u", i);
		if (!params || bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) ||
		    bt_value_array_append_string_element(inputs, dirs[i])) {
			bt_value_put_ref(params);
			return -1;
		}
		const bt_component_source *src = NULL;
		bt_graph_add_component_status s = bt_graph_add_source_component(
			g, (const bt_component_class_source *)c->fs, name, params,
			BT_LOGGING_LEVEL_NONE, &src);
		bt_value_put_ref(params);
		if (s != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
			char what[4200];
			snprintf(what, sizeof(what), "%s: cannot read this trace; skipped", dirs[i]);
			print_bt_error(what, quiet);
			sa_graph_message(&st->opts, "%s: skipped (babeltrace2 cannot read it)", dirs[i]);
			*rc = 1;
			continue;
		}
		if (connect_source(g, src, mux)) {
			print_bt_error("cannot connect a trace to the muxer", quiet);
			return -1;
		}
		usable++;
	}
	return usable;
}

int sa_graph_read(const struct sa_graph_classes *c, struct sa_sink_state *st,
		  char *const *dirs, unsigned n, int quiet)
{
	int rc = 0;
	const bt_component_filter *mux = NULL;
	const bt_component_sink *sink = NULL;
	bt_graph *g = bt_graph_create(0);
	if (!g || bt_graph_add_filter_component(g, (const bt_component_class_filter *)c->mux,
						"muxer", NULL, BT_LOGGING_LEVEL_NONE, &mux) ||
	    bt_graph_add_sink_component_with_initialize_method_data(
		    g, c->sink, "report", NULL, st, BT_LOGGING_LEVEL_NONE, &sink)) {
		print_bt_error("cannot create the muxer or the report sink", quiet);
		rc = 2;
		goto out;
	}
	int usable = add_sources(c, g, mux, st, dirs, n, quiet, &rc);
	if (usable < 0) {
		rc = 2;
		goto out;
	}
	if (!usable) {
		if (!quiet)
			fprintf(stderr, PROG ": no usable synctrace trace\n");
		rc = 2;
		goto out;
	}
	if (bt_graph_connect_ports(g, bt_component_filter_borrow_output_port_by_index_const(mux, 0),
				   bt_component_sink_borrow_input_port_by_index_const(sink, 0),
				   NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
		print_bt_error("cannot connect the muxer to the report sink", quiet);
		rc = 2;
		goto out;
	}

	bt_graph_run_status rs;
	do
		rs = bt_graph_run(g);
	while (rs == BT_GRAPH_RUN_STATUS_AGAIN);
	if (st->refused) {
		bt_current_thread_clear_error();
		if (!quiet)
			fprintf(stderr, PROG ": %s\n", st->refuse_msg);
		rc = 3;
	} else if (rs != BT_GRAPH_RUN_STATUS_OK) {
		print_bt_error("reading the trace failed; the report is partial", quiet);
		sa_graph_message(&st->opts, "reading stopped on an error (truncated or corrupt stream?): "
				   "partial report");
		st->opts.partial = 1;
		rc = 1;
	}
	sa_sink_say_cut(st);
out:
	bt_graph_put_ref(g);
	/* Tearing down a graph that stopped on an error can leave a new
	 * error on the thread (the decoder's finalization): nobody asks for
	 * it, and left there it leaks. */
	bt_current_thread_clear_error();
	return rc;
}

bt_graph *sa_graph_live(const struct sa_graph_classes *c, struct sa_sink_state *st,
			const char *url, int quiet)
{
	if (!c->live) {
		if (!quiet)
			fprintf(stderr, PROG ": babeltrace2's src.ctf.lttng-live is not installed\n");
		return NULL;
	}
	bt_graph *g = bt_graph_create(0);
	bt_value *params = bt_value_map_create();
	bt_value *inputs = NULL;
	const bt_component_source *src = NULL;
	const bt_component_sink *sink = NULL;
	/* "end": once the session is gone (destroyed, all of it read), the
	 * source ends, so the view ends with the recording. */
	if (!g || !params || bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) ||
	    bt_value_array_append_string_element(inputs, url) ||
	    bt_value_map_insert_string_entry(params, "session-not-found-action", "end") ||
	    bt_graph_add_source_component(g, (const bt_component_class_source *)c->live, "live",
					  params, BT_LOGGING_LEVEL_NONE, &src) ||
	    bt_graph_add_sink_component_with_initialize_method_data(
		    g, c->sink, "report", NULL, st, BT_LOGGING_LEVEL_NONE, &sink) ||
	    bt_graph_connect_ports(g, bt_component_source_borrow_output_port_by_index_const(src, 0),
				   bt_component_sink_borrow_input_port_by_index_const(sink, 0),
				   NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
		char what[4200];
		snprintf(what, sizeof(what), "%s: cannot set up the live reader", url);
		print_bt_error(what, quiet);
		bt_value_put_ref(params);
		bt_graph_put_ref(g);
		return NULL;
	}
	bt_value_put_ref(params);
	return g;
}
