/* The babeltrace2 sink component class `sink.synctrace.report`: decodes
 * each message into a struct sa_event for the model, records
 * discarded-events messages, and (as a plugin) renders the report when
 * the graph finalizes it. synctrace-report creates the same class at run
 * time and passes its own state as initialization data, so it can render
 * even when the graph stops on an error. */
#ifndef SA_SINK_H
#define SA_SINK_H

#include <babeltrace2/babeltrace.h>
#include <stdio.h>

#include "sa_merge.h"
#include "sa_model.h"
#include "sa_report.h"

struct sa_ec_info; /* per event class decoding plan (sink.c) */

struct sa_sink_state {
	struct sa_model *model;
	struct sa_report_opts opts;
	FILE *out;
	int owned;      /* plugin mode: the component renders and frees it */
	int complete;   /* the upstream reached its end */
	int refused;    /* a newer trace format: no report */
	char refuse_msg[256];
	bt_message_iterator *iter;
	/* Decoding caches. */
	struct sa_ec_info *ecs;
	unsigned necs, capecs;
	const void *traces[64]; /* bt_trace pointers, by trace index */
	unsigned ntraces;
	uint64_t synctrace_events;
	struct sa_merge merge; /* batched records back in time order */
	uint64_t *words;       /* a batch's words, as read */
	uint64_t capwords;
	FILE *dump;            /* --events: print each event there instead */
	uint64_t dump_lines;
	int64_t dump_last;
	char *hosts[64];       /* the traces' hostnames, by trace index */
	/* Messages consumed so far, also published through *progress when
	 * set (shared with the parent of a guarded run, guard.c); with
	 * stop_after > 0 the sink ends (stopped = 1) once that many were
	 * consumed, before asking for more. */
	uint64_t consumed, stop_after;
	volatile uint64_t *progress;
	int stopped;
	/* The newest time any message carried (events, and the inactivity
	 * messages a live source sends for quiet streams): how far a live
	 * reader has come, even while the program is idle. 0: none yet. */
	int64_t seen_ts;
	/* A rotating trace's start (sink.c, "rotated streams"), by trace
	 * index: its transitions before cut_ns (ns from origin) are left out;
	 * cut_state 0 not looked at yet, 1 no cut, 2 cut. */
	int64_t cut_ns[64];
	unsigned char cut_state[64];
	uint64_t cut_events; /* events left out */
	int64_t cut_at;      /* the latest cut, for the report's message */
};

/* A report message when a rotated trace's first transitions were left
 * out (sink.c, "rotated streams"); once the reading is over. */
void sa_sink_say_cut(struct sa_sink_state *s);

bt_component_class_initialize_method_status
sa_sink_initialize(bt_self_component_sink *self, bt_self_component_sink_configuration *cfg,
		   const bt_value *params, void *init_data);
bt_component_class_sink_graph_is_configured_method_status
sa_sink_graph_is_configured(bt_self_component_sink *self);
bt_component_class_sink_consume_method_status sa_sink_consume(bt_self_component_sink *self);
void sa_sink_finalize(bt_self_component_sink *self);

/* Free decoding caches (not the model). */
void sa_sink_state_clear(struct sa_sink_state *s);
/* Before the same traces are read by a new graph (top re-attaching): their
 * bt_trace objects will be new; each is matched to its old index by name. */
void sa_sink_forget_traces(struct sa_sink_state *s);

#endif
