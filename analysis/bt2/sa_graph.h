/* The graph synctrace-report runs over trace directories:
 *   src.ctf.fs (one per directory) → flt.utils.muxer → the report sink
 * (the class of sink.c, created here with the caller's state). Shared by
 * bt2/main.c and the trace fuzzer (tests/fuzz/fuzz_trace.c), so the fuzzer
 * reads traces exactly as the program does. */
#ifndef SA_GRAPH_H
#define SA_GRAPH_H

#include "sa_sink.h"

/* The component classes, found once (finding plugins loads them). */
struct sa_graph_classes {
	const bt_component_class *fs, *mux;
	const bt_component_class *live; /* src.ctf.lttng-live, NULL if absent */
	bt_component_class_sink *sink;
};

/* 0, or -1 (message printed unless quiet) if babeltrace2's ctf or utils
 * plugin cannot be found. */
int sa_graph_classes_get(struct sa_graph_classes *c, int quiet);
void sa_graph_classes_put(struct sa_graph_classes *c);

/* Read the trace directories dirs[0..n) into st->model (st->model, and
 * st->opts' observers, set up by the caller). Directories whose metadata
 * names no synctrace provider or that babeltrace2 refuses are skipped
 * (said on stderr and in st->opts.messages); a read that stops on an error
 * sets st->opts.partial. Returns synctrace-report's exit code so far: 0,
 * 1 (something skipped or partial), 2 (nothing usable: no report), 3 (a
 * newer trace format: no report). quiet: nothing on stderr (errors are
 * still taken and cleared). */
int sa_graph_read(const struct sa_graph_classes *c, struct sa_sink_state *st,
		  char *const *dirs, unsigned n, int quiet);

/* The live graph of `synctrace top` (analysis/bt2/top.c):
 *   src.ctf.lttng-live (url: net://HOST:PORT/host/HOSTNAME/SESSION) →
 *   the report sink (lttng-live orders the session's streams itself)
 * ending when the session does. NULL (said unless quiet) when it cannot
 * be made; run it with bt_graph_run_once, put it with bt_graph_put_ref. */
bt_graph *sa_graph_live(const struct sa_graph_classes *c, struct sa_sink_state *st,
			const char *url, int quiet);

/* One more message for the report's "messages" (at most 16 in all). */
void sa_graph_message(struct sa_report_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
