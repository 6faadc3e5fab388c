/* The tracing session, through liblttng-ctl: per-UID user-space buffers
 * (ST_BUFFER_DEFAULT a CPU, or --buffer-size: each new process maps them,
 * and the time that takes grows with their size; doc/design.md), with
 * --keep-last a ring of trace files per stream, synctrace's events (the
 * loaded objects among them, for symbolization: meta:module), contexts
 * vpid, vtid, procname. With --keep-last the announcements (synctrace_meta)
 * have a ring of their own, so that the data's rotation never takes them
 * (META_CHANNEL). No ip context: it
 * would be the probe's address in libsynctrace (each event carries the
 * program's call site as `caller`), at 15-35 ns per event. A live session
 * (top, record --relayd) sends the same to a relay daemon instead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lttng/lttng.h>

#include "synctrace.h"

#define CHANNEL "synctrace"
/* A rotating recording's second channel: the processes' announcements and
 * loaded objects. In the data channel, a stream's kept tail is whatever its
 * CPU wrote last, milliseconds of a busy run, and no announcement made at a
 * rate the program cannot outrun was sure to be in it (an eighth of the
 * ring each was not, on a loaded machine: tests/cli/limits.sh). Here they
 * rotate only among themselves, and each process repeats its own every
 * second (tracepoints/batch.h), so the ring holds every live process's. */
#define META_CHANNEL "synctrace_meta"
#define META_EVENTS "synctrace_meta:*"

static int failed(const char *what, const char *name, int ret)
{
	say("%s (session %s): %s", what, name, lttng_strerror(ret));
	return -1;
}

static int enable_one(struct lttng_handle *h, const char *name, const char *pattern,
		      const char *channel, const char *exclude)
{
	struct lttng_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.type = LTTNG_EVENT_TRACEPOINT;
	ev.loglevel_type = LTTNG_EVENT_LOGLEVEL_ALL;
	snprintf(ev.name, sizeof(ev.name), "%s", pattern);
	char *ex[1] = { (char *)exclude };
	int ret = lttng_enable_event_with_exclusions(h, &ev, channel, NULL, exclude ? 1 : 0,
						     exclude ? ex : NULL);
	return ret < 0 ? failed("cannot enable the events", name, ret) : 0;
}

/* The announcements go to META_CHANNEL when there is one (`meta`). */
static int enable_events(struct lttng_handle *h, const char *name, int meta)
{
	/* Batched, the transitions come inside synctrace_batch:records, which
	 * records them whether or not their own tracepoints are enabled
	 * (tracepoints/probes.c): only the providers of the events written
	 * singly are enabled, as each enabled tracepoint costs every new
	 * process a round trip to the session daemon at its start. The loaded
	 * objects come as synctrace_meta:module (child.c). */
	static const char *const batched[] = { "synctrace_batch:*", "synctrace_summary:*",
					       "synctrace_stack:*", "synctrace_thread:*" };
	const char *b = getenv("SYNCTRACE_BATCH");
	int off = b && !strcmp(b, "0"), r = 0;
	if (off) /* every provider, the announcements where meta says */
		r = enable_one(h, name, "synctrace_*", CHANNEL, meta ? META_EVENTS : NULL);
	else
		for (unsigned i = 0; !r && i < sizeof(batched) / sizeof(batched[0]); i++)
			r = enable_one(h, name, batched[i], CHANNEL, NULL);
	if (!r && (meta || !off))
		r = enable_one(h, name, META_EVENTS, meta ? META_CHANNEL : CHANNEL, NULL);
	return r;
}

static int add_contexts(struct lttng_handle *h, const char *name, const char *channel)
{
	static const enum lttng_event_context_type types[] = {
		LTTNG_EVENT_CONTEXT_VPID, LTTNG_EVENT_CONTEXT_VTID,
		LTTNG_EVENT_CONTEXT_PROCNAME,
	};
	for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct lttng_event_context ctx;
		memset(&ctx, 0, sizeof(ctx));
		ctx.ctx = types[i];
		int ret = lttng_add_context(h, &ctx, NULL, channel);
		if (ret < 0)
			return failed("cannot add the contexts", name, ret);
	}
	return 0;
}

static uint64_t pow2_floor(uint64_t v)
{
	uint64_t p = 1;
	while (p <= v / 2)
		p *= 2;
	return p;
}

/* Sub-buffers for `per_cpu` bytes a CPU: up to 8 of at least 16 KiB, each
 * a power of two of at least a page (lttng's rules); with --keep-last, no
 * larger than a trace file (4 files a stream, one stream a CPU). */
static void channel_geometry(const struct record_opts *o, uint64_t *subbuf, uint64_t *num,
			     uint64_t *file_size, uint64_t *file_count)
{
	uint64_t per_cpu = o->buffer_size ? o->buffer_size : ST_BUFFER_DEFAULT;
	uint64_t n = 8;
	while (n > 2 && per_cpu / n < 16384)
		n /= 2;
	uint64_t sb = pow2_floor(per_cpu / n);
	*file_size = *file_count = 0;
	if (o->keep_last) {
		long cpus = sysconf(_SC_NPROCESSORS_CONF);
		*file_count = 4;
		*file_size = o->keep_last / ((uint64_t)(cpus > 0 ? cpus : 1) * *file_count);
		if (sb > *file_size)
			sb = pow2_floor(*file_size);
		if (*file_size < sb)
			*file_size = sb;
	}
	*subbuf = sb < 4096 ? 4096 : sb;
	*num = n;
}

