/*
 * A minimal TAP producer for the C unit tests.  Each test program prints
 * "ok N - what" / "not ok N - what" lines and a "1..N" plan at the end;
 * tests/run counts them.  The exit status is 1 when any check failed.
 *
 *	TEST_OK(cond, "what %d", x);
 *	TEST_EQ_STR(got, want, "what");
 *	TEST_EQ_LONG(got, want, "what");
 *	return test_done();
 */
#ifndef TEST_H
#define TEST_H

int test_ok(int cond, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int test_eq_str(const char *got, const char *want, const char *file, int line,
		const char *what);
int test_eq_long(long got, long want, const char *file, int line,
		 const char *what);
void test_skip(const char *why, const char *what);
int test_done(void);
/* A scratch folder, created once per program and removed at test_done. */
const char *test_tmpdir(void);

#define TEST_OK(cond, ...) test_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define TEST_EQ_STR(got, want, what) test_eq_str(got, want, __FILE__, __LINE__, what)
#define TEST_EQ_LONG(got, want, what) test_eq_long((long)(got), (long)(want), __FILE__, __LINE__, what)

#endif
