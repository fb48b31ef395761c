#include "test.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int count, failures;
static char tmpdir[256];

int test_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	count++;
	printf("%s %d - ", cond ? "ok" : "not ok", count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		failures++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return cond;
}

int test_eq_str(const char *got, const char *want, const char *file, int line,
		const char *what)
{
	int ok = got && want ? strcmp(got, want) == 0 : got == want;

	if (!test_ok(ok, file, line, "%s", what))
		printf("#   got:  '%s'\n#   want: '%s'\n", got ? got : "(null)",
		       want ? want : "(null)");
	return ok;
}

int test_eq_long(long got, long want, const char *file, int line,
		 const char *what)
{
	int ok = got == want;

	if (!test_ok(ok, file, line, "%s", what))
		printf("#   got:  %ld\n#   want: %ld\n", got, want);
	return ok;
}

void test_skip(const char *why, const char *what)
{
	count++;
	printf("ok %d - %s # skip %s\n", count, what, why);
}

const char *test_tmpdir(void)
{
	if (!tmpdir[0]) {
		const char *base = getenv("TMPDIR");

		snprintf(tmpdir, sizeof(tmpdir), "%s/rlkit-unit.XXXXXX",
			 base && *base ? base : "/tmp");
		if (!mkdtemp(tmpdir)) {
			perror("mkdtemp");
			exit(2);
		}
	}
	return tmpdir;
}

int test_done(void)
{
	printf("1..%d\n", count);
	if (tmpdir[0]) {
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", tmpdir);
	}
	return failures ? 1 : 0;
}
