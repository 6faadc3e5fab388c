/* The SYNCTRACE_* value parsers (setting.h). Names come from the
 * generated code tables (st_codes.h), so a mode is spelt as the trace and
 * the reports spell it. */
#include "setting/setting.h"

#include <limits.h>
#include <string.h>

#include "st_codes.h"

/* [0-9]+ within INT_MAX, the whole of s[0..n). */
static int parse_count(const char *s, size_t n, int *out)
{
	long long v = 0;

	if (n == 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
		if (v > INT_MAX)
			return -1;
	}
	*out = (int)v;
	return 0;
}

/* The code whose name(v) is s[0..n), or -1. */
static int code_of(const char *s, size_t n, const char *(*name)(int), int ncodes)
{
	for (int v = 0; v < ncodes; v++) {
		const char *c = name(v);
		if (c && strlen(c) == n && !strncmp(s, c, n))
			return v;
	}
	return -1;
}

int st_parse_spin(const char *s, int *mode, int *limit)
{
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	int m = code_of(s, len, st_spin_mode_name, ST_SPIN_MODE_N), n;

	if (m >= 0) {
		if (colon) {
			if (parse_count(colon + 1, strlen(colon + 1), &n))
				return -1;
			*limit = n;
		}
		*mode = m;
		return 0;
	}
	if (colon || parse_count(s, len, &n))
		return -1;
	*mode = n ? ST_SPIN_MODE_BAIL : ST_SPIN_MODE_NONE;
	*limit = n;
	return 0;
}

int st_parse_sem_max(const char *s, int *mode, int *limit)
{
	int n;

	if (!strcmp(s, "off")) {
		*mode = ST_META_SEM_MAX_OFF, *limit = -1;
		return 0;
	}
	if (!strcmp(s, "init")) {
		*mode = ST_META_SEM_MAX_INIT, *limit = -1;
		return 0;
	}
	if (!strncmp(s, "init:", 5) && parse_count(s + 5, strlen(s + 5), &n) == 0) {
		*mode = ST_META_SEM_MAX_INIT | ST_META_SEM_MAX_FIXED, *limit = n;
		return 0;
	}
	if (parse_count(s, strlen(s), &n) == 0) {
		*mode = ST_META_SEM_MAX_FIXED, *limit = n;
		return 0;
	}
	return -1;
}

int st_parse_level(const char *s, int *level)
{
	int l = code_of(s, strlen(s), st_meta_level_name, ST_META_LEVEL_N);

	if (l < 0)
		return -1;
	*level = l;
	return 0;
}

int st_parse_summary_buckets(const char *s, int max, int *n)
{
	int v;

	if (parse_count(s, strlen(s), &v) || v < 1 || v > max)
		return -1;
	*n = v;
	return 0;
}

int st_parse_clock(const char *s, int *tsc_allowed)
{
	if (!strcmp(s, "auto"))
		*tsc_allowed = ST_CLOCK_TSC_AUTO;
	else if (!strcmp(s, "monotonic"))
		*tsc_allowed = ST_CLOCK_TSC_NEVER;
	else if (!strcmp(s, "counter"))
		*tsc_allowed = ST_CLOCK_TSC_FORCED;
	else
		return -1;
	return 0;
}

int st_parse_duration_ns(const char *s, long long *ns)
{
	static const struct {
		const char *unit;
		long long scale;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 } };
	long long v = 0;
	const char *p = s;

	if (!*p)
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (LLONG_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*p - '0');
	}
	if (p == s)
		return -1;
	if (!*p && v == 0) {
		*ns = 0;
		return 0;
	}
	for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(p, units[i].unit)) {
			if (v > LLONG_MAX / units[i].scale)
				return -1;
			*ns = v * units[i].scale;
			return 0;
		}
	return -1;
}
