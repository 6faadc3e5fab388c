/* sink.synctrace.report: the four methods of the component class (in the
 * shape of babeltrace2's utils.counter sink) and the event decoding. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa_dump.h"
#include "sa_sink.h"
#include "sa_waitfor.h"
#include "sa_symbols.h"

/* What to read from events of one class, worked out once per class. */
struct sa_ec_info {
	const bt_event_class *ec;
	enum sa_event_id id;
	const char *name;          /* the class's name (owned by babeltrace2) */
	int ours;                  /* synctrace_* */
	unsigned nint;
	uint64_t idx[SA_MAX_FIELDS];
	unsigned slot[SA_MAX_FIELDS]; /* the integer's slot in sa_event.f (sa_fields.h) */
	unsigned nslots;
	const char *fname[SA_MAX_FIELDS];
	int is_signed[SA_MAX_FIELDS];
	unsigned nstr;
	uint64_t sidx[SA_MAX_STRINGS];
	const char *sname[SA_MAX_STRINGS];
	int has_arr;               /* an array of integers (stack frames, build id) */
	uint64_t aidx;
	const char *aname;
	int64_t ctx_vpid, ctx_vtid, ctx_procname; /* member index in the common context, -1 */
};

static int int_kind(const bt_field_class *fc)
{
	bt_field_class_type t = bt_field_class_get_type(fc);
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		return 2;
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		return 1;
	return 0;
}

static void feed(void *ctx, const struct sa_event *e);

/* ---- rotated streams ---------------------------------------------------------
 * A trace whose streams rotated (`record --keep-last`: lttng keeps each
 * CPU's last trace files) holds each CPU's data from a different time on:
 * the one that wrote most, the shortest span. Before the latest of those
 * starts some CPUs' events are missing, and a model fed them would pair
 * what does not belong together (a wait with a release on another CPU's
 * lost file). So a trace's transitions start where every rotated stream
 * has its data: the latest first packet among the streams whose first
 * kept packet is not their first (packet_seq_num > 0, in the CTF packet
 * index lttng writes beside each file: index/NAME.idx, big-endian, a
 * 16-byte header then entries of at least 72 bytes, seq_num the ninth
 * u64). The announcements' own channel (synctrace_meta_*) never counts. */

static uint64_t be64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

struct idx_stream {
	char key[256]; /* NAME without its _N.idx */
	uint64_t min_seq, min_begin;
};

/* The cut in clock cycles of the trace in dir (the folder of its
 * metadata), 0 when none of its streams rotated. */
static uint64_t rotation_cut(const char *dir)
{
	char path[4400];
	snprintf(path, sizeof(path), "%s/index", dir);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	struct idx_stream st[128];
	unsigned n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *name = de->d_name, *dot = strrchr(name, '.'), *us;
		if (!dot || strcmp(dot, ".idx") || !strncmp(name, "synctrace_meta_", 15))
			continue;
		for (us = dot; us > name && us[-1] != '_'; us--)
			;
		if (us == name)
			continue;
		size_t klen = (size_t)(us - 1 - name);
		snprintf(path, sizeof(path), "%s/index/%s", dir, name);
		FILE *f = fopen(path, "rb");
		unsigned char h[16], e[128];
		if (!f)
			continue;
		uint64_t len = 0;
		if (fread(h, 1, 16, f) == 16 && be64(h) >> 32 == 0xC1F1DCC1u)
			len = be64(h + 8) & 0xFFFFFFFFu;
		while (len >= 72 && len <= sizeof(e) && fread(e, 1, len, f) == len) {
			uint64_t begin = be64(e + 24), seq = be64(e + 64);
			unsigned i = 0;
			while (i < n && (strlen(st[i].key) != klen || strncmp(st[i].key, name, klen)))
				i++;
			if (i == n) {
				if (n == sizeof(st) / sizeof(st[0]) || klen >= sizeof(st[0].key))
					break;
				memcpy(st[n].key, name, klen);
				st[n].key[klen] = 0;
				st[n].min_seq = st[n].min_begin = UINT64_MAX;
				n++;
			}
			if (seq < st[i].min_seq)
				st[i].min_seq = seq;
			if (begin < st[i].min_begin)
				st[i].min_begin = begin;
		}
		fclose(f);
	}
	closedir(d);
	uint64_t cut = 0;
	for (unsigned i = 0; i < n; i++)
		if (st[i].min_seq > 0 && st[i].min_seq != UINT64_MAX && st[i].min_begin > cut)
			cut = st[i].min_begin;
	return cut;
}

