/* The report's own behaviours on synthetic models, one per process
 * (usage: test_report CASE): readable numbers, the HTML chart without
 * 0 ns bars, the timeline's busiest second, findings that say
 * "incomplete", --all and --by. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sa_checks.h"
#include "sa_model.h"
#include "sa_report.h"
#include "sa_timeline.h"

static struct sa_model *m;

#include "sa_feed.h"
/* Every event of process 1. */
#define feed(id, ts, tid, ...) sa_test_feed(m, id, ts, 1, tid, __VA_ARGS__)
#define SEC 1000000000LL

static void start(int level)
{
	feed(SA_EV_meta_start, 1, 1, "format_major", I(2), "format_minor", I(1), "level",
	     I(level), "spin_mode", I(1), "spin_limit", I(100), NULL);
}

/* Thread tid waits ns on mutex addr, ending at ts. */
static void mutex_wait(int64_t ts, int tid, uint64_t addr, int64_t ns)
{
	feed(SA_EV_mutex_requested, ts - ns, tid, "obj", I(addr), "caller", I(0x500), "owner",
	     I(1), "waiters", I(0), NULL);
	feed(SA_EV_mutex_acquired, ts, tid, "obj", I(addr), "caller", I(0x500), "how", I(2),
	     "spins", I(0), "sleeps", I(1), "wait_ns", I(ns), NULL);
	feed(SA_EV_mutex_released, ts + 10, tid, "obj", I(addr), "caller", I(0x600), "waiters",
	     I(0), "woken", I(0), NULL);
}

static char *render(struct sa_report_opts o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f);
	CHECK(sa_report_render(m, &o, f) == 0);
	fclose(f);
	return buf;
}

