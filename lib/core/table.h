/*
 * Tables of typed columns, and the one writer of the toolkit's formatted
 * output: every program that prints rows (rlprof-report, cule-bench, and
 * programs to come) builds a struct core_table and writes it with
 * core_table_write() in the format the user chose.
 *
 *	static const struct core_col cols[] = {
 *		{ .name = "game", .type = CORE_COL_STRING },
 *		{ .name = "seconds", .type = CORE_COL_DURATION, .unit = "s", .decimals = 3 },
 *	};
 *	struct core_table t;
 *	core_table_init(&t, cols, 2, CORE_TABLE_RECORD);
 *	if (core_table_add_row(&t, 0) < 0 || core_table_set_str(&t, 0, "pong") < 0) ...
 *	core_table_set_ns(&t, 1, ns);
 *	ret = core_table_write(fp, &t, core_format_default(output));
 *	core_table_release(&t);
 *
 * Formats:
 *   table  for people: a heading line of column titles, aligned columns,
 *          numbers right-aligned, strings left-aligned, durations and byte
 *          counts in readable units ("1.23 ms", "2.00 KiB"); control
 *          characters and invalid UTF-8 in strings are shown as U+FFFD so
 *          that a name cannot break the layout
 *   csv    RFC 4180: a header row of column names, then one row per row;
 *          fields are quoted (through core_csv_write_field) when they hold
 *          a comma, a quote, CR or LF; strings are written byte for byte
 *   json   one document on one line: an array of objects, one per row, or
 *          for a CORE_TABLE_RECORD the object of its one row (null when it
 *          has none)
 *   jsonl  JSON Lines: one object per row and line
 * In JSON, keys are column names and strings go through
 * core_utf8_write_json() (invalid UTF-8 becomes U+FFFD).  A cell never set
 * is null in JSON, empty in CSV and blank in the table; so is a float that
 * is not finite, so output is always strict JSON.
 *
 * Numbers in CSV and JSON are exact where they can be: integers as
 * integers, durations in the column's unit with `decimals` digits, exact
 * to the nanosecond when the unit and digits allow it ("us" with 3), else
 * rounded half away from zero.  Floats use printf's "%.*f".
 *
 * Ownership: the table borrows `cols` (keep it alive, usually static) and
 * copies the strings it is given.  Errors: functions return 0 or a
 * negative errno code (-ENOMEM, -EINVAL for a bad column or no row, -EIO
 * for a stream error).  A table is not thread-safe; distinct tables are
 * independent.
 */
#ifndef CORE_TABLE_H
#define CORE_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum core_format {
	CORE_FORMAT_TABLE,
	CORE_FORMAT_CSV,
	CORE_FORMAT_JSON,
	CORE_FORMAT_JSONL,
};

/* Sets of formats, for core_format_parse(). */
#define CORE_FORMAT_BIT(f) (1u << (f))
#define CORE_FORMATS_ALL 0xfu

/* "table", "csv", "json", "jsonl". */
const char *core_format_name(enum core_format f);
/* The format named `s`, if it is in the set `allowed`; else -EINVAL. */
int core_format_parse(const char *s, unsigned allowed);

/*
 * The one rule for a program's default format: table when the output
 * (`output`: a -o path, NULL or "-" for standard output) is standard
 * output and standard output is a terminal, CSV otherwise.
 */
enum core_format core_format_default(const char *output);

enum core_col_type {
	CORE_COL_STRING,
	CORE_COL_INT,		/* int64_t */
	CORE_COL_FLOAT,		/* double, with `decimals` digits and an optional unit */
	CORE_COL_DURATION,	/* int64_t nanoseconds, written in `unit` */
	CORE_COL_BYTES,		/* uint64_t bytes */
};

/* Column flags. */
#define CORE_COL_NO_TABLE 1	/* left out of the table format */
#define CORE_COL_GROUP 2	/* table: blank where it repeats the row above in a section */

struct core_col {
	const char *name;	/* CSV header and JSON key */
	enum core_col_type type;
	/*
	 * FLOAT: shown after each value in the table ("%", "fps"), or NULL.
	 * DURATION: the unit of CSV and JSON values: "s", "ms", "us" or "ns"
	 * (NULL: "s").  Otherwise unused.
	 */
	const char *unit;
	int decimals;		/* FLOAT, DURATION: digits after the point */
	const char *title;	/* heading in the table format; NULL: name */
	int flags;		/* CORE_COL_* */
	int max_width;		/* table: strings cut to this many characters; 0: no limit */
};

/* Table flags. */
#define CORE_TABLE_RECORD 1	/* one row: json writes an object, not an array */

/* Row flags. */
#define CORE_ROW_TABLE_ONLY 1	/* a line for people (a total): only in the table format */

struct core_cell;
struct core_table_row;

struct core_table {
	const struct core_col *cols;
	size_t ncols;
	int flags;
	/* private */
	struct core_cell *cells;	/* nrows * ncols */
	struct core_table_row *rows;
	size_t nrows, rows_cap, cells_cap;
	char *heading;			/* section heading of the next row */
	int has_sections;
};

/* An empty table over `cols`; allocates nothing. */
void core_table_init(struct core_table *t, const struct core_col *cols,
		     size_t ncols, int flags);
/* Free what the table holds; it can be initialised again. */
void core_table_release(struct core_table *t);

/*
 * Start a section in the table format: the rows added from now on come
 * after a blank line (but for the first section), the line `heading`, and
 * the column titles; rows are then indented by two spaces.  Other formats
 * ignore sections.  Returns 0 or -ENOMEM.
 */
int core_table_section(struct core_table *t, const char *heading);

/* Append a row of unset cells (CORE_ROW_* flags).  Returns 0 or -ENOMEM. */
int core_table_add_row(struct core_table *t, int flags);

/*
 * Set cell `col` of the last row.  Strings are copied (set_strn takes
 * bytes, NUL included) and fit STRING columns only; numbers fit any
 * number column and are converted to its type.  A NULL string unsets
 * the cell.  Return 0, -ENOMEM, or -EINVAL (no row, bad column or type).
 */
int core_table_set_str(struct core_table *t, size_t col, const char *s);
int core_table_set_strn(struct core_table *t, size_t col, const char *s, size_t len);
int core_table_set_int(struct core_table *t, size_t col, int64_t v);
int core_table_set_float(struct core_table *t, size_t col, double v);
int core_table_set_ns(struct core_table *t, size_t col, int64_t ns);
int core_table_set_bytes(struct core_table *t, size_t col, uint64_t v);

/* Write the table to `fp` in format `f`.  Returns 0 or -EIO. */
int core_table_write(FILE *fp, const struct core_table *t, enum core_format f);

/*
 * The number formatters behind the writer, for output that is not a flat
 * table (rlprof-report's nested JSON, chart labels):
 *   core_fmt_duration  ns in `unit` ("s", "ms", "us", "ns") with `decimals`
 *                      digits: (1234567, "us", 3) gives "1234.567"
 *   core_fmt_human_ns  3 significant digits and a unit: "12 ns", "789 us",
 *                      "45.6 ms", "1.23 s"
 *   core_fmt_human_bytes  "392 B", "2.00 KiB", "1.50 MiB"
 * They write at most `size` bytes, NUL included.
 */
void core_fmt_duration(char *buf, size_t size, int64_t ns, const char *unit, int decimals);
void core_fmt_human_ns(char *buf, size_t size, int64_t ns);
void core_fmt_human_bytes(char *buf, size_t size, uint64_t bytes);

#endif