/* At trace ti's first event (its stream named after its file, as
 * src.ctf.fs names them; its clock snapshot in e): where its transitions
 * start, in ns from origin. */
static void look_for_cut(struct sa_sink_state *s, unsigned ti, const bt_stream *stream,
			 const struct sa_event *e)
{
	s->cut_state[ti] = 1;
	const char *file = bt_stream_get_name(stream);
	const char *slash = file ? strrchr(file, '/') : NULL;
	if (!slash || !e->freq)
		return;
	char dir[4096];
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - file), file);
	uint64_t cut = rotation_cut(dir);
	if (!cut)
		return;
	/* The clock's offset from this event: ns = offset + cycles / freq. */
	double per = 1e9 / (double)e->freq;
	s->cut_ns[ti] = e->ts + (int64_t)(((double)cut - (double)e->cycles) * per);
	s->cut_state[ti] = 2;
	if (s->cut_ns[ti] > s->cut_at)
		s->cut_at = s->cut_ns[ti];
}

void sa_sink_say_cut(struct sa_sink_state *s)
{
	static char msg[512];
	const struct sa_model *m = s->model;
	if (!s->cut_events || s->opts.nmessages >= 16 || msg[0])
		return;
	char at[32], n[32];
	sa_fmt_ns(at, sizeof(at), s->cut_at > m->first_ts ? (double)(s->cut_at - m->first_ts) : 0);
	snprintf(msg, sizeof(msg), "the trace's CPUs kept their data from different times "
		 "(rotation): its transitions are read from %s into the trace on, where every "
		 "CPU's data is there (%s events before it left out)", at,
		 sa_fmt_count(n, sizeof(n), s->cut_events));
	s->opts.messages[s->opts.nmessages++] = msg;
}

/* Kept before a cut: what says whose events the trace holds and names
 * them (announcements, loaded objects, thread names). */
static int before_cut_kept(enum sa_event_id id)
{
	return sa_event_announces(id) || id == SA_EV_meta_stop || id == SA_EV_thread_name;
}

static struct sa_ec_info *ec_info(struct sa_sink_state *s, const bt_event *ev)
{
	const bt_event_class *ec = bt_event_borrow_class_const(ev);
	for (unsigned i = s->necs; i-- > 0;)
		if (s->ecs[i].ec == ec)
			return &s->ecs[i];
	if (s->necs == s->capecs) {
		unsigned c = s->capecs ? s->capecs * 2 : 32;
		struct sa_ec_info *p = realloc(s->ecs, c * sizeof(*p));
		if (!p)
			return NULL;
		s->ecs = p;
		s->capecs = c;
	}
	struct sa_ec_info *x = &s->ecs[s->necs++];
	memset(x, 0, sizeof(*x));
	x->ec = ec;
	x->name = bt_event_class_get_name(ec);
	x->id = sa_event_lookup(x->name);
	x->ours = x->name && !strncmp(x->name, "synctrace_", 10);
	x->ctx_vpid = x->ctx_vtid = x->ctx_procname = -1;

