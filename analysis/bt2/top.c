/* synctrace-report --live URL: the reader of `synctrace top`. Runs the
 * live graph of graph.c (src.ctf.lttng-live → the report sink) one step at
 * a time and, every --interval, prints a snapshot of the model as it
 * stands (report/top_view.c): on a terminal over the previous one (plain
 * ANSI sequences: home, clear), with --batch one after the other. Ends
 * when the session does (a final snapshot), on 'q', on SIGINT/SIGTERM, or
 * after --count snapshots. --ready-fd FD: one byte is written there once
 * the relay daemon counts this reader among the session's viewers (it
 * attaches at the session's newest data, so `synctrace top -- CMD` starts
 * CMD only then, and the view misses nothing). Falling --max-behind
 * behind the program, it detaches and attaches again (at the newest data):
 * the lag stays bounded, the skipped stretch is a discarded range. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "sa_graph.h"
#include "sa_top_view.h"
#include "sa_top_main.h"

#define PROG "synctrace-report"

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

static double now_s(int clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* ---- the terminal -------------------------------------------------------- */

static struct termios saved_tio;
static int keys_on;

static void keys_start(void)
{
	struct termios t;
	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved_tio))
		return;
	t = saved_tio;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	keys_on = !tcsetattr(STDIN_FILENO, TCSANOW, &t);
}

static void keys_end(void)
{
	if (keys_on)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
	keys_on = 0;
}

/* 1 when 'q' was typed; waits up to ms for it. */
static int quit_typed(int ms)
{
	if (!keys_on) {
		if (ms)
			nap_ms(ms);
		return 0;
	}
	struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
	if (poll(&p, 1, ms) <= 0)
		return 0;
	char buf[64];
	ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
	return n > 0 && (memchr(buf, 'q', (size_t)n) || memchr(buf, 'Q', (size_t)n));
}

/* ---- the relay daemon's viewers ----------------------------------------- */

/* The viewers the relay daemon of url counts on its session (the
 * lttng-live "sessions" query of net://HOST:PORT, the entry whose URL is
 * url): >= 0; -1 when the session is not listed (gone); -2 when the query
 * fails. */
static int viewers(const struct sa_graph_classes *c, const char *url)
{
	char base[1024];
	const char *h = strstr(url, "/host/");
	if (!h || (size_t)(h - url) >= sizeof(base))
		return -2;
	memcpy(base, url, (size_t)(h - url));
	base[h - url] = 0;
	bt_value *params = bt_value_map_create();
	const bt_value *res = NULL;
	int r = -2;
	if (params && !bt_value_map_insert_string_entry(params, "url", base)) {
		bt_query_executor *q = bt_query_executor_create(c->live, "sessions", params);
		if (q && bt_query_executor_query(q, &res) == BT_QUERY_EXECUTOR_QUERY_STATUS_OK) {
			r = -1;
			for (uint64_t i = 0; bt_value_is_array(res) && i < bt_value_array_get_length(res); i++) {
				const bt_value *e = bt_value_array_borrow_element_by_index_const(res, i);
				const bt_value *u = bt_value_map_borrow_entry_value_const(e, "url");
				const bt_value *n = bt_value_map_borrow_entry_value_const(e, "client-count");
				if (u && bt_value_is_string(u) && !strcmp(bt_value_string_get(u), url))
					r = n && bt_value_is_unsigned_integer(n)
						    ? (int)bt_value_integer_unsigned_get(n) : 0;
			}
		}
		bt_value_put_ref(res);
		bt_query_executor_put_ref(q);
	}
	bt_value_put_ref(params);
	bt_current_thread_clear_error();
	return r;
}

/* ---- the loop ------------------------------------------------------------ */

struct live_opts {
	const char *url;
	int batch, ready_fd;
	double interval;
	unsigned count;     /* 0: until the end */
	double max_behind;  /* re-attach when this far behind (0: never) */
	unsigned skips;     /* re-attachments so far */
	double skipped_s;   /* the stream time they skipped, about */
	struct sa_top top;
};

