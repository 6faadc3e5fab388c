/* synctrace-report --events: every event of the traces, one line each, in
 * time order and in babeltrace2's text form (its `sink.text.pretty`, less
 * the packet context), with batched records (format 3) written as the
 * events they stand for. For tools and tests that read events as text. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sa_dump.h"
#include "st_codes.h"

/* ---- an event's fields as babeltrace2 prints them ---------------------- */

struct buf {
	char *p;
	size_t n, cap;
	int oom;
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0)
			return;
		if (b->p && b->n + (size_t)k < b->cap) {
			b->n += (size_t)k;
			return;
		}
		size_t c = (b->cap ? b->cap : 256);
		while (c <= b->n + (size_t)k)
			c *= 2;
		char *q = realloc(b->p, c);
		if (!q) {
			b->oom = 1;
			return;
		}
		b->p = q;
		b->cap = c;
	}
}

static void field(struct buf *b, const bt_field *f)
{
	const bt_field_class *fc = bt_field_borrow_class_const(f);
	bt_field_class_type t = bt_field_get_class_type(f);
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_ENUMERATION)) {
		bt_field_class_enumeration_mapping_label_array labels;
		uint64_t n = 0;
		int sgn = bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_ENUMERATION);
		if ((sgn ? bt_field_enumeration_signed_get_mapping_labels(f, &labels, &n)
			 : bt_field_enumeration_unsigned_get_mapping_labels(f, &labels, &n)) !=
		    BT_FIELD_ENUMERATION_GET_MAPPING_LABELS_STATUS_OK)
			n = 0;
		put(b, "( ");
		if (n == 0)
			put(b, "<unknown>");
		else if (n == 1)
			put(b, "\"%s\"", labels[0]);
		else {
			put(b, "{ ");
			for (uint64_t i = 0; i < n; i++)
				put(b, "%s\"%s\"", i ? ", " : "", labels[i]);
			put(b, " }");
		}
		if (sgn)
			put(b, " : container = %" PRId64 " )", bt_field_integer_signed_get_value(f));
		else
			put(b, " : container = %" PRIu64 " )", bt_field_integer_unsigned_get_value(f));
	} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
		put(b, "%" PRId64, bt_field_integer_signed_get_value(f));
	} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)) {
		uint64_t v = bt_field_integer_unsigned_get_value(f);
		if (bt_field_class_integer_get_preferred_display_base(fc) ==
		    BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL)
			put(b, "0x%" PRIX64, v);
		else
			put(b, "%" PRIu64, v);
	} else if (t == BT_FIELD_CLASS_TYPE_STRING) {
		put(b, "\"%s\"", bt_field_string_get_value(f));
	} else if (t == BT_FIELD_CLASS_TYPE_STRUCTURE) {
		uint64_t n = bt_field_class_structure_get_member_count(fc);
		put(b, n ? "{ " : "{");
		for (uint64_t i = 0; i < n; i++) {
			put(b, "%s%s = ", i ? ", " : "",
			    bt_field_class_structure_member_get_name(
				    bt_field_class_structure_borrow_member_by_index_const(fc, i)));
			field(b, bt_field_structure_borrow_member_field_by_index_const(f, i));
		}
		put(b, " }");
	} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_ARRAY)) {
		uint64_t n = bt_field_array_get_length(f);
		put(b, "[");
		for (uint64_t i = 0; i < n; i++) {
			put(b, "%s[%" PRIu64 "] = ", i ? ", " : " ", i);
			field(b, bt_field_array_borrow_element_field_by_index_const(f, i));
		}
		put(b, " ]");
	} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_REAL)) {
		put(b, "%g", bt_field_real_double_precision_get_value(f));
	} else {
		put(b, "?");
	}
}

