/*
 * Result records (man/man5/fiberrun-protocol.5): the one JSON object per
 * task that fiberrun writes out and journals.
 *
 * A result is bytes.  fiber_record_make keeps it as the JSON value it
 * holds (encoding "json", JSON Lines tasks only), else as a string when
 * it is UTF-8 ("text"), else as its base64 ("base64"), so that no byte of
 * a result is ever lost or changed.
 */
#ifndef FIBER_RECORD_H
#define FIBER_RECORD_H

#include <jansson.h>
#include <stddef.h>

struct fiber_record {
	const json_t *id;
	const char *status;	/* ok, error, failed, timeout, invalid */
	const char *result;	/* NULL: no result (null) */
	size_t len;
	int text_only;		/* --lines: never decode the result as JSON */
	const char *error;	/* or NULL */
	long line;		/* the input line of an "invalid" task, else 0 */
	long worker;		/* -1: none */
	const char *host;	/* or NULL */
	long attempts;
	double duration;
};

/* The record as compact ASCII JSON without newline, malloc'd; NULL when out of memory. */
char *fiber_record_make(const struct fiber_record *r);

/* s[0..len) in base64 (RFC 4648, padded), NUL-terminated, malloc'd; *outlen its length. */
char *fiber_base64(const char *s, size_t len, size_t *outlen);

#endif
