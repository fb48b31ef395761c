/*
 * prof_launch_run: the whole of rlprof-record's supervision in one call:
 * the command's status, its exec errors, the trace's meta and process
 * rows, warnings through the callback, the spool folder cleaned up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/spawn.h"
#include "prof/launch.h"
#include "test.h"

static char warned[1024];

static void on_warn(void *ctx, const char *msg)
{
	(void)ctx;
	snprintf(warned, sizeof(warned), "%s", msg);
}

/* Run argv, the trace in memory; returns prof_launch_run's code. */
static int record(char **argv, long sample_ms, struct prof_launch_result *res,
		  struct core_error *err, char **trace)
{
	struct prof_launch_opts o = PROF_LAUNCH_OPTS_INIT;
	size_t len = 0;
	FILE *fp = open_memstream(trace, &len);
	int ret;

	o.argv = argv;
	o.out = fp;
	o.sample_ms = sample_ms;
	o.warn = on_warn;
	ret = prof_launch_run(&o, res, err);
	fclose(fp);
	return ret;
}

static void test_status(void)
{
	char *argv[] = { "sh", "-c", "exit 3", NULL };
	char *kill_self[] = { "sh", "-c", "kill -TERM $$", NULL };
	struct prof_launch_result res;
	struct core_error err = CORE_ERROR_INIT;
	char *trace = NULL, want[64];

	warned[0] = '\0';
	TEST_EQ_LONG(record(argv, 1, &res, &err, &trace), 0, "a command that fails still gives a trace");
	TEST_OK(res.pid > 0 && res.exit_code == 3 && res.exec_errno == 0, "its exit code: %d", res.exit_code);
	TEST_OK(trace && !strncmp(trace, "kind,pid,tid,", 13), "a CSV trace with its header");
	TEST_OK(trace && strstr(trace, "\nmeta,,,,,trace_version,,,,,,,1\n") &&
		strstr(trace, "\nmeta,,,,,command,,,,,,,sh -c exit 3\n") &&
		strstr(trace, "\nmeta,,,,,clock,,,,,,,CLOCK_REALTIME\n") &&
		strstr(trace, "\nmeta,,,,,recorder,,,,,,,rlprof-record " RLKIT_VERSION "\n"),
		"the meta rows");
	snprintf(want, sizeof(want), "\nprocess,%ld,", (long)res.pid);
	TEST_OK(trace && strstr(trace, want) && strstr(trace, ",exit 3\n"),
		"a process row for the command, with its status");
	TEST_OK(strstr(warned, "no injection library") != NULL,
		"a missing injection library is a warning through the callback: %s", warned);
	TEST_OK(getenv("RLPROF_SPOOL_DIR") && access(getenv("RLPROF_SPOOL_DIR"), F_OK) != 0,
		"the spool folder is gone afterwards");
	free(trace);
	trace = NULL;
	TEST_EQ_LONG(record(kill_self, 0, &res, &err, &trace), 0, "a command killed by a signal");
	TEST_EQ_LONG(res.exit_code, 128 + 15, "exits 128 + SIGTERM");
	TEST_OK(trace && strstr(trace, ",signal SIGTERM\n"), "its process row says the signal");
	free(trace);
}

static void test_exec_errors(void)
{
	char *missing[] = { "rlkit-test-no-such-command", NULL };
	char *dir[] = { "/", NULL };
	struct prof_launch_result res;
	struct core_error err = CORE_ERROR_INIT;
	char *trace = NULL;

	TEST_EQ_LONG(record(missing, 5, &res, &err, &trace), -ENOENT, "a missing command");
	TEST_OK(res.exec_errno == ENOENT && core_spawn_error_exit(err.code) == 127,
		"not found: exec_errno and 127");
	TEST_EQ_STR(err.msg, "cannot run 'rlkit-test-no-such-command': No such file or directory",
		    "the message");
	TEST_OK(!trace || !*trace, "no trace written");
	free(trace);
	trace = NULL;
	TEST_EQ_LONG(record(dir, 5, &res, &err, &trace), -EACCES, "a folder is not executable");
	TEST_EQ_LONG(core_spawn_error_exit(err.code), 126, "126");
	TEST_EQ_LONG(res.output_failed, 0, "not an output error");
	free(trace);
}

int main(void)
{
	setenv("RLPROF_INJECT_LIB", "/nonexistent/librlprof-inject.so", 1);
	test_status();
	test_exec_errors();
	return test_done();
}
