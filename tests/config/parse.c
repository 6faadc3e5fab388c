/* The SYNCTRACE_* parsers (src/setting/setting.c, compiled in), one
 * behaviour per process: test_config_parse BEHAVIOUR [TABLE]. */
#include "check.h"

#include <stdio.h>
#include <string.h>

#include "setting/setting.h"
#include "st_codes.h"

/* Every line of the table (spin-values.txt) parses as it says. */
static void spin_table(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256], verdict[16], value[128], mode[16], limit[32];
	int lines = 0;

	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		int n = sscanf(line, "%15s %127s %15s %31s", verdict, value, mode, limit);
		int m = -7, l = -9, r = st_parse_spin(value, &m, &l);
		if (!strcmp(verdict, "accept")) {
			CHECK_EQ(n, 4);
			if (r != 0)
				fprintf(stderr, "'%s' rejected\n", value);
			CHECK_EQ(r, 0);
			CHECK_EQ(m, atoi(mode));
			CHECK_EQ(l, strcmp(limit, "-") ? atoi(limit) : -9);
		} else {
			CHECK_EQ(n, 2);
			if (r != -1)
				fprintf(stderr, "'%s' accepted\n", value);
			CHECK_EQ(r, -1);
			CHECK_EQ(m, -7); /* nothing stored */
			CHECK_EQ(l, -9);
		}
		lines++;
	}
	fclose(f);
	CHECK(lines >= 20);
	printf("spin_table: %d values\n", lines);
}

static void sem_max_values(void)
{
	int m = -7, l = -9;
	CHECK_EQ(st_parse_sem_max("off", &m, &l), 0);
	CHECK_EQ(m, ST_META_SEM_MAX_OFF);
	CHECK_EQ(l, -1);
	CHECK_EQ(st_parse_sem_max("init", &m, &l), 0);
	CHECK_EQ(m, ST_META_SEM_MAX_INIT);
	CHECK_EQ(l, -1);
	CHECK_EQ(st_parse_sem_max("init:3", &m, &l), 0);
	CHECK_EQ(m, ST_META_SEM_MAX_INIT | ST_META_SEM_MAX_FIXED);
	CHECK_EQ(l, 3);
	CHECK_EQ(st_parse_sem_max("2147483647", &m, &l), 0);
	CHECK_EQ(m, ST_META_SEM_MAX_FIXED);
	CHECK_EQ(l, 2147483647);
	m = -7, l = -9;
	CHECK_EQ(st_parse_sem_max("2147483648", &m, &l), -1);
	CHECK_EQ(st_parse_sem_max("init:", &m, &l), -1);
	CHECK_EQ(st_parse_sem_max("init:-1", &m, &l), -1);
	CHECK_EQ(st_parse_sem_max("-1", &m, &l), -1);
	CHECK_EQ(st_parse_sem_max("on", &m, &l), -1);
	CHECK_EQ(m, -7);
	CHECK_EQ(l, -9);
}

static void level_values(void)
{
	int v = -7;
	CHECK_EQ(st_parse_level("contention", &v), 0);
	CHECK_EQ(v, ST_META_LEVEL_CONTENTION);
	CHECK_EQ(st_parse_level("full", &v), 0);
	CHECK_EQ(v, ST_META_LEVEL_FULL);
	CHECK_EQ(st_parse_level("summary", &v), 0);
	CHECK_EQ(v, ST_META_LEVEL_SUMMARY);
	v = -7;
	CHECK_EQ(st_parse_level("FULL", &v), -1);
	CHECK_EQ(st_parse_level("2", &v), -1);
	CHECK_EQ(st_parse_level("", &v), -1);
	CHECK_EQ(st_parse_level("ful", &v), -1);
	CHECK_EQ(v, -7);
}

/* SYNCTRACE_THRESHOLD / record --threshold. */
static void threshold_values(void)
{
	long long v = -7;
	CHECK_EQ(st_parse_duration_ns("250ns", &v), 0);
	CHECK_EQ(v, 250);
	CHECK_EQ(st_parse_duration_ns("100us", &v), 0);
	CHECK_EQ(v, 100000);
	CHECK_EQ(st_parse_duration_ns("2ms", &v), 0);
	CHECK_EQ(v, 2000000);
	CHECK_EQ(st_parse_duration_ns("1s", &v), 0);
	CHECK_EQ(v, 1000000000);
	CHECK_EQ(st_parse_duration_ns("0", &v), 0);
	CHECK_EQ(v, 0);
	v = -7;
	CHECK_EQ(st_parse_duration_ns("5", &v), -1); /* a unit is needed but for 0 */
	CHECK_EQ(st_parse_duration_ns("ms", &v), -1);
	CHECK_EQ(st_parse_duration_ns("1.5ms", &v), -1);
	CHECK_EQ(st_parse_duration_ns("-1ms", &v), -1);
	CHECK_EQ(st_parse_duration_ns("", &v), -1);
	CHECK_EQ(st_parse_duration_ns("99999999999999999s", &v), -1);
	CHECK_EQ(v, -7);
}

/* SYNCTRACE_SUMMARY_BUCKETS. */
static void summary_buckets_values(void)
{
	int n = -7;
	CHECK_EQ(st_parse_summary_buckets("1", 64, &n), 0);
	CHECK_EQ(n, 1);
	CHECK_EQ(st_parse_summary_buckets("64", 64, &n), 0);
	CHECK_EQ(n, 64);
	n = -7;
	CHECK_EQ(st_parse_summary_buckets("0", 64, &n), -1);
	CHECK_EQ(st_parse_summary_buckets("65", 64, &n), -1);
	CHECK_EQ(st_parse_summary_buckets("+5", 64, &n), -1);
	CHECK_EQ(st_parse_summary_buckets(" 5", 64, &n), -1);
	CHECK_EQ(st_parse_summary_buckets("5x", 64, &n), -1);
	CHECK_EQ(st_parse_summary_buckets("", 64, &n), -1);
	CHECK_EQ(n, -7);
}

static void clock_values(void)
{
	int v = -7;
	CHECK_EQ(st_parse_clock("auto", &v), 0);
	CHECK_EQ(v, ST_CLOCK_TSC_AUTO);
	CHECK_EQ(st_parse_clock("monotonic", &v), 0);
	CHECK_EQ(v, ST_CLOCK_TSC_NEVER);
	CHECK_EQ(st_parse_clock("counter", &v), 0);
	CHECK_EQ(v, ST_CLOCK_TSC_FORCED);
	v = -7;
	CHECK_EQ(st_parse_clock("counters", &v), -1);
	CHECK_EQ(st_parse_clock("tsc", &v), -1);
	CHECK_EQ(st_parse_clock("Monotonic", &v), -1);
	CHECK_EQ(st_parse_clock("auto ", &v), -1);
	CHECK_EQ(st_parse_clock("", &v), -1);
	CHECK_EQ(v, -7);
}

int main(int argc, char **argv)
{
	const char *b = argc > 1 ? argv[1] : "";
	if (!strcmp(b, "spin_table") && argc > 2)
		spin_table(argv[2]);
	else if (!strcmp(b, "sem_max_values"))
		sem_max_values();
	else if (!strcmp(b, "level_values"))
		level_values();
	else if (!strcmp(b, "threshold_values"))
		threshold_values();
	else if (!strcmp(b, "summary_buckets_values"))
		summary_buckets_values();
	else if (!strcmp(b, "clock_values"))
		clock_values();
	else {
		fprintf(stderr, "usage: %s spin_table TABLE | sem_max_values | level_values | threshold_values | summary_buckets_values | clock_values\n", argv[0]);
		return 2;
	}
	return 0;
}
