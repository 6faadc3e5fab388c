/* SYNCTRACE_THRESHOLD: the probes (tracepoints/batch.c) hold a wait's
 * records until it ends, and hand those of a short wait here, one
 * by one, for the summary level's aggregators (src/trace/summary.h)
 * instead of recording them. */
#include <stdint.h>

#include "internal/trace.h"
#include "trace/summary.h"

/* A batched word back into the field's type (an LP64 pointer or integer:
 * tracepoints/st_probes.h's st_word, reversed). */
#define ST_UNW(...) ST_CAT(ST_UNW_, ST_NARGS(__VA_ARGS__))(0, __VA_ARGS__)
#define ST_UNW_2(i, t, n) (t)(a[i])
#define ST_UNW_4(i, t, n, ...) (t)(a[i]), ST_UNW_2(i + 1, __VA_ARGS__)
#define ST_UNW_6(i, t, n, ...) (t)(a[i]), ST_UNW_4(i + 1, __VA_ARGS__)
#define ST_UNW_8(i, t, n, ...) (t)(a[i]), ST_UNW_6(i + 1, __VA_ARGS__)
#define ST_UNW_10(i, t, n, ...) (t)(a[i]), ST_UNW_8(i + 1, __VA_ARGS__)
#define ST_UNW_12(i, t, n, ...) (t)(a[i]), ST_UNW_10(i + 1, __VA_ARGS__)
#define ST_UNW_14(i, t, n, ...) (t)(a[i]), ST_UNW_12(i + 1, __VA_ARGS__)
#define ST_UNW_16(i, t, n, ...) (t)(a[i]), ST_UNW_14(i + 1, __VA_ARGS__)
#define ST_UNW_18(i, t, n, ...) (t)(a[i]), ST_UNW_16(i + 1, __VA_ARGS__)
#define ST_UNW_20(i, t, n, ...) (t)(a[i]), ST_UNW_18(i + 1, __VA_ARGS__)

/* A case for each event with an aggregator (ST_SUMMARY_TAKES 1). */
#define ST_SUM_CASE_0(fam, name, args)
#define ST_SUM_CASE_2(fam, name, args)
#define ST_SUM_CASE_3(fam, name, args)
#define ST_SUM_CASE_1(fam, name, args)                   \
	case ST_EVI_##fam##_##name:                      \
		if (a)                                   \
			st_summary_##fam##_##name(ST_UNW args); \
		return 1;

ST_EXPORT int synctrace_summarize(unsigned evi, const uint64_t *a)
{
	switch (evi) {
#define ST_EVENT(fam, name, args, fields) ST_CAT(ST_SUM_CASE_, ST_SUMMARY_TAKES(fam, name))(fam, name, args)
#include "st_all_events.h"
#undef ST_EVENT
	default:
		return 0;
	}
}
