/* core/spawn.h: starting, exec failures, environment, signals, groups,
 * wait statuses, joining a cgroup. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/spawn.h"
#include "test.h"

/* Run argv (through sh -c when given a script) and return its exit code,
 * or the negative error of core_spawn_start. */
static int run(struct core_spawn *sp, struct core_error *err)
{
	int st, ret = core_spawn_start(sp, err);

	if (ret < 0)
		return ret;
	while (waitpid(sp->pid, &st, 0) < 0)
		;
	return core_spawn_exit_code(st);
}

static int sh(const char *script, int keep_ignored)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	struct core_spawn sp = CORE_SPAWN_INIT;

	sp.argv = argv;
	sp.keep_ignored = keep_ignored;
	return run(&sp, NULL);
}

static void test_exit_codes(void)
{
	TEST_EQ_LONG(sh("exit 0", 0), 0, "exit 0");
	TEST_EQ_LONG(sh("exit 3", 0), 3, "exit 3");
	TEST_EQ_LONG(sh("exit 255", 0), 255, "exit 255");
	TEST_EQ_LONG(sh("kill -TERM $$", 0), 128 + SIGTERM, "killed by SIGTERM: 143");
	TEST_EQ_LONG(sh("kill -KILL $$", 0), 128 + SIGKILL, "killed by SIGKILL: 137");
}

static void test_exec_errors(void)
{
	struct core_error err = CORE_ERROR_INIT;
	struct core_spawn sp = CORE_SPAWN_INIT;
	char *missing[] = { "rlkit-test-no-such-command", NULL };
	char path[600], *plain[] = { path, NULL }, *pwd[] = { "true", NULL };
	int fd;

	sp.argv = missing;
	TEST_EQ_LONG(run(&sp, &err), -ENOENT, "a missing command: -ENOENT");
	TEST_EQ_LONG(sp.exec_errno, ENOENT, "exec_errno says so");
	TEST_EQ_LONG(sp.pid, 0, "no pid for a command that never ran");
	TEST_EQ_STR(err.msg, "cannot run 'rlkit-test-no-such-command': No such file or directory",
		    "the message");
	TEST_EQ_LONG(core_spawn_error_exit(err.code), 127, "not found: 127");
	/* A file that is not executable. */
	snprintf(path, sizeof(path), "%s/not-executable", test_tmpdir());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	TEST_OK(fd >= 0 && write(fd, "#!/bin/sh\n", 10) == 10, "a script without x bit");
	close(fd);
	sp = (struct core_spawn)CORE_SPAWN_INIT;
	sp.argv = plain;
	TEST_EQ_LONG(run(&sp, &err), -EACCES, "not executable: -EACCES");
	TEST_EQ_LONG(core_spawn_error_exit(err.code), 126, "not executable: 126");
	/* The child's set-up fails: the error comes back the same way. */
	sp = (struct core_spawn)CORE_SPAWN_INIT;
	sp.argv = pwd;
	sp.dir = "/nonexistent-rlkit-folder";
	TEST_EQ_LONG(run(&sp, &err), -ENOENT, "a missing working folder");
	TEST_EQ_LONG(sp.exec_errno, ENOENT, "reported through the pipe");
	sp.dir = NULL;
	sp.out_fd = 1000;	/* not open */
	TEST_EQ_LONG(run(&sp, &err), -EBADF, "a bad redirection");
	sp.out_fd = -1;
	TEST_EQ_LONG(run(&sp, &err), 0, "the same command, set up right");
	TEST_EQ_LONG(sp.exec_errno, 0, "no exec error then");
}

static void test_env_and_fds(void)
{
	static const char *const set[] = { "RLKIT_A=new", "RLKIT_C=3", NULL };
	static const char *const unset[] = { "RLKIT_B", NULL };
	char *argv[] = { "sh", "-c", "printf '%s|%s|%s|%s|%s' \"$RLKIT_A\" \"${RLKIT_B-unset}\" "
			 "\"$RLKIT_C\" \"$RLKIT_BB\" \"$(pwd)\"", NULL };
	struct core_spawn sp = CORE_SPAWN_INIT;
	char out[256] = "", want[300];
	int fds[2];
	ssize_t n;

	setenv("RLKIT_A", "old", 1);
	setenv("RLKIT_B", "gone", 1);
	setenv("RLKIT_BB", "kept", 1);
	if (pipe(fds) < 0)
		return;
	sp.argv = argv;
	sp.env_set = set;
	sp.env_unset = unset;
	sp.out_fd = fds[1];
	sp.dir = "/";
	TEST_EQ_LONG(run(&sp, NULL), 0, "a command with its own environment");
	close(fds[1]);
	n = read(fds[0], out, sizeof(out) - 1);
	close(fds[0]);
	out[n > 0 ? n : 0] = '\0';
	snprintf(want, sizeof(want), "new|unset|3|kept|/");
	TEST_EQ_STR(out, want, "set over ours, unset removed (not a longer name), in dir");
	TEST_EQ_STR(getenv("RLKIT_A"), "old", "our own environment unchanged");
}

static void test_env_build(void)
{
	char *envp[] = { "A=1", "AB=2", "B=3", "C=4", NULL };
	const char *const set[] = { "B=9", "D=5", NULL };
	const char *const unset[] = { "A", "C=", NULL };
	char **e = core_spawn_env(envp, set, unset);
	char got[64] = "";
	size_t i;

	for (i = 0; e && e[i]; i++) {
		strcat(got, e[i]);
		strcat(got, " ");
	}
	TEST_EQ_STR(got, "AB=2 C=4 B=9 D=5 ", "env: unset by exact name, set replaces and adds");
	free(e);
	e = core_spawn_env(NULL, NULL, NULL);
	TEST_OK(e && !e[0], "env: nothing gives an empty list");
	free(e);
}

