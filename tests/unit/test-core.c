/* Error struct, option-number parsing and clocks. */
#include <errno.h>
#include <string.h>

#include "core/cli.h"
#include "core/clock.h"
#include "core/error.h"
#include "test.h"

static void test_error(void)
{
	struct core_error err = CORE_ERROR_INIT;

	TEST_EQ_LONG(core_error_set(&err, -EINVAL, "bad '%s'", "x"), -EINVAL,
		     "set returns the code");
	TEST_EQ_STR(err.msg, "bad 'x'", "set formats the message");
	core_error_set_line(&err, -EBADMSG, 7, "oops");
	TEST_EQ_STR(err.msg, "line 7: oops", "set_line adds the line");
	TEST_EQ_LONG(err.line, 7, "set_line keeps the line");
	TEST_EQ_LONG(core_error_errno(&err, ENOENT, "cannot open '%s'", "f"), -ENOENT,
		     "errno returns minus errno");
	TEST_EQ_STR(err.msg, "cannot open 'f': No such file or directory",
		    "errno appends strerror");
	core_error_prefix(&err, "'%s': ", "a.csv");
	TEST_EQ_STR(err.msg, "'a.csv': cannot open 'f': No such file or directory",
		    "prefix adds context");
	TEST_EQ_LONG(core_error_set(NULL, -EIO, "x"), -EIO, "NULL error struct is fine");
	core_error_clear(&err);
	TEST_OK(err.code == 0 && err.msg[0] == 0, "clear resets");
}

static void test_numbers(void)
{
	long l = 0;
	double d = 0;

	TEST_OK(core_cli_parse_long("42", 0, 100, &l) == 0 && l == 42, "parse 42");
	TEST_OK(core_cli_parse_long("0x10", 0, 100, &l) == 0 && l == 16, "parse hex");
	TEST_EQ_LONG(core_cli_parse_long("4x", 0, 100, &l), -EINVAL, "trailing junk");
	TEST_EQ_LONG(core_cli_parse_long("", 0, 100, &l), -EINVAL, "empty");
	TEST_EQ_LONG(core_cli_parse_long("101", 0, 100, &l), -ERANGE, "above max");
	TEST_EQ_LONG(core_cli_parse_long("99999999999999999999", 0, 100, &l), -ERANGE,
		     "overflow");
	TEST_OK(core_cli_parse_double("0.25", 0, 1, &d) == 0 && d == 0.25, "parse 0.25");
	TEST_EQ_LONG(core_cli_parse_double("nan", 0, 1, &d), -EINVAL, "nan rejected");
	TEST_EQ_LONG(core_cli_parse_double("1.5", 0, 1, &d), -ERANGE, "double range");
}

static void test_clock(void)
{
	int64_t a = core_clock_mono_ns(), b, r = core_clock_real_ns();

	core_clock_sleep_ns(2000000);
	b = core_clock_mono_ns();
	TEST_OK(b - a >= 2000000, "monotonic clock advances by the sleep");
	TEST_OK(r > (int64_t)1600000000 * 1000000000, "realtime clock is epoch-based");
}

int main(void)
{
	test_error();
	test_numbers();
	test_clock();
	return test_done();
}
