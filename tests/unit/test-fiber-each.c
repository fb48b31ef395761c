/* lib/fiber internals of --each, --env, --workdir and the prefetch window:
 * placeholder substitution, variable patterns, working folders, and how
 * far ahead short tasks are sent. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fiber/each.h"
#include "fiber/envpass.h"
#include "fiber/pool-int.h"
#include "test.h"

static char *joined(char **v)
{
	static char buf[512];
	size_t i;

	buf[0] = '\0';
	for (i = 0; v && v[i]; i++) {
		strcat(buf, i ? "|" : "");
		strcat(buf, v[i]);
	}
	return buf;
}

static void check_argv(char *const *argv, const char *task, int lines, const char *want,
		       const char *what)
{
	char **v = fiber_each_argv(argv, task, strlen(task), lines, 7);

	TEST_EQ_STR(joined(v), want, what);
	fiber_each_argv_free(v);
}

static void test_each_argv(void)
{
	char *echo[] = { "echo", "{}", "n={#}", NULL };
	char *plain[] = { "gzip", "-k", NULL };
	char *fields[] = { "run", "--lr={lr}", "{cfg}", "{nope}", "{a b}", "{", "}{", NULL };

	check_argv(echo, "a b", 1, "echo|a b|n=7", "{} is the line, {#} the number");
	check_argv(echo, "\"s\"", 0, "echo|s|n=7", "a JSON string: its value");
	check_argv(echo, "\"s\"", 1, "echo|\"s\"|n=7", "--lines: the line as it is");
	check_argv(plain, "f.csv", 1, "gzip|-k|f.csv", "no placeholder: the task goes last");
	check_argv(fields, "{\"lr\":0.1,\"cfg\":{\"x\":[1,2]}}", 0,
		   "run|--lr=0.1|{\"x\":[1,2]}|{nope}|{a b}|{|}{",
		   "{NAME}: members, shortest numbers; other braces stay");
	check_argv(fields, "[1]", 0, "run|--lr={lr}|{cfg}|{nope}|{a b}|{|}{|[1]",
		   "not an object: {NAME} stays and the task goes last");
}

static void test_envpass(void)
{
	const char *pats[] = { "RLKIT_UT_*", "RLKIT_ONE" };
	char **v = NULL;
	struct core_error err = CORE_ERROR_INIT;

	TEST_OK(fiber_envpass_valid("PYTHONPATH"), "a name");
	TEST_OK(fiber_envpass_valid("WANDB_*"), "a prefix");
	TEST_OK(fiber_envpass_valid("*"), "every variable");
	TEST_OK(!fiber_envpass_valid("A-B") && !fiber_envpass_valid("") &&
		!fiber_envpass_valid("1X") && !fiber_envpass_valid("A*B"), "bad names");
	setenv("RLKIT_UT_A", "1", 1);
	setenv("RLKIT_UT_B", "x=y", 1);
	setenv("RLKIT_ONE", "one", 1);
	setenv("RLKIT_ONEMORE", "no", 1);
	setenv("FIBERRUN_UT", "never", 1);
	TEST_EQ_LONG(fiber_envpass_collect(pats, 2, "/w d", 0, &v, &err), 0, "collect");
	{
		int a = 0, b = 0, one = 0, more = 0, wd = 0;
		size_t i;

		for (i = 0; v && v[i]; i++) {
			a += strcmp(v[i], "RLKIT_UT_A=1") == 0;
			b += strcmp(v[i], "RLKIT_UT_B=x=y") == 0;
			one += strcmp(v[i], "RLKIT_ONE=one") == 0;
			more += strncmp(v[i], "RLKIT_ONEMORE", 13) == 0 || strncmp(v[i], "FIBERRUN_UT", 11) == 0;
			wd += strcmp(v[i], "FIBERRUN_WORKDIR=/w d") == 0;
		}
		TEST_OK(a == 1 && b == 1 && one == 1 && more == 0 && wd == 1 && i == 4,
			"the prefix's, the name's and the working folder, nothing else (%zu)", i);
	}
	fiber_envpass_free(v);
	setenv("RLKIT_UT_B", "a\nb", 1);
	TEST_EQ_LONG(fiber_envpass_collect(pats, 2, NULL, 0, &v, &err), -EINVAL, "a newline is refused");
	TEST_OK(strstr(err.msg, "RLKIT_UT_B") != NULL, "naming the variable: %s", err.msg);
	unsetenv("RLKIT_UT_B");
}

static void test_workdir(void)
{
	struct core_error err = CORE_ERROR_INIT;
	char dir[512], here[512], *cwd = getcwd(here, sizeof(here));
	FILE *f;

	unsetenv("FIBERRUN_WORKDIR");
	TEST_EQ_LONG(fiber_workdir_enter("h", &err), 0, "no working folder: nothing to do");
	snprintf(dir, sizeof(dir), "%s/a/b/c", test_tmpdir());
	setenv("FIBERRUN_WORKDIR", dir, 1);
	TEST_EQ_LONG(fiber_workdir_enter("h", &err), 0, "created with its parents, entered");
	TEST_OK(access(dir, F_OK) == 0, "it exists");
	snprintf(dir, sizeof(dir), "%s/file", test_tmpdir());
	f = fopen(dir, "w");
	if (f)
		fclose(f);
	strcat(dir, "/sub");
	setenv("FIBERRUN_WORKDIR", dir, 1);
	TEST_OK(fiber_workdir_enter("node7", &err) < 0, "a path through a file fails");
	TEST_OK(strstr(err.msg, "cannot enter working folder") && strstr(err.msg, "on node7"),
		"naming the folder and the host: %s", err.msg);
	unsetenv("FIBERRUN_WORKDIR");
	if (cwd && chdir(cwd) < 0)
		TEST_OK(0, "back to %s", cwd);
}

static void test_window(void)
{
	struct fiber_pool_opts o = { 0 };
	struct pool p = { 0 };

	p.o = &o;
	o.prefetch = 2;
	o.prefetch_max = 256;
	TEST_EQ_LONG(pool_window(&p), 2, "nothing measured yet: prefetch");
	pool_window_note(&p, 10000000);
	TEST_EQ_LONG(pool_window(&p), 2, "10 ms tasks: prefetch");
	p.task_ns_avg = 0;
	pool_window_note(&p, 100000);
	TEST_EQ_LONG(pool_window(&p), 10, "0.1 ms tasks: 1 ms of work ahead");
	p.task_ns_avg = 0;
	pool_window_note(&p, 1000);
	TEST_EQ_LONG(pool_window(&p), 256, "1 us tasks: the most");
	o.prefetch_max = 0;
	TEST_EQ_LONG(pool_window(&p), 2, "fixed --prefetch: never more");
	p.task_ns_avg = 0;
	o.prefetch_max = 256;
	pool_window_note(&p, 1000);
	for (int i = 0; i < 200; i++)
		pool_window_note(&p, 10000000);
	TEST_EQ_LONG(pool_window(&p), 2, "tasks that became long: back to prefetch");
}

int main(void)
{
	test_each_argv();
	test_envpass();
	test_workdir();
	test_window();
	return test_done();
}
