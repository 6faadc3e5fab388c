/* The tracing session, through liblttng-ctl: per-UID user-space buffers
 * sized so an ordinary run loses nothing (8 MiB x 16 held a 10M-event
 * burst from two threads), synctrace's events and lttng-ust's statedump
 * (for symbolization), contexts vpid, vtid, procname. No ip context: it
 * would be the probe's address in libsynctrace (each event carries the
 * program's call site as `caller`), at 15-35 ns per event. */
#include <stdio.h>
#include <string.h>

#include <lttng/lttng.h>

#include "synctrace.h"

#define CHANNEL "synctrace"

static int failed(const char *what, const char *name, int ret)
{
	say("%s (session %s): %s", what, name, lttng_strerror(ret));
	return -1;
}

static int enable_events(struct lttng_handle *h, const char *name)
{
	static const char *const patterns[] = { "synctrace_*", "lttng_ust_statedump:*",
						 "lttng_ust_dl:*" };
	for (unsigned i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		struct lttng_event ev;
		memset(&ev, 0, sizeof(ev));
		ev.type = LTTNG_EVENT_TRACEPOINT;
		ev.loglevel_type = LTTNG_EVENT_LOGLEVEL_ALL;
		snprintf(ev.name, sizeof(ev.name), "%s", patterns[i]);
		int ret = lttng_enable_event_with_exclusions(h, &ev, CHANNEL, NULL, 0, NULL);
		if (ret < 0)
			return failed("cannot enable the events", name, ret);
	}
	return 0;
}

static int add_contexts(struct lttng_handle *h, const char *name)
{
	static const enum lttng_event_context_type types[] = {
		LTTNG_EVENT_CONTEXT_VPID, LTTNG_EVENT_CONTEXT_VTID,
		LTTNG_EVENT_CONTEXT_PROCNAME,
	};
	for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct lttng_event_context ctx;
		memset(&ctx, 0, sizeof(ctx));
		ctx.ctx = types[i];
		int ret = lttng_add_context(h, &ctx, NULL, CHANNEL);
		if (ret < 0)
			return failed("cannot add the contexts", name, ret);
	}
	return 0;
}

static int enable_channel(struct lttng_handle *h, struct lttng_domain *dom, const char *name,
			  const struct record_opts *o)
{
	struct lttng_channel *chan = lttng_channel_create(dom);
	if (!chan) {
		say("cannot allocate an LTTng channel");
		return -1;
	}
	snprintf(chan->name, sizeof(chan->name), "%s", CHANNEL);
	chan->enabled = 1;
	chan->attr.overwrite = 0;
	chan->attr.subbuf_size = 8u << 20;
	chan->attr.num_subbuf = 16;
	int ret = 0;
	if (o->blocking)
		ret = lttng_channel_set_blocking_timeout(chan, o->blocking_us);
	if (ret >= 0)
		ret = lttng_enable_channel(h, chan);
	lttng_channel_destroy(chan);
	return ret < 0 ? failed("cannot create the channel", name, ret) : 0;
}

int session_setup(const char *name, const char *dir, const struct record_opts *o)
{
	char url[4200];
	snprintf(url, sizeof(url), "file://%s", dir);
	int ret = lttng_create_session(name, url);
	if (ret < 0)
		return failed("cannot create the tracing session", name, ret);

	struct lttng_domain dom;
	memset(&dom, 0, sizeof(dom));
	dom.type = LTTNG_DOMAIN_UST;
	dom.buf_type = LTTNG_BUFFER_PER_UID;
	struct lttng_handle *h = lttng_create_handle(name, &dom);
	if (!h) {
		say("cannot get a handle on session %s", name);
		return -1;
	}
	int r = enable_channel(h, &dom, name, o);
	if (!r)
		r = enable_events(h, name);
	if (!r)
		r = add_contexts(h, name);
	lttng_destroy_handle(h);
	if (r)
		return -1;
	ret = lttng_start_tracing(name);
	if (ret < 0)
		return failed("cannot start tracing", name, ret);
	return 0;
}

/* Stop, waiting until every buffer is on disk. */
void session_stop(const char *name)
{
	int ret = lttng_stop_tracing(name);
	if (ret < 0 && ret != -LTTNG_ERR_TRACE_ALREADY_STOPPED)
		failed("cannot stop tracing", name, ret);
}

void session_destroy(const char *name)
{
	int ret = lttng_destroy_session(name);
	if (ret < 0 && ret != -LTTNG_ERR_SESS_NOT_FOUND)
		failed("cannot destroy the session", name, ret);
}
