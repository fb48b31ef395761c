/*
 * CSV reading and writing, per RFC 4180.
 *
 * Reading is streaming and zero-copy: the reader parses its read buffer
 * in place and hands out fields that point into it.
 *
 *	struct core_csv_reader *r;
 *	struct core_csv_row row;
 *	if (core_csv_reader_new(&r, fp, "x.csv", 0, &err) < 0) ...
 *	while ((ret = core_csv_read(r, &row, &err)) > 0)
 *		use(row.field[0], row.len[0], row.line);
 *	core_csv_reader_free(r);         // ret < 0: err says what and where
 *
 * The rules:
 * - Fields are separated by commas; a record ends with LF or CRLF.  A CR
 *   not followed by LF is data, inside quotes or not (the writer below
 *   quotes every CR, so it never writes one bare).
 * - A field that starts with a quote is quoted: it ends at the next lone
 *   quote, holds commas, CRs and LFs as data, and "" stands for one quote.
 *   The closing quote must be followed by a comma, a line end or the end
 *   of the input.  A quote anywhere in an unquoted field is an error.
 * - Blank lines (nothing before the LF or CRLF) are skipped, but counted.
 *   Spaces are data, never trimmed.  A UTF-8 byte order mark at the very
 *   start of the input is not data.  The last record needs no line end.
 * - Line numbers are 1-based lines of the input: row.line is the line
 *   where a record starts, and a newline inside a quoted field counts.
 *
 * The fields of a row are NUL-terminated (they may also hold NUL bytes:
 * len[i] is the length) and writable; they, and the arrays field and len,
 * stay valid until the next core_csv_read() or core_csv_reader_free().
 *
 * Errors: core_csv_read returns -EBADMSG for malformed input, with the
 * message "'x.csv': line 3: ...", err->line the line of the offending byte,
 * and row->line and row->torn describing the bad record; the next call
 * goes on after the line of the error (after the end of input when the
 * error is an unterminated quote), so a lenient caller may skip the
 * record.  Read errors of the stream are -errno ("reading 'x.csv': ...");
 * a read function's -EAGAIN is returned as is, without a message, and the
 * call may be repeated.  A record longer than the buffer limit
 * (CORE_CSV_MAX_RECORD) is -EMSGSIZE.
 *
 * Memory: the read buffer (64 KiB, growing to the longest record) and the
 * field arrays.  The reader does not own `fp`; it is not thread-safe.
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
#include "core/input.h"

/* Reader flags. */
#define CORE_CSV_SAME_WIDTH 1	/* every record has as many fields as the first */

#define CORE_CSV_MAX_RECORD ((size_t)1 << 30)

struct core_csv_row {
	size_t n;		/* number of fields, at least 1 */
	char **field;		/* field[i] is NUL-terminated */
	size_t *len;		/* len[i] is its length (fields may hold NUL) */
	long line;		/* line where the record starts */
	int torn;		/* the input ended in this record, without a line end */
};

struct core_csv_reader;

int core_csv_reader_new(struct core_csv_reader **out, FILE *fp,
			const char *name, int flags, struct core_error *err);
/* The same, reading with `fn` (see core/input.h) instead of a FILE. */
int core_csv_reader_new_fn(struct core_csv_reader **out, core_read_fn *fn,
			   void *ctx, const char *name, int flags,
			   struct core_error *err);
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