static void test_signals(void)
{
	struct sigaction ign, old;

	/* A signal we ignore: kept with keep_ignored, reset otherwise. */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGUSR1, &ign, &old);
	TEST_EQ_LONG(sh("kill -USR1 $$; exit 5", 1), 5, "keep_ignored: an ignored signal stays ignored");
	TEST_EQ_LONG(sh("kill -USR1 $$; exit 5", 0), 128 + SIGUSR1, "otherwise it is reset");
	sigaction(SIGUSR1, &old, NULL);
	/* A blocked signal: the child's mask is empty. */
	{
		sigset_t set, was;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR2);
		sigprocmask(SIG_BLOCK, &set, &was);
		TEST_EQ_LONG(sh("kill -USR2 $$; exit 5", 1), 128 + SIGUSR2, "our blocked signals are not the child's");
		sigprocmask(SIG_SETMASK, &was, NULL);
	}
}

static void test_groups(void)
{
	char *argv[] = { "sh", "-c", "sleep 1000 & read x; exit 9", NULL };
	struct core_spawn sp = CORE_SPAWN_INIT;
	int fds[2], st = 0;

	if (pipe(fds) < 0)
		return;
	sp.argv = argv;
	sp.in_fd = fds[0];
	sp.new_pgrp = 1;
	TEST_EQ_LONG(core_spawn_start(&sp, NULL), 0, "start a group leader");
	close(fds[0]);
	TEST_EQ_LONG(getpgid(sp.pid), sp.pid, "it leads its own group when start returns");
	TEST_OK(getpgid(0) != sp.pid, "we are not in it");
	TEST_EQ_LONG(core_spawn_kill_group(sp.pid, SIGKILL), 0, "kill the group");
	waitpid(sp.pid, &st, 0);
	TEST_EQ_LONG(core_spawn_exit_code(st), 128 + SIGKILL, "the leader died of it");
	close(fds[1]);
	TEST_EQ_LONG(core_spawn_kill_group(0, SIGKILL), -EINVAL, "group 0 is refused, not ours");
	TEST_EQ_LONG(core_spawn_kill_group(-1, SIGKILL), -EINVAL, "negative groups are refused");
}

static void test_status(void)
{
	char buf[32];

	TEST_EQ_STR(core_spawn_status_text(W_EXITCODE(3, 0), buf, sizeof(buf)), "exit 3", "text: exit");
	TEST_EQ_STR(core_spawn_status_text(W_EXITCODE(0, SIGSEGV), buf, sizeof(buf)),
		    "signal SIGSEGV", "text: signal");
	TEST_EQ_STR(core_spawn_signal_text(SIGINT, buf, sizeof(buf)), "signal SIGINT", "signal name");
	TEST_EQ_STR(core_spawn_signal_text(200, buf, sizeof(buf)), "signal 200", "unnamed signal");
	TEST_EQ_STR(core_spawn_signal_text(SIGTERM, buf, 10), "signal SI", "cut to the buffer");
	TEST_EQ_LONG(core_spawn_exit_code(W_EXITCODE(0, SIGINT)), 130, "SIGINT: 130");
	TEST_EQ_LONG(core_spawn_exit_code(W_STOPCODE(SIGSTOP)), 1, "a stopped status: 1");
	TEST_EQ_LONG(core_spawn_error_exit(-EACCES), 126, "EACCES: 126");
	TEST_EQ_LONG(core_spawn_error_exit(-ENOEXEC), 126, "ENOEXEC: 126");
}

/* cgroup_fd: the child writes "0" to it (a cgroup.procs: itself) before it execs. */
static void test_cgroup_fd(void)
{
	struct core_error err = CORE_ERROR_INIT;
	char *argv[] = { "true", NULL }, got[8] = "";
	struct core_spawn sp = CORE_SPAWN_INIT;
	int fds[2], st = 0, ro;

	TEST_EQ_LONG(sp.cgroup_fd, -1, "CORE_SPAWN_INIT: no cgroup");
	if (pipe(fds) < 0)
		return;
	sp.argv = argv;
	sp.cgroup_fd = fds[1];
	TEST_EQ_LONG(core_spawn_start(&sp, NULL), 0, "start with a cgroup_fd");
	waitpid(sp.pid, &st, 0);
	close(fds[1]);
	TEST_EQ_LONG(read(fds[0], got, sizeof(got) - 1), 1, "the child wrote once");
	TEST_EQ_STR(got, "0", "\"0\": the writer");
	close(fds[0]);
	ro = open("/dev/null", O_RDONLY);
	sp = (struct core_spawn)CORE_SPAWN_INIT;
	sp.argv = argv;
	sp.cgroup_fd = ro;
	TEST_EQ_LONG(core_spawn_start(&sp, &err), -EBADF, "a group it cannot join: not run");
	TEST_EQ_STR(err.msg, "cannot run 'true': Bad file descriptor", "said so");
	close(ro);
}

int main(void)
{
	test_exit_codes();
	test_exec_errors();
	test_env_and_fds();
	test_env_build();
	test_signals();
	test_groups();
	test_status();
	test_cgroup_fd();
	return test_done();
}
