/* A report table: named, typed columns and rows of cells, rendered as
 * aligned text, CSV or JSON (schema: analysis/README.md). Cells are
 * addressed by column id: each table declares an enum of its columns and
 * its cols[] with designated initializers ([C_WAITS] = { ... }), so a cell
 * and its column cannot drift apart. */
#ifndef SA_TABLE_H
#define SA_TABLE_H

#include <stdint.h>
#include <stdio.h>

enum sa_col_type {
	SA_COL_STR,   /* text */
	SA_COL_U64,   /* unsigned integer: text groups thousands (1,234,567) */
	SA_COL_I64,   /* signed integer (pids, tids: never grouped) */
	SA_COL_HEX,   /* address: "0x..." in every format (a JSON string) */
	SA_COL_PCT,   /* a ratio in [0, 1]: JSON number, text "12.3%" */
	SA_COL_F64,   /* a real number */
	SA_COL_HIST,  /* log2 histogram: JSON array of counts, text "b:n ..." */
	SA_COL_BOOL,
	SA_COL_NS,    /* a duration in ns: JSON/CSV exact integer, text "2.03 ms" */
};

/* Column flags. */
#define SA_COL_WIDE 1u /* text: shown only with --wide (always in JSON, CSV, HTML) */

struct sa_cell {
	int null; /* no value (JSON null, empty text) */
	union {
		const char *s; /* copied into the table */
		uint64_t u;
		int64_t i;
		double f;
		struct {
			uint64_t *v;
			unsigned n;
		} h;
	};
};

struct sa_col {
	const char *name; /* JSON key / CSV header: lower_snake_case */
	const char *head; /* text header */
	enum sa_col_type type;
	unsigned flags;   /* SA_COL_WIDE */
	unsigned max;     /* text without --wide: cut to this many characters (0: no cut) */
};

/* Table flags. */
#define SA_TAB_WIDE 1u /* text: the whole table only with --wide */
#define SA_TAB_LIST 2u /* text: a numbered list of column text_col, not columns */

struct sa_table {
	const char *name;  /* "contention.locks" */
	const char *title; /* text heading */
	const struct sa_col *cols;
	unsigned ncols;
	struct sa_cell *cells; /* nrows * ncols */
	unsigned nrows, caprows;
	char **notes;          /* lines printed under the table (JSON "notes") */
	unsigned nnotes;
	unsigned minor;        /* the JSON schema minor its content needs (0: 1.0) */
	unsigned flags;        /* SA_TAB_* */
	unsigned text_rows;    /* text without --wide: at most this many rows (0: all) */
	unsigned text_lines;   /* SA_TAB_LIST, text without --wide: its items whole within
				* this many lines, the first always (0: no limit) */
	unsigned text_col;     /* SA_TAB_LIST: the column printed */
	uint64_t text_hide;    /* text without --wide: columns (bit = column id < 64) left out */
	uint64_t text_show;    /* ... and SA_COL_WIDE columns shown all the same */
};

/* Sorting rows: an object's index and its key, largest key first (ties by
 * index, so the order is stable). */
struct sa_rank {
	uint32_t i;
	uint64_t k;
};
int sa_rank_desc(const void *a, const void *b);

#define SA_N(a) (sizeof(a) / sizeof((a)[0]))

void sa_table_init(struct sa_table *t, const char *name, const char *title,
		   const struct sa_col *cols, unsigned ncols);
/* A new row of null cells; returns the row's cells, NULL on out of memory. */
struct sa_cell *sa_table_row(struct sa_table *t);
/* A string cell (copied; set again, the old string is freed). */
void sa_cell_str(struct sa_cell *c, const char *s);
void sa_cell_hist(struct sa_cell *c, const uint64_t *v, unsigned n);
void sa_table_note(struct sa_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sa_table_free(struct sa_table *t);

enum sa_format { SA_FMT_TEXT, SA_FMT_JSON, SA_FMT_CSV, SA_FMT_HTML,
		 SA_FMT_SUMMARY, /* the mergeable summary (sa_summary.h) */
		 /* the exports (analysis/export, sa_export.h) */
		 SA_FMT_FOLDED, SA_FMT_PPROF, SA_FMT_CHROME };
/* A cell as text (the text renderer's form: units, grouped digits). */
void sa_cell_text(const struct sa_col *col, const struct sa_cell *x, char *buf, size_t n);
/* wide: every column, every row (else SA_COL_WIDE columns are left out,
 * strings cut to their column's max and rows to text_rows, a list's items
 * to text_lines). */
void sa_table_text(const struct sa_table *t, FILE *out, int wide);
void sa_table_csv(const struct sa_table *t, FILE *out);
void sa_table_json(const struct sa_table *t, FILE *out);
/* A JSON string literal. */
void sa_json_str(FILE *out, const char *s);

/* Readable numbers for text: a duration with its unit and 3 significant
 * digits ("2.03 ms", "812 µs", "45.0 ns", "0"); a count with its
 * thousands grouped ("1,234,567"). In buf; returns buf. */
char *sa_fmt_ns(char *buf, size_t n, double ns);
char *sa_fmt_count(char *buf, size_t n, uint64_t v);
/* Display width of UTF-8 text (code points, not bytes). */
size_t sa_text_width(const char *s);

#endif