	const bt_field *payload = bt_event_borrow_payload_field_const(ev);
	if (payload) {
		const bt_field_class *fc = bt_field_borrow_class_const(payload);
		uint64_t n = bt_field_class_structure_get_member_count(fc);
		for (uint64_t i = 0; i < n && x->nint < SA_MAX_FIELDS; i++) {
			const bt_field_class_structure_member *m =
				bt_field_class_structure_borrow_member_by_index_const(fc, i);
			const bt_field_class *mfc =
				bt_field_class_structure_member_borrow_field_class_const(m);
			int k = int_kind(mfc);
			if (!k && !x->has_arr &&
			    bt_field_class_type_is(bt_field_class_get_type(mfc), BT_FIELD_CLASS_TYPE_ARRAY) &&
			    int_kind(bt_field_class_array_borrow_element_field_class_const(mfc))) {
				x->has_arr = 1;
				x->aidx = i;
				x->aname = bt_field_class_structure_member_get_name(m);
				continue;
			}
			if (!k) {
				if (bt_field_class_get_type(mfc) == BT_FIELD_CLASS_TYPE_STRING &&
				    x->nstr < SA_MAX_STRINGS) {
					x->sidx[x->nstr] = i;
					x->sname[x->nstr++] = bt_field_class_structure_member_get_name(m);
				}
				continue;
			}
			x->idx[x->nint] = i;
			x->fname[x->nint] = bt_field_class_structure_member_get_name(m);
			x->is_signed[x->nint] = k == 2;
			x->nint++;
		}
		/* Our events' fields go to their definition's slots, once per
		 * class; the others (an older format's, a foreign event's) after. */
		unsigned next = sa_event_nfields(x->id);
		for (unsigned k = 0; k < x->nint; k++) {
			int sl = sa_event_field_slot(x->id, x->fname[k]);
			x->slot[k] = sl >= 0 ? (unsigned)sl : next < SA_MAX_FIELDS ? next++ : SA_MAX_FIELDS;
			if (x->slot[k] < SA_MAX_FIELDS && x->slot[k] + 1 > x->nslots)
				x->nslots = x->slot[k] + 1;
		}
	}
	const bt_field *ctx = bt_event_borrow_common_context_field_const(ev);
	if (ctx) {
		const bt_field_class *fc = bt_field_borrow_class_const(ctx);
		uint64_t n = bt_field_class_structure_get_member_count(fc);
		for (uint64_t i = 0; i < n; i++) {
			const char *nm = bt_field_class_structure_member_get_name(
				bt_field_class_structure_borrow_member_by_index_const(fc, i));
			if (!strcmp(nm, "vpid"))
				x->ctx_vpid = (int64_t)i;
			else if (!strcmp(nm, "vtid"))
				x->ctx_vtid = (int64_t)i;
			else if (!strcmp(nm, "procname"))
				x->ctx_procname = (int64_t)i;
		}
	}
	return x;
}

static int64_t int_value(const bt_field *f)
{
	bt_field_class_type t = bt_field_get_class_type(f);
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		return bt_field_integer_signed_get_value(f);
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		return (int64_t)bt_field_integer_unsigned_get_value(f);
	return -1;
}

static unsigned trace_index(struct sa_sink_state *s, const bt_trace *tr)
{
	for (unsigned i = 0; i < s->ntraces; i++)
		if (s->traces[i] == tr)
			return i;
	/* Name it: the trace's name, else the hostname in its environment. */
	const char *name = bt_trace_get_name(tr);
	char buf[256];
	const bt_value *h = bt_trace_borrow_environment_entry_value_by_name_const(tr, "hostname");
	if (h && bt_value_is_string(h) && (!name || strcmp(name, bt_value_string_get(h)))) {
		snprintf(buf, sizeof(buf), "%s (host %s)", name ? name : "trace",
			 bt_value_string_get(h));
		name = buf;
	}
	/* A trace read again by a new graph (sa_sink_forget_traces) keeps
	 * its index, so its processes and objects go on. */
	for (unsigned i = 0; i < s->ntraces; i++)
		if (!s->traces[i] && i < s->model->ntraces && s->model->trace_names[i] && name &&
		    !strcmp(s->model->trace_names[i], name)) {
			s->traces[i] = tr;
			return i;
		}
	if (s->ntraces == sizeof(s->traces) / sizeof(s->traces[0]))
		return s->ntraces - 1;
	unsigned i = s->ntraces++;
	s->traces[i] = tr;
	/* A trace that can hold batches (format 3): hold every event from
	 * its first on, so that none is fed before records older than it. */
	const bt_trace_class *tc = bt_trace_borrow_class_const(tr);
	for (uint64_t k = 0; k < bt_trace_class_get_stream_class_count(tc); k++) {
		const bt_stream_class *sc = bt_trace_class_borrow_stream_class_by_index_const(tc, k);
		for (uint64_t j = 0; j < bt_stream_class_get_event_class_count(sc); j++) {
			const char *n = bt_event_class_get_name(
				bt_stream_class_borrow_event_class_by_index_const(sc, j));
			if (n && !strcmp(n, "synctrace_batch:records"))
				s->merge.active = 1;
		}
	}
	if (h && bt_value_is_string(h))
		s->hosts[i] = strdup(bt_value_string_get(h));
	sa_model_name_trace(s->model, i, name);
	sa_model_host_trace(s->model, i, h && bt_value_is_string(h) ? bt_value_string_get(h) : NULL);
	return i;
}