/* How far the newest time read (an event's, or a quiet stream's
 * inactivity message) is behind the wall clock (< 0: nothing yet). LTTng's
 * clock is the realtime one's offset from its monotonic base. */
static double behind_s(const struct sa_sink_state *st)
{
	if (st->seen_ts <= 0)
		return -1;
	double b = now_s(CLOCK_REALTIME) - (double)st->seen_ts / 1e9;
	return b < 0 ? 0 : b;
}

/* The terminal's height, 0 if out is none (or says none). */
static int rows_of(FILE *out)
{
	struct winsize w;
	if (!isatty(fileno(out)) || ioctl(fileno(out), TIOCGWINSZ, &w) || w.ws_row < 5)
		return 0;
	return w.ws_row;
}

/* A redrawn view fits its terminal: lines past its height would scroll
 * the snapshot's head, the findings, off the screen. Writes text to mem:
 * whole if it fits, else its first rows - 4 lines and one that says how
 * many more there are (the blank line and "(q: quit)" below it, and the
 * line the cursor ends on, take the other three). */
static void fit_rows(const char *text, size_t len, int rows, FILE *mem)
{
	size_t lines = 0, keep = 0, room = rows > 4 ? (size_t)rows - 4 : 1;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n' && ++lines == room)
			keep = i + 1;
	if (lines + 3 <= (size_t)rows) {
		fwrite(text, 1, len, mem);
		return;
	}
	fwrite(text, 1, keep, mem);
	fprintf(mem, "... %zu more lines: a taller terminal shows them, --batch prints them all\n",
		lines - room);
}

static void snapshot(struct live_opts *o, const struct sa_sink_state *st, double t0,
		     double *last, int final, FILE *out)
{
	const struct sa_model *m = st->model;
	double now = now_s(CLOCK_MONOTONIC);
	struct sa_top_status s = { .elapsed_s = now - t0, .interval_s = now - *last,
				   .behind_s = behind_s(st), .final = final, .source = o->url };
	char note[400];
	size_t n = 0;
	note[0] = 0;
	/* The relay sends what the live timer flushed: a second or two
	 * behind is the stream's own pace; more is this reader's. */
	if (!final && s.behind_s > 3 * o->interval + 2)
		n += (size_t)snprintf(note, sizeof(note), "reading %.1f s behind the program: the "
				      "events come faster than they are analysed%s. ", s.behind_s,
				      o->max_behind > 0 ? "; past --max-behind the view skips ahead"
							: "");
	if (o->skips && n < sizeof(note))
		snprintf(note + n, sizeof(note) - n, "skipped ahead %u time%s, about %.1f s of "
			 "events not analysed (the relay daemon has them): counts are lower bounds.",
			 o->skips, o->skips == 1 ? "" : "s", o->skipped_s);
	if (note[0])
		s.note = note;
	*last = now;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		return;
	if (!o->batch)
		fputs("\033[H\033[2J", mem); /* home, clear: one write, no flicker */
	else if (o->top.snapshots)
		fputc('\n', mem);
	/* The final snapshot stays on the screen, whole: the terminal scrolls. */
	int rows = o->batch || final ? 0 : rows_of(out);
	char *view = NULL;
	size_t vlen = 0;
	FILE *vm = rows ? open_memstream(&view, &vlen) : NULL;
	sa_top_snapshot(&o->top, m, &s, vm ? vm : mem);
	if (vm) {
		fclose(vm);
		fit_rows(view, vlen, rows, mem);
		free(view);
	}
	if (!o->batch && !final)
		fputs("\n(q: quit)\n", mem);
	fclose(mem);
	fwrite(buf, 1, len, out);
	fflush(out);
	free(buf);
}

