#include "core/msg.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "rlkit";

void core_msg_init(const char *argv0)
{
	const char *slash;

	if (!argv0 || !*argv0)
		return;
	slash = strrchr(argv0, '/');
	prog = slash ? slash + 1 : argv0;
}

const char *core_msg_prog(void)
{
	return prog;
}

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	char buf[2048];
	int n;

	/* One write so that lines from parallel processes do not interleave. */
	n = snprintf(buf, sizeof(buf), "%s: %s: ", prog, kind);
	if (n < 0 || (size_t)n >= sizeof(buf))
		n = 0;
	vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	fflush(stdout);
	fprintf(stderr, "%s\n", buf);
}

void core_msg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
}

void core_msg_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning", fmt, ap);
	va_end(ap);
}

void core_msg_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("note", fmt, ap);
	va_end(ap);
}

void core_msg_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
	exit(status);
}

void core_msg_die_err(int status, const struct core_error *err)
{
	core_msg_die(status, "%s", err && err->msg[0] ? err->msg : "unknown error");
}

int core_msg_close_stream(FILE *fp)
{
	int failed, saved;

	errno = 0;
	failed = fflush(fp) != 0 || ferror(fp);
	saved = errno;
	if (fclose(fp) != 0 && !failed) {
		failed = 1;
		saved = errno;
	}
	if (!failed)
		return 0;
	if (saved)
		core_msg_error("writing output failed: %s", strerror(saved));
	else
		core_msg_error("writing output failed");
	return -1;
}
