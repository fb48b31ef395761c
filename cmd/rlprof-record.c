/* rlprof-record: run a command and record where its time goes. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/atomic.h"
#include "core/cli.h"
#include "core/clock.h"
#include "core/exitcode.h"
#include "core/msg.h"
#include "prof/launch.h"
#include "prof/merge.h"
#include "prof/recorder.h"
#include "prof/sample.h"
#include "prof/spool.h"
#include "prof/trace_write.h"

#define INJECT_REL "../lib/rlkit/librlprof-inject.so"
#define PYTHON_REL "../share/rlkit/python"

enum {
	OPT_FORCE = CORE_OPT_LONG_ONLY,
	OPT_NO_NVTX,
	OPT_NO_PYTHON,
	OPT_BUFFER,
	OPT_SAMPLE,
};

static const struct core_opt opts[] = {
	{ "output", 'o', "FILE", "write the trace to FILE ('-': stdout; default rlprof.csv)", NULL },
	{ "format", 'f', "FORMAT", "trace format: csv (default) or jsonl", "csv|jsonl" },
	{ "force", OPT_FORCE, NULL, "replace FILE when it exists", NULL },
	{ "no-nvtx", OPT_NO_NVTX, NULL, "do not record NVTX annotations", NULL },
	{ "no-python", OPT_NO_PYTHON, NULL, "do not inject the Python module (no automatic categories)", NULL },
	{ "buffer-size", OPT_BUFFER, "KIB", "per-thread event buffer of the command in KiB (default 256)", NULL },
	{ "sample", OPT_SAMPLE, "MS", "sample processes and blocked threads every MS ms (default 5; 0: never)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct core_cli cli = {
	.usage = "[-o FILE] [-f FORMAT] [options] [--] COMMAND [ARG ...]",
	.summary = "Run COMMAND and record where its time goes (annotated operations, CPU\n"
		   "categories, processes and threads) into a trace for rlprof-report(1).",
	.opts = opts,
	.stop_at_nonopt = 1,
};

struct options {
	const char *output;
	enum prof_trace_format format;
	int force, nvtx, python;
	long buffer_kib, sample_ms;
};

static int handle(int key, const char *arg, void *ctx)
{
	struct options *o = ctx;

	switch (key) {
	case 'o':
		o->output = arg;
		break;
	case 'f':
		if (prof_trace_format_parse(arg, &o->format) < 0)
			core_cli_usage_error(&cli, "unknown format '%s' (csv or jsonl)", arg);
		break;
	case OPT_FORCE:
		o->force = 1;
		break;
	case OPT_NO_NVTX:
		o->nvtx = 0;
		break;
	case OPT_NO_PYTHON:
		o->python = 0;
		break;
	case OPT_BUFFER:
		if (core_cli_parse_long(arg, 4, 1048576, &o->buffer_kib) < 0)
			core_cli_usage_error(&cli, "--buffer-size wants KiB from 4 to 1048576, not '%s'", arg);
		break;
	case OPT_SAMPLE:
		if (core_cli_parse_long(arg, 0, 60000, &o->sample_ms) < 0)
			core_cli_usage_error(&cli, "--sample wants milliseconds from 0 to 60000, not '%s'", arg);
		break;
	}
	return 0;
}

static volatile sig_atomic_t child_pid;

/* Signals that a process sends us go on to the command; those from the
 * terminal (Ctrl-C) reach the command by themselves. */
static void forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (child_pid > 0 && si->si_code <= 0)
		kill((pid_t)child_pid, sig);
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };

/* Block or unblock the forwarded signals: blocked while the command starts,
 * so that one that comes early waits until its pid is known. */
static void block_signals(int how)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaddset(&set, forwarded[i]);
	sigprocmask(how, &set, NULL);
}

