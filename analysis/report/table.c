#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sa_table.h"

void sa_table_init(struct sa_table *t, const char *name, const char *title,
		   const struct sa_col *cols, unsigned ncols)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->title = title;
	t->cols = cols;
	t->ncols = ncols;
}

struct sa_cell *sa_table_row(struct sa_table *t)
{
	if (t->nrows == t->caprows) {
		unsigned c = t->caprows ? t->caprows * 2 : 16;
		struct sa_cell *p = realloc(t->cells, (size_t)c * t->ncols * sizeof(*p));
		if (!p)
			return NULL;
		t->cells = p;
		t->caprows = c;
	}
	struct sa_cell *r = &t->cells[(size_t)t->nrows++ * t->ncols];
	for (unsigned i = 0; i < t->ncols; i++)
		memset(&r[i], 0, sizeof(r[i])), r[i].null = 1;
	return r;
}

void sa_cell_str(struct sa_cell *c, const char *s)
{
	if (!c->null)
		free((void *)c->s); /* set again */
	c->s = strdup(s ? s : "");
	c->null = c->s == NULL;
}

void sa_cell_hist(struct sa_cell *c, const uint64_t *v, unsigned n)
{
	c->h.n = 0;
	c->h.v = n ? malloc(n * sizeof(uint64_t)) : NULL;
	if (n && !c->h.v)
		return;
	if (n)
		memcpy(c->h.v, v, n * sizeof(uint64_t));
	c->h.n = n;
	c->null = 0;
}

void sa_table_note(struct sa_table *t, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	char **p = realloc(t->notes, (t->nnotes + 1) * sizeof(char *));
	if (!p)
		return;
	t->notes = p;
	if ((p[t->nnotes] = strdup(buf)))
		t->nnotes++;
}

void sa_table_free(struct sa_table *t)
{
	for (unsigned r = 0; r < t->nrows; r++)
		for (unsigned c = 0; c < t->ncols; c++) {
			struct sa_cell *x = &t->cells[(size_t)r * t->ncols + c];
			if (x->null)
				continue;
			if (t->cols[c].type == SA_COL_STR)
				free((void *)x->s);
			else if (t->cols[c].type == SA_COL_HIST)
				free(x->h.v);
		}
	free(t->cells);
	for (unsigned i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->notes);
	memset(t, 0, sizeof(*t));
}

char *sa_fmt_ns(char *buf, size_t n, double ns)
{
	static const char *const unit[] = { "ns", "\xc2\xb5s", "ms", "s" };
	int u = 0;
	if (ns <= 0) {
		snprintf(buf, n, "0");
		return buf;
	}
	while (u < 3 && ns >= 999.5) {
		ns /= 1000.0;
		u++;
	}
	/* 3 significant digits: 45.0, 4.50, 812; seconds beyond 999 as they are. */
	snprintf(buf, n, ns >= 99.95 ? "%.0f %s" : ns >= 9.995 ? "%.1f %s" : "%.2f %s", ns,
		 unit[u]);
	return buf;
}

char *sa_fmt_count(char *buf, size_t n, uint64_t v)
{
	char d[32];
	int len = snprintf(d, sizeof(d), "%llu", (unsigned long long)v);
	size_t o = 0;
	for (int i = 0; i < len && o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = d[i];
	}
	buf[o < n ? o : n - 1] = 0;
	return buf;
}

size_t sa_text_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* Text of one cell (not JSON). */
static void cell_text(const struct sa_col *col, const struct sa_cell *x, char *buf, size_t n)
{
	if (x->null) {
		snprintf(buf, n, "%s", col->type == SA_COL_STR ? "" : "-");
		return;
	}
	switch (col->type) {
	case SA_COL_STR: snprintf(buf, n, "%s", x->s); break;
	case SA_COL_U64: sa_fmt_count(buf, n, x->u); break;
	case SA_COL_NS: sa_fmt_ns(buf, n, (double)x->u); break;
	case SA_COL_I64: snprintf(buf, n, "%lld", (long long)x->i); break;
	case SA_COL_HEX: snprintf(buf, n, "0x%llx", (unsigned long long)x->u); break;
	case SA_COL_PCT: snprintf(buf, n, "%.1f%%", x->f * 100.0); break;
	case SA_COL_F64: /* 3 decimals; 3 significant digits below 1 (0.0004 stays visible) */
		snprintf(buf, n, x->f == 0 || x->f >= 1 || x->f <= -1 ? "%.3f" : "%.3g", x->f);
		break;
	case SA_COL_BOOL: snprintf(buf, n, "%s", x->u ? "yes" : "no"); break;
	case SA_COL_HIST: {
		size_t off = 0;
		buf[0] = 0;
		for (unsigned i = 0; i < x->h.n && off + 1 < n; i++) {
			if (!x->h.v[i])
				continue;
			int w = snprintf(buf + off, n - off, "%s%u:%llu", off ? " " : "", i,
					 (unsigned long long)x->h.v[i]);
			if (w < 0 || (size_t)w >= n - off)
				break;
			off += (size_t)w;
		}
		break;
	}
	}
}

