/* core/sys.h (own path, CPU count) and core/splitmix.h (fixed sequence). */
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/splitmix.h"
#include "core/sys.h"
#include "test.h"

static void test_exe(void)
{
	char *exe = NULL, *rel = NULL, *slash;
	int ret = core_sys_exe(&exe);

	TEST_EQ_LONG(ret, 0, "the program's path");
	if (ret < 0)
		return;
	slash = strrchr(exe, '/');
	TEST_OK(exe[0] == '/', "is absolute: %s", exe);
	TEST_EQ_STR(slash ? slash + 1 : exe, "test-core-sys", "names this program");
	TEST_OK(access(exe, X_OK) == 0, "and is executable");
	TEST_EQ_LONG(core_sys_exe_relative("../lib/x", &rel), 0, "a path next to it");
	if (rel && slash) {
		*slash = '\0';
		TEST_OK(!strncmp(rel, exe, strlen(exe)) && !strcmp(rel + strlen(exe), "/../lib/x"),
			"is the program's folder and the relative path: %s", rel);
	}
	free(rel);
	free(exe);
}

static void test_cpus(void)
{
	cpu_set_t all, one;
	int n = core_sys_cpus(), first = -1, i;

	TEST_OK(n >= 1, "at least one CPU: %d", n);
	if (sched_getaffinity(0, sizeof(all), &all) < 0) {
		test_skip("no affinity mask", "cpus follow the affinity mask");
		return;
	}
	TEST_EQ_LONG(n, CPU_COUNT(&all), "as many as the affinity mask allows");
	for (i = 0; i < CPU_SETSIZE && first < 0; i++)
		if (CPU_ISSET(i, &all))
			first = i;
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	if (sched_setaffinity(0, sizeof(one), &one) == 0) {
		TEST_EQ_LONG(core_sys_cpus(), 1, "pinned to one CPU: 1, whatever the machine has");
		sched_setaffinity(0, sizeof(all), &all);
	}
}

static void test_splitmix(void)
{
	/* The reference sequence of splitmix64: seeds that man pages and
	 * parity tests rely on must keep giving these numbers. */
	static const uint64_t from0[] = { 0xe220a8397b1dcdafull, 0x6e789e6aa1b965f4ull,
					  0x06c45d188009454full };
	static const uint64_t from1234567[] = { 0x599ed017fb08fc85ull, 0x2c73f08458540fa5ull,
						0x883ebce5a3f27c77ull };
	uint64_t s = 0, t = 1234567, u = 42;
	double d;
	int i, ok = 1;

	for (i = 0; i < 3; i++) {
		ok &= core_splitmix64(&s) == from0[i];
		ok &= core_splitmix64(&t) == from1234567[i];
	}
	TEST_OK(ok, "splitmix64 from seeds 0 and 1234567: the reference numbers");
	TEST_OK(s == 3 * 0x9e3779b97f4a7c15ull, "the state advances by the golden-ratio constant");
	d = core_splitmix64_unit(&u);
	TEST_OK(d == 0.7415648787718233, "unit from seed 42: %.17g", d);
	for (i = 0, s = 7; i < 100000; i++) {
		d = core_splitmix64_unit(&s);
		ok &= d >= 0.0 && d < 1.0;
	}
	TEST_OK(ok, "unit numbers lie in [0, 1)");
}

int main(void)
{
	test_exe();
	test_cpus();
	test_splitmix();
	return test_done();
}