static int run_live(struct live_opts *o)
{
	struct sa_sink_state st;
	struct sa_graph_classes cls = { 0 };
	bt_graph *g = NULL;
	int rc = 0, ready = o->ready_fd < 0;

	memset(&st, 0, sizeof(st));
	st.opts = o->top.opts;
	st.out = stdout;
	if (!(st.model = sa_model_new()) || sa_graph_classes_get(&cls, 0) ||
	    !(g = sa_graph_live(&cls, &st, o->url, 0))) {
		rc = 2;
		goto out;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (!o->batch)
		keys_start();
	double t0 = now_s(CLOCK_MONOTONIC), last = t0, next = t0 + o->interval;
	double ready_by = t0 + 30;
	int ended = 0, nap = 0;
	while (!stop_sig) {
		bt_graph_run_once_status rs = bt_graph_run_once(g);
		if (rs == BT_GRAPH_RUN_ONCE_STATUS_END) {
			ended = 1;
			break;
		}
		if (rs != BT_GRAPH_RUN_ONCE_STATUS_OK && rs != BT_GRAPH_RUN_ONCE_STATUS_AGAIN) {
			const bt_error *e = bt_current_thread_take_error();
			/* An attach that met the session's destruction (after a
			 * skip, "Session id N is unknown") is its end, not an error. */
			if (viewers(&cls, o->url) == -1) {
				if (e)
					bt_error_release(e);
				ended = 1;
				break;
			}
			fprintf(stderr, PROG ": %s: the live reader stopped on an error%s%s\n", o->url,
				e ? ": " : "", e && bt_error_get_cause_count(e)
					? bt_error_cause_get_message(bt_error_borrow_cause_by_index(e, 0)) : "");
			if (e)
				bt_error_release(e);
			rc = 1;
			break;
		}
		if (st.refused) {
			fprintf(stderr, PROG ": %s\n", st.refuse_msg);
			rc = 3;
			break;
		}
		double now = now_s(CLOCK_MONOTONIC);
		if (!ready) {
			int a = viewers(&cls, o->url);
			if (a > 0 || now > ready_by) {
				if (a <= 0)
					fprintf(stderr, PROG ": %s: the relay daemon does not list this "
							    "viewer; going on\n", o->url);
				char b = 1;
				if (write(o->ready_fd, &b, 1) < 0)
					fprintf(stderr, PROG ": --ready-fd: %s\n", strerror(errno));
				close(o->ready_fd);
				ready = 1;
			}
		}
		if (rs == BT_GRAPH_RUN_ONCE_STATUS_AGAIN) {
			/* Nothing now: ask again after a nap that doubles from
			 * 1 ms while nothing comes (up to 20 ms, and never past
			 * the next snapshot), so a busy stream is read at once
			 * and an idle one costs 50 wakeups a second. */
			nap = nap ? (nap >= 20 ? 20 : nap * 2) : 1;
			double wait = next - now;
			int ms = wait <= 0 ? 0 : wait * 1000 < nap ? (int)(wait * 1000) : nap;
			if (quit_typed(ms))
				break;
			now = now_s(CLOCK_MONOTONIC);
		} else {
			nap = 0;
		}
		if (now >= next && o->max_behind > 0 && behind_s(&st) > o->max_behind) {
			/* Falling behind without limit: detach and attach again,
			 * which starts at the session's newest data (lttng-live
			 * attaches there). The gap is said as a discarded range. */
			int64_t from = st.seen_ts;
			double gap = behind_s(&st);
			bt_graph_put_ref(g); /* the sink's finalize clears its caches */
			sa_sink_forget_traces(&st);
			if (!(g = sa_graph_live(&cls, &st, o->url, 0))) {
				rc = 1;
				break;
			}
			int64_t to = (int64_t)(now_s(CLOCK_REALTIME) * 1e9);
			for (unsigned i = 0; i < st.model->ntraces; i++)
				sa_model_discarded(st.model, i, "skipped by synctrace top (behind)" /* findings.c */, from, to,
						   0, 0);
			o->skips++;
			o->skipped_s += gap;
		}
		if (now >= next) {
			if (quit_typed(0))
				break;
			snapshot(o, &st, t0, &last, 0, stdout);
			next += o->interval;
			if (next < now) /* a slow snapshot: no burst to catch up */
				next = now + o->interval;
			if (o->count && o->top.snapshots >= o->count)
				goto out;
		}
	}
	(void)ended; /* the final snapshot either way: the stream's end, 'q' or a signal */
	snapshot(o, &st, t0, &last, 1, stdout);
	if (st.model->oom) {
		fprintf(stderr, PROG ": out of memory: the view is incomplete\n");
		rc = rc ? rc : 1;
	}
out:
	keys_end();
	if (!ready && o->ready_fd >= 0)
		close(o->ready_fd);
	bt_graph_put_ref(g);
	bt_current_thread_clear_error();
	sa_graph_classes_put(&cls);
	sa_sink_state_clear(&st);
	sa_model_free(st.model);
	sa_top_free(&o->top);
	return rc;
}

static void usage(FILE *f)
{
	fputs("usage: " PROG " --live URL [--batch] [--interval SECONDS] [--count N] [--top N]\n"
	      "       [--wide] [--max-behind SECONDS] [--ready-fd FD]\n"
	      "Read a live LTTng session from a relay daemon (URL:\n"
	      "net://HOST:LIVE_PORT/host/HOSTNAME/SESSION) and show, every interval (default\n"
	      "1 s), the waits of the last interval and since the start, per lock class,\n"
	      "with the report's findings. On a terminal the view is redrawn in place ('q'\n"
	      "quits); --batch prints the snapshots one after the other. Ends with a final\n"
	      "snapshot when the session ends, on 'q' or Ctrl-C, or after --count snapshots.\n"
	      "Falling more than --max-behind (default 10 s; 0: never) behind the program,\n"
	      "it attaches again at the newest data: the skipped events are said, and the\n"
	      "counts since the start become lower bounds.\n"
	      "Exit: 0; 1 the reader stopped on an error; 2 bad usage or no live reader;\n"
	      "3 a trace of a newer format.\n",
	      f);
}

int sa_top_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "live", required_argument, NULL, 'L' },
		{ "batch", no_argument, NULL, 'b' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "top", required_argument, NULL, 't' },
		{ "wide", no_argument, NULL, 'w' },
		{ "ready-fd", required_argument, NULL, 'r' },
		{ "max-behind", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct live_opts o = { .interval = 1.0, .ready_fd = -1, .max_behind = 10 };
	int c;
	char *end;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'L':
			o.url = optarg;
			break;
		case 'b':
			o.batch = 1;
			break;
		case 'i':
			o.interval = strtod(optarg, &end);
			if (*end || !(o.interval >= 0.05) || o.interval > 3600) {
				fprintf(stderr, PROG ": --interval wants seconds (0.05 to 3600), not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'm':
			o.max_behind = strtod(optarg, &end);
			if (*end || !(o.max_behind >= 0)) {
				fprintf(stderr, PROG ": --max-behind wants seconds (0: never skip), not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'n':
		case 't':
		case 'r': {
			long v = strtol(optarg, &end, 10);
			if (*end || end == optarg || v < 0 || v > 1000000) {
				fprintf(stderr, PROG ": %s wants a number, not '%s'\n",
					c == 'n' ? "--count" : c == 't' ? "--top" : "--ready-fd", optarg);
				return 2;
			}
			if (c == 'n')
				o.count = (unsigned)v;
			else if (c == 't')
				o.top.opts.top = (unsigned)v;
			else
				o.ready_fd = (int)v;
			break;
		}
		case 'w':
			o.top.opts.wide = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!o.url || optind != argc || strncmp(o.url, "net://", 6) || !strstr(o.url, "/host/")) {
		if (o.url)
			fprintf(stderr, PROG ": --live wants net://HOST:PORT/host/HOSTNAME/SESSION, "
					"not '%s'\n", o.url);
		usage(stderr);
		return 2;
	}
	return run_live(&o);
}