void sa_cell_text(const struct sa_col *col, const struct sa_cell *x, char *buf, size_t n)
{
	cell_text(col, x, buf, n);
}

#define CELL_MAX 1024

/* The cell as the text renderer shows it: cut to the column's max
 * (ending in "…") unless wide. */
static void text_of(const struct sa_col *col, const struct sa_cell *x, int wide, char *buf,
		    size_t n)
{
	cell_text(col, x, buf, n);
	if (wide || !col->max || sa_text_width(buf) <= col->max)
		return;
	size_t w = 0, i = 0;
	for (; buf[i]; i++) {
		if (((unsigned char)buf[i] & 0xc0) != 0x80 && ++w == col->max)
			break;
	}
	if (i + 4 <= n)
		memcpy(buf + i, "\xe2\x80\xa6", 4); /* … */
}

static void pad(FILE *out, const char *s, size_t w, int left)
{
	size_t l = sa_text_width(s);
	if (!left)
		for (; l < w; l++)
			fputc(' ', out);
	fputs(s, out);
	if (left)
		for (; l < w; l++)
			fputc(' ', out);
}

/* prefix ("%2u. ", "note: ") then s wrapped at spaces to fit 120
 * columns, the continuation lines indented under the text; out NULL:
 * only counted. Returns the lines it takes. */
static unsigned wrap(FILE *out, const char *prefix, const char *s)
{
	enum { WIDTH = 118 };
	const size_t INDENT = sa_text_width(prefix);
	unsigned lines = 1;
	if (out)
		fputs(prefix, out);
	size_t col = INDENT;
	while (*s) {
		const char *e = s;
		while (*e && *e != ' ')
			e++;
		char word[CELL_MAX];
		size_t len = (size_t)(e - s) < sizeof(word) - 1 ? (size_t)(e - s) : sizeof(word) - 1;
		memcpy(word, s, len);
		word[len] = 0;
		size_t w = sa_text_width(word);
		if (col > INDENT && col + 1 + w > WIDTH) {
			if (out)
				fprintf(out, "\n%*s", (int)INDENT, "");
			col = INDENT;
			lines++;
		} else if (col > INDENT) {
			if (out)
				fputc(' ', out);
			col++;
		}
		if (out)
			fputs(word, out);
		col += w;
		s = *e ? e + 1 : e;
	}
	if (out)
		fputc('\n', out);
	return lines;
}

static int shown(const struct sa_table *t, unsigned c, int wide)
{
	if (wide || (c < 64 && (t->text_show >> c & 1)))
		return 1;
	return !(t->cols[c].flags & SA_COL_WIDE) && !(c < 64 && (t->text_hide >> c & 1));
}

void sa_table_text(const struct sa_table *t, FILE *out, int wide)
{
	size_t *w = calloc(t->ncols ? t->ncols : 1, sizeof(size_t));
	char buf[CELL_MAX];
	unsigned nrows = t->nrows, c;
	if (!w)
		return;
	if (!wide && t->text_rows && nrows > t->text_rows)
		nrows = t->text_rows;
	fprintf(out, "\n%s\n", t->title);
	if (t->flags & SA_TAB_LIST) {
		/* (items whole within text_lines, one line kept for the count
		 * of those left out: the first item always) */
		unsigned used = 0;
		for (unsigned r = 0; r < nrows; r++) {
			cell_text(&t->cols[t->text_col], &t->cells[(size_t)r * t->ncols + t->text_col],
				  buf, sizeof(buf));
			char num[16];
			snprintf(num, sizeof(num), "%2u. ", r + 1);
			if (!wide && t->text_lines && r) {
				unsigned k = wrap(0, num, buf);
				if (used + k + (r + 1 < t->nrows) > t->text_lines) {
					nrows = r;
					break;
				}
			}
			used += wrap(out, num, buf);
		}
		goto tail;
	}
	for (c = 0; c < t->ncols; c++)
		w[c] = sa_text_width(t->cols[c].head);
	for (unsigned r = 0; r < nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			text_of(&t->cols[c], &t->cells[(size_t)r * t->ncols + c], wide, buf, sizeof(buf));
			size_t l = sa_text_width(buf);
			if (l > w[c])
				w[c] = l;
		}
	unsigned last = 0;
	for (c = 0; c < t->ncols; c++)
		if (shown(t, c, wide))
			last = c;
	int first = 1;
	for (c = 0; c < t->ncols; c++) {
		if (!shown(t, c, wide))
			continue;
		int left = t->cols[c].type == SA_COL_STR || t->cols[c].type == SA_COL_HIST;
		fputs(first ? "" : " ", out);
		pad(out, t->cols[c].head, c == last && left ? 0 : w[c], left);
		first = 0;
	}
	fputc('\n', out);
	for (unsigned r = 0; r < nrows; r++) {
		first = 1;
		for (c = 0; c < t->ncols; c++) {
			if (!shown(t, c, wide))
				continue;
			int left = t->cols[c].type == SA_COL_STR || t->cols[c].type == SA_COL_HIST;
			text_of(&t->cols[c], &t->cells[(size_t)r * t->ncols + c], wide, buf, sizeof(buf));
			fputs(first ? "" : " ", out);
			pad(out, buf, c == last && left ? 0 : w[c], left);
			first = 0;
		}
		fputc('\n', out);
	}
tail:
	if (!t->nrows)
		fprintf(out, "(none)\n");
	else if (nrows < t->nrows)
		fprintf(out, "(%u more: --wide, or --format json|csv)\n", t->nrows - nrows);
	for (unsigned i = 0; i < t->nnotes; i++)
		wrap(out, "note: ", t->notes[i]);
	free(w);
}