static unsigned count(const char *s, const char *what)
{
	unsigned n = 0;
	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

/* The CSV block of table `name` (free it). */
static char *block(const char *csv, const char *name)
{
	char head[64];
	snprintf(head, sizeof(head), "# %s\n", name);
	const char *b = strstr(csv, head);
	CHECK(b);
	const char *e = strstr(b, "\n\n");
	return strndup(b, e ? (size_t)(e - b + 1) : strlen(b));
}

static void readable_numbers(void)
{
	static const struct { double ns; const char *want; } d[] = {
		{ 0, "0" }, { 45, "45.0 ns" }, { 7, "7.00 ns" }, { 812000, "812 \xc2\xb5s" },
		{ 2030000, "2.03 ms" }, { 999600, "1.00 ms" }, { 1.5e9, "1.50 s" },
		{ 4321e9, "4321 s" },
	};
	char b[32];
	for (unsigned i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		sa_fmt_ns(b, sizeof(b), d[i].ns);
		if (strcmp(b, d[i].want)) {
			fprintf(stderr, "sa_fmt_ns(%g) = '%s', want '%s'\n", d[i].ns, b, d[i].want);
			exit(1);
		}
	}
	CHECK(!strcmp(sa_fmt_count(b, sizeof(b), 1234567), "1,234,567"));
	CHECK(!strcmp(sa_fmt_count(b, sizeof(b), 999), "999"));
	CHECK(!strcmp(sa_fmt_count(b, sizeof(b), 1000), "1,000"));
	/* In a report: text with units, JSON exact. */
	start(1);
	mutex_wait(3000000, 2, 0x1000, 2030000);
	char *t = render((struct sa_report_opts){ .format = SA_FMT_TEXT });
	CHECK(strstr(t, "2.03 ms"));
	CHECK(!strstr(t, "2030000"));
	free(t);
	char *j = render((struct sa_report_opts){ .format = SA_FMT_JSON });
	CHECK(strstr(j, "\"wait_total_ns\": 2030000"));
	free(j);
}

/* Only rows with waiting get a bar in the top-waits chart. */
static void html_no_zero_bar(void)
{
	start(2);
	mutex_wait(5000, 2, 0x1000, 1000);
	/* 0x2000: acquired and released, never waited for. */
	feed(SA_EV_mutex_acquired, 6000, 3, "obj", I(0x2000), "caller", I(0x700), "how", I(0),
	     "spins", I(0), "sleeps", I(0), "wait_ns", I(0), NULL);
	feed(SA_EV_mutex_released, 6100, 3, "obj", I(0x2000), "caller", I(0x700), "waiters",
	     I(0), "woken", I(0), NULL);
	char *h = render((struct sa_report_opts){ .format = SA_FMT_HTML, .all = 1 });
	CHECK_EQ(count(h, "class=\"bar\""), 1);
	free(h);
	/* --all lists the row that never waited; the default hides it. */
	char *j = render((struct sa_report_opts){ .format = SA_FMT_CSV, .all = 1 });
	char *d = render((struct sa_report_opts){ .format = SA_FMT_CSV });
	CHECK(strstr(j, ",0x2000,"));
	char *top = block(d, "waits.top");
	CHECK(!strstr(top, ",0x2000,"));
	free(top);
	free(j);
	free(d);
}

/* Second 0 has the waits; second 2 only creates and destroys locks: the
 * timeline's busiest second is second 0. */
static void timeline_busiest_second(void)
{
	struct sa_timeline *tl = sa_timeline_attach(m, 0, 0, 0);
	CHECK(tl);
	start(1);
	for (int i = 0; i < 5; i++)
		mutex_wait(100000 + i * 1000, 2, 0x1000, 500);
	for (int i = 0; i < 50; i++) {
		feed(SA_EV_mutex_init, 2 * SEC + i * 10, 1, "obj", I(0x3000 + i * 64), "caller",
		     I(0x400), "kind", I(0), NULL);
		feed(SA_EV_mutex_destroy, 2 * SEC + i * 10 + 5, 1, "obj", I(0x3000 + i * 64),
		     "caller", I(0x400), "result", I(0), "acquisitions", I(0), "contended", I(0),
		     NULL);
	}
	const struct sa_tl_window *w = sa_timeline_window(tl);
	CHECK(w->start < SEC && w->end < SEC);
	CHECK(w->nspans >= 5);
	sa_timeline_free(tl);
}

/* A lock-order check that dropped edges says "incomplete", never only
 * "no finding"; in JSON the finding is data. */
static void findings_incomplete(void)
{
	struct sa_checks *c = sa_checks_attach(m);
	CHECK(c);
	start(2);
	mutex_wait(5000, 2, 0x1000, 1000);
	c->edges_dropped = 470221;
	c->lockorder_incomplete |= SA_CHK_INCOMPLETE_EDGES;
	char *t = render((struct sa_report_opts){ .format = SA_FMT_TEXT, .checks = c });
	const char *f = strstr(t, "\nFindings\n");
	CHECK(f && strstr(f, " 1. lock-order check incomplete:"));
	CHECK(strstr(t, "470,221 dropped"));
	free(t);
	char *j = render((struct sa_report_opts){ .format = SA_FMT_JSON, .checks = c });
	CHECK(strstr(j, "\"kind\": \"incomplete\", \"wait_kind\": null"));
	CHECK(strstr(j, "\"count\": 470221"));
	free(j);
	sa_checks_free(c);
}

/* Discarded events: a finding with the count, as data. */
static void findings_discarded(void)
{
	start(1);
	mutex_wait(5000, 2, 0x1000, 1000);
	sa_model_discarded(m, 0, "chan_0", 100, 200, 42, 1);
	char *j = render((struct sa_report_opts){ .format = SA_FMT_JSON });
	CHECK(strstr(j, "\"kind\": \"discarded\""));
	CHECK(strstr(j, "\"count\": 42, \"of\": 1"));
	free(j);
}

/* Destroyed objects folded into their class (the model) are one row of
 * waits.top with their instance count; --by object lists the live ones
 * apart. */
static void class_rows(void)
{
	sa_model_keep_objects(m, 0);
	start(1);
	for (int k = 0; k < 2; k++)
		feed(SA_EV_mutex_init, 10 + k, 1, "obj", I(0x7000 + k * 64), "caller", I(0x400),
		     "kind", I(0), NULL);
	mutex_wait(5000, 2, 0x7000, 1000);
	mutex_wait(9000, 3, 0x7040, 3000);
	char *o = render((struct sa_report_opts){ .format = SA_FMT_CSV, .by = SA_BY_OBJECT });
	char *to = block(o, "waits.top");
	CHECK_EQ(count(to, "\n1,mutex,") + count(to, "\n2,mutex,"), 2);
	for (int k = 0; k < 2; k++)
		feed(SA_EV_mutex_destroy, 20000 + k, 1, "obj", I(0x7000 + k * 64), "caller",
		     I(0x400), "result", I(0), "acquisitions", I(1), "contended", I(1), NULL);
	char *c = render((struct sa_report_opts){ .format = SA_FMT_CSV });
	char *tc = block(c, "waits.top");
	if (getenv("DUMP"))
		fputs(tc, stderr);
	/* One row: 2 instances (the identity group's instances), 2 waits, 4000 ns. */
	CHECK_EQ(count(tc, "\n1,mutex,") + count(tc, "\n2,mutex,"), 1);
	CHECK(strstr(tc, ",2,,2,2,0,4000,") || strstr(tc, ",2,2,2,0,4000,"));
	free(tc);
	free(to);
	free(c);
	free(o);
}

/* The holder's release is stamped after its wake: the waiter's acquired
 * and even its own release can come first. The hold is still the
 * holder's, with its release site and hold time. */
static void blame_release_last(void)
{
	start(2);
	feed(SA_EV_mutex_requested, 1000, 2, "obj", I(0x1000), "caller", I(0x500), "owner", I(1),
	     "waiters", I(0), NULL);
	feed(SA_EV_mutex_acquired, 3000, 2, "obj", I(0x1000), "caller", I(0x500), "how", I(2),
	     "spins", I(0), "sleeps", I(1), "wait_ns", I(2000), NULL);
	feed(SA_EV_mutex_released, 3010, 2, "obj", I(0x1000), "caller", I(0x600), "waiters", I(0),
	     "woken", I(0), "hold_ns", I(10), NULL);
	feed(SA_EV_mutex_released, 3020, 1, "obj", I(0x1000), "caller", I(0x700), "waiters", I(1),
	     "woken", I(1), "hold_ns", I(2520), NULL);
	const struct sa_blame *b;
	unsigned n = sa_object_blame(m, 0, &b);
	CHECK(m->nobjs == 1);
	CHECK_EQ(n, 1);
	CHECK_EQ(m->threads[b[0].thread].vtid, 1);
	CHECK_EQ(b[0].site, 0x700);
	CHECK_EQ(b[0].holds, 1);
	CHECK_EQ(b[0].caused_ns, 2000);
	CHECK_EQ(b[0].hold_ns, 2520);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*fn)(void); } cases[] = {
		{ "readable_numbers", readable_numbers },
		{ "html_no_zero_bar", html_no_zero_bar },
		{ "timeline_busiest_second", timeline_busiest_second },
		{ "findings_incomplete", findings_incomplete },
		{ "findings_discarded", findings_discarded },
		{ "class_rows", class_rows },
		{ "blame_release_last", blame_release_last },
	};
	if (argc != 2) {
		fprintf(stderr, "usage: %s CASE\n", argv[0]);
		return 2;
	}
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!strcmp(argv[1], cases[i].name)) {
			m = sa_model_new();
			sa_model_keep_objects(m, 1);
			cases[i].fn();
			sa_model_free(m);
			return 0;
		}
	fprintf(stderr, "%s: no case '%s'\n", argv[0], argv[1]);
	return 2;
}
