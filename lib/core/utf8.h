/*
 * UTF-8 checking and repair, and the one JSON string escaper of the
 * toolkit.
 *
 * Names that reach the output (file names, operation names, task lines)
 * are bytes, not always UTF-8.  JSON must be UTF-8, so every JSON string
 * the toolkit writes goes through core_utf8_write_json(), which replaces
 * each invalid sequence with U+FFFD, as jq does, using the "maximal
 * subpart" rule of the Unicode standard (the one Python's
 * bytes.decode('utf-8', 'replace') follows): a truncated sequence is one
 * replacement, a byte that cannot start or continue a sequence is one
 * replacement each.  Overlong forms, surrogates (U+D800 to U+DFFF) and
 * code points above U+10FFFF are invalid.
 *
 * All functions are pure or write only to the stream given; they are
 * thread-safe as far as the stream is.
 */
#ifndef CORE_UTF8_H
#define CORE_UTF8_H

#include <stddef.h>
#include <stdio.h>

#include "core/buf.h"

/* The replacement character U+FFFD in UTF-8. */
#define CORE_UTF8_REPLACEMENT "\xef\xbf\xbd"

/*
 * Decode the sequence at the start of s[0..len) (len > 0).  Returns its
 * code point and sets *n to its length (1 to 4), or returns -1 and sets
 * *n to the length of the invalid part to replace (at least 1).
 */
long core_utf8_next(const char *s, size_t len, size_t *n);

/* 1 when s[0..len) is valid UTF-8, else 0. */
int core_utf8_valid(const char *s, size_t len);

/*
 * A NUL-terminated copy of s[0..len) with each invalid sequence replaced
 * by U+FFFD.  *outlen (may be NULL) gets its length.  The caller frees
 * it; NULL when out of memory.
 */
char *core_utf8_repair(const char *s, size_t len, size_t *outlen);

/*
 * Write s[0..len) as a JSON string, quotes included: '"' and '\\'
 * escaped, control characters as \n, \t, \r, \b, \f or \u00XX, invalid
 * UTF-8 replaced by U+FFFD, everything else as it is (UTF-8).  Returns 0,
 * or -EIO when the stream has an error.
 */
int core_utf8_write_json(FILE *fp, const char *s, size_t len);

/*
 * Append s[0..len) to b as an ASCII-only JSON string, quotes included,
 * exactly as jansson writes it with JSON_ENSURE_ASCII: '"' and '\\'
 * escaped, control characters as \n, \t, \r, \b, \f or \u00XX, every
 * other character above U+007F as \uXXXX (a UTF-16 surrogate pair above
 * U+FFFF), hex digits upper-case; invalid UTF-8 becomes \uFFFD.  For
 * large strings (fiberrun's results), where jansson goes a character at
 * a time.  Returns 0 or -ENOMEM (b then holds part of it).
 */
int core_utf8_append_json_ascii(struct core_buf *b, const char *s, size_t len);

#endif
