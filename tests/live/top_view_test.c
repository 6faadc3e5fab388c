/* The snapshots of `synctrace top` (analysis/report/top_view.c) over a
 * model fed synthetic events between snapshots, as the live reader feeds
 * it: exact interval and since-start numbers, an empty interval said as
 * such, and the snapshot's own memory bounded by the classes whatever the
 * objects (those the model folds into their class). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sa_feed.h"
#include "sa_report_util.h"
#include "sa_top_view.h"

static struct sa_model *m;
#define feed(...) sa_test_feed(m, __VA_ARGS__)

/* One contended acquisition of addr (pid 1, thread 2 waits wait_ns for
 * thread 1's unlock) at time ts. */
static void contended(int64_t ts, uint64_t addr, int64_t wait_ns)
{
	feed(SA_EV_mutex_requested, ts, 1, 2, "obj", I(addr), "caller", I(0x500), "owner", I(1),
	     "waiters", I(0), NULL);
	feed(SA_EV_mutex_released, ts + wait_ns, 1, 1, "obj", I(addr), "caller", I(0x600),
	     "waiters", I(1), "woken", I(1), "acquisitions", I(0), NULL);
	feed(SA_EV_mutex_acquired, ts + wait_ns, 1, 2, "obj", I(addr), "caller", I(0x500), "how",
	     I(2), "wait_ns", I(wait_ns), "acquisitions", I(0), "contended", I(1), NULL);
}

/* A snapshot as text (free it). */
static char *snap(struct sa_top *t, int final)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sa_top_status s = { .elapsed_s = 1, .interval_s = 1, .behind_s = -1,
				   .final = final, .source = "test" };
	CHECK(f);
	CHECK_EQ(sa_top_snapshot(t, m, &s, f), 0);
	fclose(f);
	return buf;
}

/* The lines of table `title` in a snapshot, up to its blank line. */
static char *table(const char *text, const char *title)
{
	const char *p = strstr(text, title);
	CHECK(p);
	const char *e = strstr(p, "\n\n");
	return strndup(p, e ? (size_t)(e - p) : strlen(p));
}

static void expect_row(const char *text, const char *title, const char *row)
{
	char *t = table(text, title);
	if (!strstr(t, row)) {
		fprintf(stderr, "no row '%s' in:\n%s\n", row, t);
		exit(1);
	}
	free(t);
}

#define A 0x1000
#define B 0x2000

static void interval_deltas(void)
{
	struct sa_top t = { 0 };
	feed(SA_EV_meta_start, 1, 1, 1, "format_major", I(1), "format_minor", I(0), "level", I(1),
	     "spin_mode", I(1), "spin_limit", I(100), NULL);
	feed(SA_EV_mutex_init, 2, 1, 1, "obj", I(A), "caller", I(0x400), "kind", I(0), NULL);
	feed(SA_EV_mutex_init, 3, 1, 1, "obj", I(B), "caller", I(0x410), "kind", I(0), NULL);
	contended(100, A, 1000);
	contended(3000, A, 1000);
	char *s1 = snap(&t, 0);
	/* rank kind object site waits timeouts total share mean */
	expect_row(s1, "Waits of the last 1.0 s", "1 mutex      0x1000          2        0 2.00 µs 100.0% 1.00 µs");
	expect_row(s1, "Where threads wait", "1 mutex      0x1000          2        0 2.00 µs 100.0% 1.00 µs 1.00 µs");

	/* Then A waits once more (1 µs) and B once, longer (9 µs): the
	 * interval has one wait of each, B first; since the start A has 3. */
	contended(5000, A, 1000);
	contended(7000, B, 9000);
	char *s2 = snap(&t, 0);
	expect_row(s2, "Waits of the last 1.0 s", "1 mutex      0x2000          1        0 9.00 µs 90.0% 9.00 µs");
	expect_row(s2, "Waits of the last 1.0 s", "2 mutex      0x1000          1        0 1.00 µs 10.0% 1.00 µs");
	expect_row(s2, "Where threads wait", "1 mutex      0x2000          1        0 9.00 µs 75.0% 9.00 µs 9.00 µs");
	expect_row(s2, "Where threads wait", "2 mutex      0x1000          3        0 3.00 µs 25.0% 1.00 µs 1.00 µs");
	CHECK(strstr(s2, "\nFindings\n"));
	CHECK(!strncmp(s2, "synctrace top: test, 15 events (6/s), 1 process, 2 threads", 58));

	/* Nothing new: an empty interval, the totals unchanged. */
	char *s3 = snap(&t, 1);
	CHECK(!strncmp(s3, "synctrace top (final): test, ", 29));
	expect_row(s3, "Waits of the last 1.0 s", "note: no waiting in this interval");
	expect_row(s3, "Where threads wait", "2 mutex      0x1000          3        0 3.00 µs 25.0% 1.00 µs 1.00 µs");
	CHECK_EQ(t.snapshots, 3);
	CHECK_EQ(t.nprev, 2);
	free(s1);
	free(s2);
	free(s3);
	sa_top_free(&t);
}

/* 20,000 short-lived mutexes of one init site (one class: the model
 * folds each into it when destroyed), a snapshot every 1,000: the
 * snapshot keeps one (class, kind), and its interval counts are exact. */
static void memory_by_class(void)
{
	struct sa_top t = { 0 };
	feed(SA_EV_meta_start, 1, 1, 1, "format_major", I(1), "format_minor", I(0), "level", I(1),
	     "spin_mode", I(1), "spin_limit", I(100), NULL);
	for (int i = 0; i < 20000; i++) {
		int64_t ts = 1000 + (int64_t)i * 1000;
		uint64_t addr = 0x100000 + (uint64_t)i * 64;
		feed(SA_EV_mutex_init, ts, 1, 1, "obj", I(addr), "caller", I(0x400), "kind", I(0), NULL);
		contended(ts + 10, addr, 100);
		feed(SA_EV_mutex_destroy, ts + 500, 1, 2, "obj", I(addr), "caller", I(0x400),
		     "result", I(0), "acquisitions", I(1), "contended", I(1), NULL);
		if (i % 1000 == 999) {
			char *s = snap(&t, 0);
			/* the class is named by its first object */
			expect_row(s, "Waits of the last 1.0 s",
				   "1 mutex      0x100000      1,000        0 100 µs 100.0% 100 ns");
			CHECK(!strstr(s, "\n2 mutex")); /* one row: the class */
			free(s);
		}
	}
	char *s = snap(&t, 1);
	expect_row(s, "Where threads wait", "1 mutex      0x100000      20,000        0 2.00 ms 100.0% 100 ns 100 ns");
	free(s);
	CHECK_EQ(t.snapshots, 21);
	CHECK_EQ(t.nprev, 1);
	sa_top_free(&t);
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "interval_deltas", interval_deltas },
	{ "memory_by_class", memory_by_class },
};

int main(int argc, char **argv)
{
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (argc > 1 && strcmp(argv[1], cases[i].name))
			continue;
		CHECK((m = sa_model_new()));
		cases[i].fn();
		sa_model_free(m);
	}
	return 0;
}