/* META_CHANNEL's: 4 sub-buffers of 16 KiB a CPU, 4 trace files a stream
 * that hold an eighth of --keep-last in all (at least 64 KiB each): some
 * hundreds of announcements (about 1.5 KiB each with a dozen objects). */
static void meta_geometry(const struct record_opts *o, uint64_t *subbuf, uint64_t *num,
			  uint64_t *file_size, uint64_t *file_count)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	*subbuf = 16384;
	*num = 4;
	*file_count = 4;
	*file_size = o->keep_last / 8 / ((uint64_t)(cpus > 0 ? cpus : 1) * *file_count);
	if (*file_size < 65536)
		*file_size = 65536;
}

static int enable_channel(struct lttng_handle *h, struct lttng_domain *dom, const char *name,
			  const struct record_opts *o, const char *channel)
{
	struct lttng_channel *chan = lttng_channel_create(dom);
	if (!chan) {
		say("cannot allocate an LTTng channel");
		return -1;
	}
	snprintf(chan->name, sizeof(chan->name), "%s", channel);
	chan->enabled = 1;
	chan->attr.overwrite = 0;
	uint64_t sb, num, fsize, fcount;
	if (strcmp(channel, CHANNEL))
		meta_geometry(o, &sb, &num, &fsize, &fcount);
	else
		channel_geometry(o, &sb, &num, &fsize, &fcount);
	chan->attr.subbuf_size = sb;
	chan->attr.num_subbuf = num;
	chan->attr.tracefile_size = fsize;
	chan->attr.tracefile_count = fcount;
	int ret = 0;
	if (o->blocking)
		ret = lttng_channel_set_blocking_timeout(chan, o->blocking_us);
	if (ret >= 0)
		ret = lttng_enable_channel(h, chan);
	lttng_channel_destroy(chan);
	return ret < 0 ? failed("cannot create the channel", name, ret) : 0;
}

/* The channel, events and contexts of a created session, then start. */
static int configure_and_start(const char *name, const struct record_opts *o)
{
	struct lttng_domain dom;
	memset(&dom, 0, sizeof(dom));
	dom.type = LTTNG_DOMAIN_UST;
	dom.buf_type = LTTNG_BUFFER_PER_UID;
	struct lttng_handle *h = lttng_create_handle(name, &dom);
	if (!h) {
		say("cannot get a handle on session %s", name);
		return -1;
	}
	int meta = o->keep_last != 0;
	int r = enable_channel(h, &dom, name, o, CHANNEL);
	if (!r && meta)
		r = enable_channel(h, &dom, name, o, META_CHANNEL);
	if (!r)
		r = enable_events(h, name, meta);
	if (!r)
		r = add_contexts(h, name, CHANNEL);
	if (!r && meta)
		r = add_contexts(h, name, META_CHANNEL);
	lttng_destroy_handle(h);
	if (r)
		return -1;
	int ret = lttng_start_tracing(name);
	if (ret < 0)
		return failed("cannot start tracing", name, ret);
	return 0;
}

int session_setup(const char *name, const char *dir, const struct record_opts *o)
{
	char url[4200];
	snprintf(url, sizeof(url), "file://%s", dir);
	int ret = lttng_create_session(name, url);
	if (ret < 0)
		return failed("cannot create the tracing session", name, ret);
	return configure_and_start(name, o);
}

int session_setup_live(const char *name, const struct relay_addr *r, const struct record_opts *o)
{
	char ctrl[300], data[300];
	snprintf(ctrl, sizeof(ctrl), "tcp://%s:%d", r->host, r->ctrl);
	snprintf(data, sizeof(data), "tcp://%s:%d", r->host, r->data);
	struct lttng_session_descriptor *d =
		lttng_session_descriptor_live_network_create(name, ctrl, data, ST_LIVE_TIMER_US);
	if (!d) {
		say("cannot describe a live session to %s", ctrl);
		return -1;
	}
	enum lttng_error_code ret = lttng_create_session_ext(d);
	lttng_session_descriptor_destroy(d);
	if (ret != LTTNG_OK)
		return failed("cannot create the live session (is the relay daemon there?)", name,
			      -(int)ret);
	return configure_and_start(name, o);
}

/* Stop, waiting until every buffer is on disk. liblttng-ctl's own wait
 * polls every 200 ms; a 5 ms poll makes a short recording end at once. */
void session_stop(const char *name)
{
	int ret = lttng_stop_tracing_no_wait(name);
	if (ret < 0) {
		if (ret != -LTTNG_ERR_TRACE_ALREADY_STOPPED)
			failed("cannot stop tracing", name, ret);
		return;
	}
	for (int i = 0; i < 60000; i++) { /* 5 minutes at most */
		ret = lttng_data_pending(name);
		if (ret <= 0)
			break;
		struct timespec ts = { 0, 5000000L };
		nanosleep(&ts, NULL);
	}
	if (ret < 0)
		failed("cannot wait for the trace data", name, ret);
}

/* After session_stop the data is on disk, so the destroy need not wait
 * for it again (lttng_destroy_session does, half a second here). */
void session_destroy(const char *name)
{
	int ret = lttng_destroy_session_no_wait(name);
	if (ret < 0 && ret != -LTTNG_ERR_SESS_NOT_FOUND)
		failed("cannot destroy the session", name, ret);
}
