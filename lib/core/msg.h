/*
 * Messages for programs (cmd/ only: the library itself never prints).
 *
 * Format: "prog: error: cannot open 'x.csv': No such file or directory",
 * program name first, lowercase, no full stop, subjects in single quotes.
 * core_msg_init() takes the program name from argv[0] (basename).
 *
 * A message is always one line, whatever the names it quotes: control
 * characters of the formatted text are written escaped, LF as \n, CR as
 * \r, TAB as \t and the other C0 bytes and DEL as \xNN (\x1b); other
 * bytes go out unchanged.  Messages longer than about 2 KiB are cut.
 * Each message is one write to stderr, after stdout is flushed.  Not
 * thread-safe (stdio's locking keeps one message whole).
 */
#ifndef CORE_MSG_H
#define CORE_MSG_H

#include <stdio.h>

#include "core/error.h"

void core_msg_init(const char *argv0);
const char *core_msg_prog(void);

/*
 * Copy the NUL-terminated `s` into `out` (of `size` bytes, NUL included)
 * with control characters escaped as described above.  Returns the length
 * written; the copy is cut before an escape that would not fit.
 */
size_t core_msg_escape(char *out, size_t size, const char *s);

void core_msg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void core_msg_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void core_msg_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print "prog: error: ..." and exit with `status`. */
_Noreturn void core_msg_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print err->msg as an error (with optional context) and exit with `status`. */
_Noreturn void core_msg_die_err(int status, const struct core_error *err);

/*
 * Flush and close `fp` (normally stdout) and report a write error such as
 * EPIPE or ENOSPC.  Returns 0, or -1 after printing
 * "prog: error: writing output failed: ...".  Call it before exiting.
 */
int core_msg_close_stream(FILE *fp);

#endif
