#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void core_error_clear(struct core_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->line = 0;
	err->msg[0] = '\0';
}

static void vset(struct core_error *err, int code, long line,
		 const char *fmt, va_list ap)
{
	size_t n = 0;

	err->code = code;
	err->line = line;
	if (line > 0)
		n = (size_t)snprintf(err->msg, sizeof(err->msg), "line %ld: ", line);
	if (n < sizeof(err->msg))
		vsnprintf(err->msg + n, sizeof(err->msg) - n, fmt, ap);
}

int core_error_set(struct core_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	va_start(ap, fmt);
	vset(err, code, 0, fmt, ap);
	va_end(ap);
	return code;
}

int core_error_set_line(struct core_error *err, int code, long line,
			const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	va_start(ap, fmt);
	vset(err, code, line, fmt, ap);
	va_end(ap);
	return code;
}

int core_error_errno(struct core_error *err, int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (!err)
		return -errnum;
	va_start(ap, fmt);
	vset(err, -errnum, 0, fmt, ap);
	va_end(ap);
	n = strlen(err->msg);
	if (n < sizeof(err->msg))
		snprintf(err->msg + n, sizeof(err->msg) - n, ": %s", strerror(errnum));
	return -errnum;
}

void core_error_prefix(struct core_error *err, const char *fmt, ...)
{
	char old[CORE_ERROR_MSG_MAX];
	va_list ap;
	size_t n;

	if (!err)
		return;
	memcpy(old, err->msg, sizeof(old));
	va_start(ap, fmt);
	n = (size_t)vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (n < sizeof(err->msg))
		snprintf(err->msg + n, sizeof(err->msg) - n, "%s", old);
}