static void catch_signals(void)
{
	const int *sigs = forwarded;
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	/* Signals ignored when we started stay ignored, for us and the
	 * command (nohup, background jobs of scripts). */
	for (i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++) {
		struct sigaction old;

		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
}

/* A resource: from an environment variable, else next to the program. */
static char *resource(const char *env, const char *rel)
{
	const char *v = getenv(env);

	if (v && *v)
		return strdup(v);
	return prof_launch_relpath(rel);
}

static void setup_env(const struct options *o, const char *spool)
{
	char buf[32];
	char *lib = resource("RLPROF_INJECT_LIB", INJECT_REL);

	setenv(PROF_SPOOL_ENV, spool, 1);
	snprintf(buf, sizeof(buf), "%ld", o->buffer_kib);
	setenv(PROF_REC_BUFFER_ENV, buf, 1);
	if (lib && access(lib, R_OK) == 0) {
		setenv("RLPROF_LIB", lib, 1);
		if (o->nvtx)
			setenv("NVTX_INJECTION64_PATH", lib, 1);
	} else if (o->nvtx || o->python) {
		core_msg_warning("no injection library '%s': NVTX and Python annotations "
				 "are not recorded", lib ? lib : INJECT_REL);
	}
	if (o->python) {
		char *py = resource("RLPROF_PYTHON_DIR", PYTHON_REL);
		const char *old = getenv("PYTHONPATH");
		char *path = NULL;

		if (py && asprintf(&path, "%s/inject%s%s", py, old && *old ? ":" : "",
				   old ? old : "") >= 0)
			setenv("PYTHONPATH", path, 1);
		free(path);
		free(py);
	}
	free(lib);
}

static int write_meta(struct prof_trace_writer *w, const char *key, const char *value)
{
	struct prof_event ev = PROF_EVENT_INIT;

	ev.kind = PROF_KIND_META;
	ev.name = key;
	ev.detail = value;
	return prof_trace_write(w, &ev);
}

static char *join_args(char **argv)
{
	size_t len = 1, i;
	char *s;

	for (i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	for (i = 0; s && argv[i]; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* The exit status of rlprof-record for the command's wait status. */
static int exit_status(int status)
{
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static int write_trace(const struct options *o, struct core_atomic *af, const char *spool,
		       char **argv, pid_t pid, int64_t start, int64_t end, int status,
		       struct prof_sampler *sampler, struct core_error *err)
{
	struct prof_trace_writer w;
	struct prof_merge *m = NULL;
	struct prof_process_info child = { pid, getpid(), start, end, NULL, NULL, 0 };
	char buf[64], host[256] = "", *cmd = join_args(argv);
	int ret;

	snprintf(buf, sizeof(buf), "%lld", (long long)start);
	gethostname(host, sizeof(host) - 1);
	child.command = cmd;
	child.detail = prof_merge_status_text(status, buf + 32, 32);
	if (!cmd || prof_merge_new(&m) < 0 || prof_merge_process(m, &child) < 0) {
		ret = core_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	ret = -EIO;
	if (prof_trace_writer_init(&w, af->fp, o->format) < 0 ||
	    write_meta(&w, "trace_version", "1") < 0 ||
	    write_meta(&w, "clock", "CLOCK_REALTIME") < 0 ||
	    write_meta(&w, "recorder", "rlprof-record " RLKIT_VERSION) < 0 ||
	    write_meta(&w, "command", cmd) < 0 ||
	    write_meta(&w, "host", host) < 0 ||
	    write_meta(&w, "start_ns", buf) < 0) {
		core_error_errno(err, errno > 0 ? errno : EIO, "writing the trace failed");
		goto out;
	}
	if (sampler && (ret = prof_sampler_finish(sampler, m, &w)) < 0) {
		if (ret == -ENOMEM)
			core_error_set(err, ret, "out of memory");
		else
			core_error_errno(err, -ret, "writing the trace failed");
		goto out;
	}
	ret = prof_merge_dir(m, spool, &w, err);
	if (ret < 0)
		goto out;
	if ((ret = prof_merge_finish(m, &w)) < 0) {
		core_error_errno(err, -ret, "writing the trace failed");
		goto out;
	}
	ret = 0;
out:
	prof_merge_free(m);
	free(cmd);
	return ret;
}

/* Wait for the command; meanwhile sample it, and reap the orphaned
 * descendants that come to us as a subreaper. */
static void wait_command(pid_t pid, int *status, struct prof_sampler *sampler, long ms)
{
	for (;;) {
		int st;
		pid_t r = waitpid(-1, &st, sampler ? WNOHANG : 0);

		if (r == pid) {
			*status = st;
			return;
		}
		if (r > 0) {
			if (sampler)
				prof_sampler_reaped(sampler, r, st);
			continue;
		}
		if (r < 0 && errno != EINTR)
			return;	/* cannot happen: pid is our child */
		if (r == 0) {
			if (prof_sampler_poll(sampler) < 0)
				core_msg_die(CORE_EXIT_FAIL, "out of memory");
			core_clock_sleep_ns(ms * 1000000);
		}
	}
}

int main(int argc, char **argv)
{
	struct options o = { "rlprof.csv", PROF_TRACE_CSV, 0, 1, 1, 256, 5 };
	struct prof_sampler *sampler = NULL;
	struct core_atomic af = CORE_ATOMIC_INIT;
	struct core_error err = CORE_ERROR_INIT;
	char spool_dir[PATH_MAX];
	int64_t start, end;
	int status = 0, i, ret;
	pid_t pid;

	core_msg_init(argv[0]);
	i = core_cli_parse(&cli, argc, argv, handle, &o);
	if (i >= argc)
		core_cli_usage_error(&cli, "no command to run");
	if (core_atomic_open(&af, o.output, o.force ? CORE_ATOMIC_FORCE : 0, &err) < 0)
		core_msg_die_err(CORE_EXIT_FAIL, &err);
	if (af.fp != stdout)
		fcntl(fileno(af.fp), F_SETFD, FD_CLOEXEC);
	if (prof_spool_dir_make(spool_dir, sizeof(spool_dir), &err) < 0) {
		core_atomic_abort(&af);
		core_msg_die_err(CORE_EXIT_FAIL, &err);
	}
	setup_env(&o, spool_dir);
	catch_signals();
	/* Descendants whose parent dies come to us, and stay in the tree. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	start = core_clock_real_ns();
	block_signals(SIG_BLOCK);
	/* With -o -, standard output is the trace's: the command writes to
	 * standard error instead. */
	ret = prof_launch(argv + i, af.fp == stdout ? STDERR_FILENO : -1, &pid, &err);
	if (ret < 0) {
		core_atomic_abort(&af);
		prof_spool_dir_remove(spool_dir);
		core_msg_error("%s", err.msg);
		if (ret != PROF_LAUNCH_EXEC)
			return CORE_EXIT_FAIL;
		return err.code == -ENOENT ? CORE_EXIT_NOTFOUND : CORE_EXIT_NOEXEC;
	}
	child_pid = pid;
	block_signals(SIG_UNBLOCK);
	if (o.sample_ms > 0 && prof_sampler_new(&sampler, pid) < 0)
		core_msg_die(CORE_EXIT_FAIL, "out of memory");
	wait_command(pid, &status, sampler, o.sample_ms);
	end = core_clock_real_ns();
	child_pid = 0;
	if (write_trace(&o, &af, spool_dir, argv + i, pid, start, end, status, sampler, &err) < 0) {
		int output_failed = ferror(af.fp) && err.code != -ENOMEM;

		core_atomic_abort(&af);
		prof_spool_dir_remove(spool_dir);
		/* Not an output error (memory, the spool): say it as it is. */
		if (!output_failed)
			core_msg_die_err(CORE_EXIT_FAIL, &err);
		if (!strcmp(o.output, "-"))
			core_msg_die(CORE_EXIT_FAIL, "writing output failed: %s", strerror(-err.code));
		core_msg_die(CORE_EXIT_FAIL, "writing '%s' failed: %s", o.output, strerror(-err.code));
	}
	prof_spool_dir_remove(spool_dir);
	prof_sampler_free(sampler);
	if (core_atomic_commit(&af, &err) < 0)
		core_msg_die_err(CORE_EXIT_FAIL, &err);
	return exit_status(status);
}
