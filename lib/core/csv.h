/*
 * CSV reading (streaming, on libcsv) and writing, per RFC 4180.
 *
 * Reading: fields may be quoted; quoted fields may hold commas, doubled
 * quotes, CR and LF.  Records end with LF, CRLF or CR; blank lines are
 * skipped.  Spaces are data (never trimmed).  Memory stays bounded by the
 * read chunk plus the longest record, whatever the input size.
 *
 *	struct core_csv_reader *r;
 *	struct core_csv_row row;
 *	if (core_csv_reader_new(&r, fp, "x.csv", 0, &err) < 0) ...
 *	while ((ret = core_csv_read(r, &row, &err)) > 0)
 *		use(row.field[0], row.len[0], row.line);
 *	core_csv_reader_free(r);         // ret < 0: err says what and where
 *
 * The strings of a row are NUL-terminated and stay valid until the next
 * core_csv_read() call.  Errors carry the 1-based line number, in
 * err->line and in the message ("'x.csv': line 3: ...").  The reader does
 * not own `fp`.
 *
 * Writing: core_csv_write_field quotes a field only when it must (comma,
 * quote, CR, LF, or leading/trailing space); records end with LF.
 * Functions return 0 or -EIO; callers check the stream at close as usual.
 */
#ifndef CORE_CSV_H
#define CORE_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "core/error.h"

/* Reader flags. */
#define CORE_CSV_SAME_WIDTH 1	/* every record has as many fields as the first */

struct core_csv_row {
	size_t n;		/* number of fields */
	char **field;		/* field[i] is NUL-terminated */
	size_t *len;		/* len[i] is its length (fields may hold NUL) */
	long line;		/* line where the record starts */
};

struct core_csv_reader;

int core_csv_reader_new(struct core_csv_reader **out, FILE *fp,
			const char *name, int flags, struct core_error *err);
/* Returns 1 with a row, 0 at the end of input, or a negative code. */
int core_csv_read(struct core_csv_reader *r, struct core_csv_row *row,
		  struct core_error *err);
void core_csv_reader_free(struct core_csv_reader *r);

int core_csv_write_field(FILE *fp, const char *s, size_t len);
/* Write n NUL-terminated fields and a newline. */
int core_csv_write_row(FILE *fp, const char *const *fields, size_t n);

/* Index of `name` in a header row, or -1. */
long core_csv_row_find(const struct core_csv_row *row, const char *name);

#endif