static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void sa_table_csv(const struct sa_table *t, FILE *out)
{
	char buf[CELL_MAX];
	fprintf(out, "# %s\n", t->name);
	for (unsigned c = 0; c < t->ncols; c++) {
		if (c)
			fputc(',', out);
		csv_field(out, t->cols[c].name);
	}
	fputc('\n', out);
	for (unsigned r = 0; r < t->nrows; r++) {
		for (unsigned c = 0; c < t->ncols; c++) {
			const struct sa_cell *x = &t->cells[(size_t)r * t->ncols + c];
			if (c)
				fputc(',', out);
			if (x->null)
				continue;
			if (t->cols[c].type == SA_COL_PCT)
				snprintf(buf, sizeof(buf), "%.6f", x->f);
			else if (t->cols[c].type == SA_COL_F64)
				snprintf(buf, sizeof(buf), "%.6g", x->f); /* as JSON */
			else if (t->cols[c].type == SA_COL_BOOL)
				snprintf(buf, sizeof(buf), "%s", x->u ? "true" : "false");
			else if (t->cols[c].type == SA_COL_U64 || t->cols[c].type == SA_COL_NS)
				snprintf(buf, sizeof(buf), "%llu", (unsigned long long)x->u);
			else
				cell_text(&t->cols[c], x, buf, sizeof(buf));
			csv_field(out, buf);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}

/* Length of the valid UTF-8 sequence at p, or 0. */
static int utf8_len(const unsigned char *p)
{
	int n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
	if (p[0] >= 0xf5)
		return 0;
	for (int i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* A JSON string: escapes, and U+FFFD for bytes that are not UTF-8 (a
 * procname is whatever bytes the program chose). */
void sa_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else if (*p < 0x80)
			fputc(*p, out);
		else {
			int n = utf8_len(p);
			if (n) {
				fwrite(p, 1, (size_t)n, out);
				p += n - 1;
			} else {
				fputs("\\ufffd", out);
			}
		}
	}
	fputc('"', out);
}

static void json_cell(FILE *out, const struct sa_col *col, const struct sa_cell *x)
{
	if (x->null) {
		fputs("null", out);
		return;
	}
	switch (col->type) {
	case SA_COL_STR: sa_json_str(out, x->s); break;
	case SA_COL_U64:
	case SA_COL_NS: fprintf(out, "%llu", (unsigned long long)x->u); break;
	case SA_COL_I64: fprintf(out, "%lld", (long long)x->i); break;
	case SA_COL_HEX: fprintf(out, "\"0x%llx\"", (unsigned long long)x->u); break;
	case SA_COL_PCT:
	case SA_COL_F64: fprintf(out, "%.6g", x->f); break;
	case SA_COL_BOOL: fputs(x->u ? "true" : "false", out); break;
	case SA_COL_HIST:
		fputc('[', out);
		for (unsigned i = 0; i < x->h.n; i++)
			fprintf(out, i ? ",%llu" : "%llu", (unsigned long long)x->h.v[i]);
		fputc(']', out);
		break;
	}
}

/* One table: {"name":..., "title":..., "columns":[...], "rows":[{...}, ...],
 * "notes":[...]}, one row per line. */
void sa_table_json(const struct sa_table *t, FILE *out)
{
	fputs("{\"name\": ", out);
	sa_json_str(out, t->name);
	fputs(", \"title\": ", out);
	sa_json_str(out, t->title);
	fputs(",\n   \"columns\": [", out);
	for (unsigned c = 0; c < t->ncols; c++) {
		fputs(c ? ", " : "", out);
		sa_json_str(out, t->cols[c].name);
	}
	fputs("],\n   \"rows\": [", out);
	for (unsigned r = 0; r < t->nrows; r++) {
		fputs(r ? ",\n    {" : "\n    {", out);
		for (unsigned c = 0; c < t->ncols; c++) {
			fputs(c ? ", " : "", out);
			sa_json_str(out, t->cols[c].name);
			fputs(": ", out);
			json_cell(out, &t->cols[c], &t->cells[(size_t)r * t->ncols + c]);
		}
		fputc('}', out);
	}
	fputs("],\n   \"notes\": [", out);
	for (unsigned i = 0; i < t->nnotes; i++) {
		fputs(i ? ", " : "", out);
		sa_json_str(out, t->notes[i]);
	}
	fputs("]}", out);
}

int sa_rank_desc(const void *a, const void *b)
{
	const struct sa_rank *x = a, *y = b;
	if (x->k != y->k)
		return x->k < y->k ? 1 : -1;
	return x->i < y->i ? -1 : x->i > y->i;
}
