/*
 * Error model shared by the whole library.
 *
 * Library functions never print and never exit.  A function that can fail
 * returns a negative errno-style code (-ENOMEM, -EINVAL, -EIO, ...) and, when
 * the caller passes a struct core_error, fills it with a one-line message
 * suitable for "prog: error: <msg>".  Passing NULL for the error struct is
 * always allowed; only the return code is produced then.
 *
 * Parsers set `line` (1-based) to the input line the error refers to, or 0
 * when no line applies.  The message already mentions the line; the field is
 * there for callers that want to act on it (tests, --strict counters).
 */
#ifndef CORE_ERROR_H
#define CORE_ERROR_H

#include <stddef.h>

#define CORE_ERROR_MSG_MAX 512

struct core_error {
	int code;		/* negative errno-style code, 0 when unset */
	long line;		/* 1-based input line, 0 when none */
	char msg[CORE_ERROR_MSG_MAX];
};

#define CORE_ERROR_INIT { 0, 0, { 0 } }

/* Reset to the "no error" state. */
void core_error_clear(struct core_error *err);

/*
 * Record an error; returns `code` so that callers can write
 * `return core_error_set(err, -EINVAL, "bad '%s'", s);`.
 * `code` must be negative.  `err` may be NULL.
 */
int core_error_set(struct core_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* As core_error_set, and remember `line`; the message gets "line N: ". */
int core_error_set_line(struct core_error *err, int code, long line,
			const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Record a system error: the message is the formatted text followed by
 * ": " and strerror(errnum).  Returns -errnum.
 */
int core_error_errno(struct core_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix the existing message with formatted context ("reading 'x': "). */
void core_error_prefix(struct core_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
