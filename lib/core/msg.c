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

size_t core_msg_escape(char *out, size_t size, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (!size)
		return 0;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char e[4];
		size_t k = 0, i;

		if (c == '\n' || c == '\r' || c == '\t') {
			e[k++] = '\\';
			e[k++] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
		} else if (c < 0x20 || c == 0x7f) {
			e[k++] = '\\';
			e[k++] = 'x';
			e[k++] = hex[c >> 4];
			e[k++] = hex[c & 15];
		} else {
			e[k++] = (char)c;
		}
		if (o + k >= size)
			break;	/* truncated, never in the middle of an escape */
		for (i = 0; i < k; i++)
			out[o++] = e[i];
	}
	out[o] = '\0';
	return o;
}

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	char raw[2048], line[4 * sizeof(raw) + 2];
	size_t n;

	/* One write so that lines from parallel processes do not interleave;
	 * control characters escaped so that the message stays one line. */
	snprintf(raw, sizeof(raw), "%s: %s: ", prog, kind);
	n = strlen(raw);
	vsnprintf(raw + n, sizeof(raw) - n, fmt, ap);
	n = core_msg_escape(line, sizeof(line) - 1, raw);
	line[n++] = '\n';
	fflush(stdout);
	fwrite(line, 1, n, stderr);
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
