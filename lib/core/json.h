/*
 * JSON documents and JSON Lines, on jansson.
 *
 * Ownership follows jansson: functions that return a json_t * hand over a
 * new reference (json_decref it); functions that take one borrow it.
 *
 * Errors carry the 1-based line number: for a document, the line inside it;
 * for JSON Lines, the line of the stream.
 */
#ifndef CORE_JSON_H
#define CORE_JSON_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/input.h"

/* Parse one document from a file ("-" is stdin). */
json_t *core_json_load_file(const char *path, struct core_error *err);
/* Parse one document from a string. */
json_t *core_json_load_string(const char *s, const char *name,
			      struct core_error *err);

/*
 * Write `v` to `fp`: compact on one line with a newline when `pretty` is 0
 * (that is one JSON Lines record), indented by 2 otherwise.  Keys keep
 * insertion order.  Returns 0 or -EIO.
 */
int core_json_write(FILE *fp, const json_t *v, int pretty);

/* Write `v` to `path` atomically (see core/atomic.h); flags as there. */
int core_json_save_file(const char *path, const json_t *v, int flags,
			struct core_error *err);

/*
 * JSON Lines reader: one JSON value per line.
 *
 *	struct core_jsonl_reader *r;
 *	json_t *v;
 *	if (core_jsonl_reader_new(&r, fp, "tasks.jsonl", &err) < 0) ...
 *	while ((ret = core_jsonl_read(r, &v, &err)) > 0) {
 *		use(v, core_jsonl_line(r));
 *		json_decref(v);
 *	}
 *	core_jsonl_reader_free(r);       // ret < 0: err says what and where
 *
 * The rules:
 * - A line ends with LF; a CR before it is JSON white space.  The last
 *   line needs no LF, but it is then "torn" (core_jsonl_torn): a value
 *   there that does not parse is reported as truncated, not invalid, and a
 *   journal may choose to ignore a torn line altogether.
 * - Blank lines (white space only) are skipped by core_jsonl_read, and
 *   counted: line numbers are 1-based lines of the input.
 * - Each line is one JSON value of any type, decoded by core_jsonl_decode:
 *   a key given twice keeps its last value, as jq and Python do, and
 *   \\u0000 in a string is accepted (a task or result may carry it).
 * - A line longer than the bound (CORE_JSONL_MAX_DEFAULT, or what
 *   core_jsonl_set_max sets) is -EMSGSIZE, found before the whole line is
 *   buffered, so the read buffer stays within about twice the bound
 *   whatever the input.
 *
 * Errors: messages are "'name': line N: ..." with err->line set: invalid
 * JSON and truncated JSON are -EBADMSG, an overlong line -EMSGSIZE, a read
 * error -errno.  After -EBADMSG or -EMSGSIZE the next call goes on with the
 * next line.  A read function's -EAGAIN comes back as is, without a
 * message; nothing is lost and the call may be repeated when input is
 * there.
 *
 * Memory: a 64 KiB read buffer that grows to the longest line.  The
 * reader does not own `fp`; it is not thread-safe.
 */
struct core_jsonl_reader;

#define CORE_JSONL_MAX_DEFAULT ((size_t)256 << 20)

int core_jsonl_reader_new(struct core_jsonl_reader **out, FILE *fp,
			  const char *name, struct core_error *err);
/* The same, reading with `fn` (see core/input.h) instead of a FILE. */
int core_jsonl_reader_new_fn(struct core_jsonl_reader **out, core_read_fn *fn,
			     void *ctx, const char *name, struct core_error *err);
/* The longest line accepted, in bytes without its LF. */
void core_jsonl_set_max(struct core_jsonl_reader *r, size_t max);

/* Returns 1 and a new reference in *v, 0 at the end, or a negative code. */
int core_jsonl_read(struct core_jsonl_reader *r, json_t **v,
		    struct core_error *err);
/*
 * As core_jsonl_read, but only the top-level member `key` is built: *v is
 * an object holding at most that member when the line's value is an
 * object, JSON null for another value.  The rest of the line is validated
 * by a scan that builds nothing, so a long line costs no more than its
 * text (core_jsonl_text, core_jsonl_take_text).
 */
int core_jsonl_read_member(struct core_jsonl_reader *r, const char *key, json_t **v,
			   struct core_error *err);
/*
 * That scan, of `len` bytes: 1 when they are a JSON object, 0 another JSON
 * value, with the text of the member `key` (its last one) in *member and
 * *member_len, or NULL; -EBADMSG when it cannot vouch for them (invalid
 * JSON, or a rare form such as an escaped key, a 19-digit integer: decode
 * them to know).
 */
int core_jsonl_scan_member(const char *text, size_t len, const char *key,
			   const char **member, size_t *member_len);
/*
 * The next line as text, blank or not, without parsing it: 1 with *text
 * (NUL-terminated, without its LF; writable, valid until the next call)
 * and *len, 0 at the end, or a negative code as above.
 */
int core_jsonl_read_line(struct core_jsonl_reader *r, char **text, size_t *len,
			 struct core_error *err);

/* Of the line last returned, or of the one that failed: */
long core_jsonl_line(const struct core_jsonl_reader *r);	/* its number */
int core_jsonl_torn(const struct core_jsonl_reader *r);	/* 1: no LF, at the end */
/* The text of the value last returned by core_jsonl_read, as above. */
const char *core_jsonl_text(const struct core_jsonl_reader *r, size_t *len);
/*
 * The text of the line last returned (as core_jsonl_text), handed over:
 * malloc'd, NUL-terminated, the caller frees it; NULL when out of memory.
 * A long line (1 MiB or more, at least half the read buffer) is not
 * copied: the reader gives it its buffer, trimmed to the line, and reads
 * on in a new one, so the line costs its size once, not twice.  Call it
 * at most once per line, before the next read.
 */
char *core_jsonl_take_text(struct core_jsonl_reader *r, size_t *len);
/* Input offset just after the line last returned (after its LF). */
uint64_t core_jsonl_offset(const struct core_jsonl_reader *r);

void core_jsonl_reader_free(struct core_jsonl_reader *r);

/*
 * Decode one JSON Lines value from `len` bytes (a line without its LF), by
 * the rules above: a new reference, or NULL with `je` (may be NULL) filled.
 * For every
 * line of JSON that the toolkit reads, streamed or not.
 */
json_t *core_jsonl_decode(const char *text, size_t len, json_error_t *je);

#endif