char *sa_dump_text(const bt_event *ev)
{
	struct buf b = { 0 };
	const bt_field *ctx = bt_event_borrow_common_context_field_const(ev);
	const bt_field *pl = bt_event_borrow_payload_field_const(ev);
	if (ctx) {
		field(&b, ctx);
		put(&b, ", ");
	}
	if (pl)
		field(&b, pl);
	else
		put(&b, "{ }");
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

/* ---- a batched record, from its event's definition ---------------------- */

/* How each field of our events prints: hexadecimal, signed or unsigned
 * decimal, or an enumeration (with its labels' function: st_codes.h). */
struct kind {
	char k;
	const char *(*label)(int);
};
#undef lttng_ust_field_integer_hex
#undef lttng_ust_field_integer
#undef st_field_enum
#undef lttng_ust_field_string
#undef lttng_ust_field_sequence
#undef lttng_ust_field_sequence_hex
#define lttng_ust_field_integer_hex(t, n, e) { 'x', 0 },
#define lttng_ust_field_integer(t, n, e) { (t)-1 > 0 ? 'u' : 'd', 0 },
#define st_field_enum(efam, ename, t, n) { 'e', st_##efam##_##ename##_name },
#define lttng_ust_field_string(n, e) { 's', 0 },
#define lttng_ust_field_sequence(t, n, e, lt, le) { '?', 0 },
#define lttng_ust_field_sequence_hex(t, n, e, lt, le) { '?', 0 },
static const struct kind kinds[SA_EV_COUNT][SA_MAX_FIELDS] = {
#define ST_EVENT(fam, name, args, flds) [SA_EV_##fam##_##name] = { SA__KINDS flds },
#define SA__KINDS(...) __VA_ARGS__
#include "st_all_events.h"
#undef ST_EVENT
};

static void record_text(FILE *out, const struct sa_event *e)
{
	fprintf(out, "{ vpid = %d, vtid = %d, procname = \"%s\" }, {", e->vpid, e->vtid,
		e->procname ? e->procname : "");
	for (unsigned i = 0; i < e->nfields && i < SA_MAX_FIELDS; i++) {
		const struct kind *k = &kinds[e->id][i];
		int64_t v = e->f[i].v;
		fprintf(out, "%s %s = ", i ? "," : "", e->f[i].name ? e->f[i].name : "?");
		if (k->k == 'x') {
			fprintf(out, "0x%" PRIX64, (uint64_t)v);
		} else if (k->k == 'e') {
			const char *l = k->label((int)v);
			fputs("( ", out);
			if (l)
				for (fputc('"', out); *l; l++)
					fputc(*l >= 'a' && *l <= 'z' ? *l - 'a' + 'A' : *l, out);
			fprintf(out, l ? "\" : container = %" PRId64 " )" : "<unknown> : container = %" PRId64 " )", v);
		} else if (k->k == 'u') {
			fprintf(out, "%" PRIu64, (uint64_t)v);
		} else {
			fprintf(out, "%" PRId64, v);
		}
	}
	fputs(e->nfields ? " }" : "}", out);
}

void sa_dump_print(FILE *out, const struct sa_event *e, const char *host, int64_t *last)
{
	long long s = e->ts / 1000000000, ns = e->ts % 1000000000;
	if (ns < 0)
		s--, ns += 1000000000;
	time_t t = (time_t)s;
	struct tm tm;
	localtime_r(&t, &tm);
	int64_t d = *last == INT64_MIN ? 0 : e->ts - *last;
	*last = e->ts;
	fprintf(out, "[%02d:%02d:%02d.%09lld] (%c%lld.%09lld) %s %s: ", tm.tm_hour, tm.tm_min,
		tm.tm_sec, ns, d < 0 ? '-' : '+', (long long)(d < 0 ? -d : d) / 1000000000,
		(long long)(d < 0 ? -d : d) % 1000000000, host && *host ? host : "-",
		e->name ? e->name : sa_event_name(e->id));
	if (e->text)
		fputs(e->text, out);
	else
		record_text(out, e);
	fputc('\n', out);
}