void sa_sink_forget_traces(struct sa_sink_state *s)
{
	for (unsigned i = 0; i < s->ntraces; i++)
		s->traces[i] = NULL;
}

/* synctrace_batch:records: its words go to the merge, which feeds each
 * record as the event it stands for (sa_merge.h). */
static void on_batch(struct sa_sink_state *s, const struct sa_ec_info *x, const bt_event *ev,
		     const struct sa_event *e)
{
	const bt_field *a = bt_field_structure_borrow_member_field_by_index_const(
		bt_event_borrow_payload_field_const(ev), x->aidx);
	uint64_t n = bt_field_array_get_length(a);
	if (n > s->capwords) {
		uint64_t *w = realloc(s->words, n * sizeof(*w));
		if (!w) {
			s->model->oom = 1;
			return;
		}
		s->words = w;
		s->capwords = n;
	}
	for (uint64_t i = 0; i < n; i++)
		s->words[i] = bt_field_integer_unsigned_get_value(
			bt_field_array_borrow_element_field_by_index_const(a, i));
	int64_t tid = e->vtid;
	sa_ev_get(e, "tid", &tid);
	s->synctrace_events++;
	sa_merge_batch(&s->merge, e, (int32_t)tid, s->words, (unsigned)n);
}

static void on_event(struct sa_sink_state *s, const bt_message *msg)
{
	const bt_event *ev = bt_message_event_borrow_event_const(msg);
	struct sa_ec_info *x = ec_info(s, ev);
	struct sa_event e;
	if (!x) {
		s->model->oom = 1;
		return;
	}
	e.id = x->id;
	e.name = x->name;
	e.ts = 0;
	e.cycles = e.freq = 0;
	const bt_clock_class *cc = bt_message_event_borrow_stream_class_default_clock_class_const(msg);
	if (cc) {
		const bt_clock_snapshot *cs = bt_message_event_borrow_default_clock_snapshot_const(msg);
		int64_t ns;
		if (bt_clock_snapshot_get_ns_from_origin(cs, &ns) ==
		    BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
			e.ts = ns;
		e.cycles = bt_clock_snapshot_get_value(cs);
		e.freq = bt_clock_class_get_frequency(cc);
	}
	if (e.ts > s->seen_ts)
		s->seen_ts = e.ts;
	e.trace = trace_index(s, bt_stream_borrow_trace_const(bt_event_borrow_stream_const(ev)));
	if (e.trace < 64 && !s->cut_state[e.trace] && cc)
		look_for_cut(s, e.trace, bt_event_borrow_stream_const(ev), &e);
	e.text = NULL;
	e.vpid = e.vtid = -1;
	e.procname = NULL;
	const bt_field *ctx = bt_event_borrow_common_context_field_const(ev);
	if (ctx) {
		if (x->ctx_vpid >= 0)
			e.vpid = (int32_t)int_value(
				bt_field_structure_borrow_member_field_by_index_const(ctx, (uint64_t)x->ctx_vpid));
		if (x->ctx_vtid >= 0)
			e.vtid = (int32_t)int_value(
				bt_field_structure_borrow_member_field_by_index_const(ctx, (uint64_t)x->ctx_vtid));
		if (x->ctx_procname >= 0) {
			const bt_field *f = bt_field_structure_borrow_member_field_by_index_const(
				ctx, (uint64_t)x->ctx_procname);
			if (bt_field_get_class_type(f) == BT_FIELD_CLASS_TYPE_STRING)
				e.procname = bt_field_string_get_value(f);
		}
	}
	e.nfields = 0;
	e.nstrings = 0;
	if (x->nstr) {
		const bt_field *payload = bt_event_borrow_payload_field_const(ev);
		for (unsigned i = 0; i < x->nstr; i++) {
			e.s[i].name = x->sname[i];
			e.s[i].v = bt_field_string_get_value(
				bt_field_structure_borrow_member_field_by_index_const(payload, x->sidx[i]));
		}
		e.nstrings = x->nstr;
	}
	if (x->nint) {
		const bt_field *payload = bt_event_borrow_payload_field_const(ev);
		memset(e.f, 0, x->nslots * sizeof(e.f[0]));
		for (unsigned i = 0; i < x->nint; i++) {
			if (x->slot[i] >= SA_MAX_FIELDS)
				continue;
			const bt_field *f =
				bt_field_structure_borrow_member_field_by_index_const(payload, x->idx[i]);
			e.f[x->slot[i]].name = x->fname[i];
			e.f[x->slot[i]].v = x->is_signed[i] ? bt_field_integer_signed_get_value(f)
							    : (int64_t)bt_field_integer_unsigned_get_value(f);
		}
		e.nfields = x->nslots;
	}
	uint64_t arr[256];
	e.arr_name = NULL;
	e.arr = arr;
	e.narr = 0;
	if (x->id == SA_EV_batch_records && x->has_arr) {
		on_batch(s, x, ev, &e);
		return;
	}
	if (x->has_arr) {
		const bt_field *a = bt_field_structure_borrow_member_field_by_index_const(
			bt_event_borrow_payload_field_const(ev), x->aidx);
		uint64_t n = bt_field_array_get_length(a);
		for (uint64_t i = 0; i < n && i < sizeof(arr) / sizeof(arr[0]); i++)
			arr[e.narr++] = (uint64_t)int_value(
				bt_field_array_borrow_element_field_by_index_const(a, i));
		e.arr_name = x->aname;
	}
	if (x->ours)
		s->synctrace_events++;
	char *text = s->dump ? sa_dump_text(ev) : NULL;
	e.text = text;
	sa_merge_event(&s->merge, &e);
	free(text);
}

/* An event in time order (from the merge). */
static void feed(void *ctx, const struct sa_event *e)
{
	struct sa_sink_state *s = ctx;
	if (s->dump) {
		if (!s->dump_lines++)
			s->dump_last = INT64_MIN;
		sa_dump_print(s->dump, e, e->trace < s->ntraces ? s->hosts[e->trace] : NULL,
			      &s->dump_last);
		return;
	}
	if (s->refused)
		return;
	if (e->trace < 64 && s->cut_state[e->trace] == 2 && e->ts < s->cut_ns[e->trace] &&
	    !before_cut_kept(e->id)) {
		s->cut_events++;
		return;
	}
	sa_symbols_feed(s->model, e); /* statedump and stack events: call sites */
	if (sa_model_feed(s->model, e) < 0 && !s->refused) {
		const char *tn = e->trace < s->model->ntraces && s->model->trace_names[e->trace]
					 ? s->model->trace_names[e->trace] : "trace";
		s->refused = 1;
		snprintf(s->refuse_msg, sizeof(s->refuse_msg),
			 "%s: process %d was recorded with synctrace trace format %d.x; this "
			 "analyzer understands format %d.x only",
			 tn, s->model->newer_vpid, s->model->newer_major, SA_FORMAT_MAJOR);
	}
}

static void on_discarded(struct sa_sink_state *s, const bt_message *msg)
{
	const bt_stream *st = bt_message_discarded_events_borrow_stream_const(msg);
	uint64_t count = 0;
	int known = bt_message_discarded_events_get_count(msg, &count) ==
		    BT_PROPERTY_AVAILABILITY_AVAILABLE;
	int64_t b = INT64_MIN, e = INT64_MIN;
	if (bt_stream_class_discarded_events_have_default_clock_snapshots(
		    bt_stream_borrow_class_const(st))) {
		const bt_clock_snapshot *cb =
			bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(msg);
		const bt_clock_snapshot *ce =
			bt_message_discarded_events_borrow_end_default_clock_snapshot_const(msg);
		if (bt_clock_snapshot_get_ns_from_origin(cb, &b) !=
		    BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
			b = INT64_MIN;
		if (bt_clock_snapshot_get_ns_from_origin(ce, &e) !=
		    BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
			e = INT64_MIN;
	}
	unsigned ti = trace_index(s, bt_stream_borrow_trace_const(st));
	const char *name = bt_stream_get_name(st);
	char buf[48];
	if (!name) {
		snprintf(buf, sizeof(buf), "stream %llu",
			 (unsigned long long)bt_stream_get_id(st));
		name = buf;
	}
	sa_model_discarded(s->model, ti, name, b, e, count, known);
}

static int parse_params(struct sa_sink_state *s, const bt_value *params)
{
	const bt_value *v;
	if (!params || !bt_value_is_map(params))
		return 0;
	if ((v = bt_value_map_borrow_entry_value_const(params, "format")) && bt_value_is_string(v)) {
		int f = sa_report_parse_format(bt_value_string_get(v));
		if (f >= 0)
			s->opts.format = (enum sa_format)f;
	}
	if ((v = bt_value_map_borrow_entry_value_const(params, "sort")) && bt_value_is_string(v)) {
		int k = sa_report_parse_sort(bt_value_string_get(v));
		if (k >= 0)
			s->opts.sort = (enum sa_sort)k;
	}
	if ((v = bt_value_map_borrow_entry_value_const(params, "by")) && bt_value_is_string(v)) {
		int k = sa_report_parse_by(bt_value_string_get(v));
		if (k >= 0)
			s->opts.by = (enum sa_by)k;
	}
	if ((v = bt_value_map_borrow_entry_value_const(params, "all")) && bt_value_is_bool(v))
		s->opts.all = bt_value_bool_get(v);
	if ((v = bt_value_map_borrow_entry_value_const(params, "wide")) && bt_value_is_bool(v))
		s->opts.wide = bt_value_bool_get(v);
	if ((v = bt_value_map_borrow_entry_value_const(params, "top"))) {
		if (bt_value_is_unsigned_integer(v))
			s->opts.top = (unsigned)bt_value_integer_unsigned_get(v);
		else if (bt_value_is_signed_integer(v) && bt_value_integer_signed_get(v) > 0)
			s->opts.top = (unsigned)bt_value_integer_signed_get(v);
	}
	/* at: the wait-for graph's time, seconds from the first event (--at). */
	if ((v = bt_value_map_borrow_entry_value_const(params, "at")) &&
	    (bt_value_is_real(v) || bt_value_is_signed_integer(v) || bt_value_is_unsigned_integer(v))) {
		double at = bt_value_is_real(v) ? bt_value_real_get(v) : bt_value_is_signed_integer(v)
			? (double)bt_value_integer_signed_get(v) : (double)bt_value_integer_unsigned_get(v);
		if (sa_waitfor_at(s->model, at)) {
			fprintf(stderr, "sink.synctrace.report: at wants seconds >= 0\n");
			return -1;
		}
	}
	/* work_event: the wakeups-per-unit tables' unit (--work-event). */
	if ((v = bt_value_map_borrow_entry_value_const(params, "work_event")) &&
	    bt_value_is_string(v) &&
	    sa_model_set_work_event(s->model, bt_value_string_get(v))) {
		fprintf(stderr, "sink.synctrace.report: work_event wants PROVIDER:EVENT[/FIELD], "
				"not '%s'\n", bt_value_string_get(v));
		return -1;
	}
	return 0;
}

bt_component_class_initialize_method_status
sa_sink_initialize(bt_self_component_sink *self, bt_self_component_sink_configuration *cfg,
		   const bt_value *params, void *init_data)
{
	(void)cfg;
	struct sa_sink_state *s = init_data;
	if (!s) {
		if (!(s = calloc(1, sizeof(*s))) || !(s->model = sa_model_new())) {
			free(s);
			return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
		}
		s->owned = 1;
		s->out = stdout;
		if (parse_params(s, params)) {
			sa_model_free(s->model);
			free(s);
			return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
		}
		if (s->opts.by == SA_BY_OBJECT) /* one row per object: none folded */
			sa_model_keep_objects(s->model, 1);
	}
	if (!s->merge.out)
		sa_merge_init(&s->merge, feed, s);
	if (bt_self_component_sink_add_input_port(self, "in", NULL, NULL) !=
	    BT_SELF_COMPONENT_ADD_PORT_STATUS_OK) {
		if (s->owned) {
			sa_model_free(s->model);
			free(s);
		}
		return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
	}
	bt_self_component_set_data(bt_self_component_sink_as_self_component(self), s);
	return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

bt_component_class_sink_graph_is_configured_method_status
sa_sink_graph_is_configured(bt_self_component_sink *self)
{
	struct sa_sink_state *s =
		bt_self_component_get_data(bt_self_component_sink_as_self_component(self));
	bt_self_component_port_input *port =
		bt_self_component_sink_borrow_input_port_by_index(self, 0);
	if (bt_message_iterator_create_from_sink_component(self, port, &s->iter) !=
	    BT_MESSAGE_ITERATOR_CREATE_FROM_SINK_COMPONENT_STATUS_OK)
		return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_ERROR;
	return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_OK;
}

bt_component_class_sink_consume_method_status sa_sink_consume(bt_self_component_sink *self)
{
	struct sa_sink_state *s =
		bt_self_component_get_data(bt_self_component_sink_as_self_component(self));
	bt_message_array_const msgs;
	uint64_t n;

	if (s->stop_after && s->consumed >= s->stop_after) {
		/* A guarded run's retry: the next batch is where the first run
		 * died (guard.c). */
		s->stopped = 1;
		bt_message_iterator_put_ref(s->iter);
		s->iter = NULL;
		return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END;
	}
	switch (bt_message_iterator_next(s->iter, &msgs, &n)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		break;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		sa_merge_drain(&s->merge);
		s->complete = 1;
		bt_message_iterator_put_ref(s->iter);
		s->iter = NULL;
		if (s->owned && !s->synctrace_events) {
			/* As a plugin, fail the graph so babeltrace2 exits non-zero. */
			BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(
				bt_self_component_sink_as_self_component(self),
				"no synctrace events in the input (not a synctrace recording?)");
			return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
		}
		return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_MEMORY_ERROR;
	default:
		return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
	}
	for (uint64_t i = 0; i < n; i++) {
		const bt_message *msg = msgs[i];
		switch (bt_message_get_type(msg)) {
		case BT_MESSAGE_TYPE_EVENT:
			if (!s->refused)
				on_event(s, msg);
			break;
		case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
			on_discarded(s, msg);
			break;
		case BT_MESSAGE_TYPE_MESSAGE_ITERATOR_INACTIVITY: {
			int64_t ns;
			if (bt_clock_snapshot_get_ns_from_origin(
				    bt_message_message_iterator_inactivity_borrow_clock_snapshot_const(msg),
				    &ns) == BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK &&
			    ns > s->seen_ts)
				s->seen_ts = ns;
			break;
		}
		default:
			break;
		}
		bt_message_put_ref(msg);
	}
	s->consumed += n;
	if (s->progress)
		*s->progress = s->consumed;
	if (s->refused) {
		BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_COMPONENT(
			bt_self_component_sink_as_self_component(self), "%s", s->refuse_msg);
		return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
	}
	return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
}

void sa_sink_state_clear(struct sa_sink_state *s)
{
	sa_merge_drain(&s->merge); /* a cut input: what was read is reported */
	sa_merge_free(&s->merge);
	free(s->words);
	s->words = NULL;
	for (unsigned i = 0; i < s->ntraces; i++) {
		free(s->hosts[i]);
		s->hosts[i] = NULL;
	}
	s->capwords = 0;
	free(s->ecs);
	s->ecs = NULL;
	s->necs = s->capecs = 0;
	if (s->iter) {
		bt_message_iterator_put_ref(s->iter);
		s->iter = NULL;
	}
}

/* Plugin mode: the report is written here, complete or not. */
void sa_sink_finalize(bt_self_component_sink *self)
{
	struct sa_sink_state *s =
		bt_self_component_get_data(bt_self_component_sink_as_self_component(self));
	if (!s)
		return;
	sa_sink_state_clear(s);
	if (!s->owned)
		return;
	if (s->refused) {
		fprintf(stderr, "sink.synctrace.report: %s\n", s->refuse_msg);
	} else if (!s->synctrace_events) {
		/* Said through the error cause appended at the end. */
	} else {
		s->opts.partial = !s->complete;
		sa_sink_say_cut(s);
		sa_report_render(s->model, &s->opts, s->out);
		fflush(s->out);
	}
	sa_model_free(s->model);
	free(s);
}
