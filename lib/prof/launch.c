#include "prof/launch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/clock.h"
#include "core/spawn.h"
#include "core/sys.h"
#include "prof/cpusample.h"
#include "prof/cupti_status.h"
#include "prof/merge.h"
#include "prof/recorder.h"
#include "prof/sample.h"
#include "prof/spool.h"
#include "prof/trace_sort.h"

#define INJECT_REL "../lib/rlkit/librlprof-inject.so"
#define PYTHON_REL "../share/rlkit/python"
#define CATEGORIES_REL "../share/rlkit/rlprof-categories"

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
#define NFORWARDED (sizeof(forwarded) / sizeof(forwarded[0]))

/* Block or unblock the forwarded signals: blocked while the command starts,
 * so that one that comes early waits until its pid is known. */
static void block_signals(int how)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < NFORWARDED; i++)
		sigaddset(&set, forwarded[i]);
	sigprocmask(how, &set, NULL);
}

static void catch_signals(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	/* Signals ignored when we started stay ignored, for us and the
	 * command (nohup, background jobs of scripts). */
	for (i = 0; i < NFORWARDED; i++) {
		struct sigaction old;

		if (sigaction(forwarded[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(forwarded[i], &sa, NULL);
	}
}

/* A resource: from an environment variable, else next to the program. */
static char *resource(const char *env, const char *rel)
{
	const char *v = getenv(env);
	char *path;

	if (v && *v)
		return strdup(v);
	return core_sys_exe_relative(rel, &path) < 0 ? NULL : path;
}

static void warn(const struct prof_launch_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(const struct prof_launch_opts *o, const char *fmt, ...)
{
	char msg[PATH_MAX + 128];
	va_list ap;

	if (!o->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->warn(o->warn_ctx, msg);
}

/* The CUDA injection library unless one is named already: else why not. */
static void setup_cuda(const struct prof_launch_opts *o, const char *lib,
		       struct prof_launch_result *res)
{
	const char *old = getenv("CUDA_INJECTION64_PATH");

	if (!o->gpu) {
		snprintf(res->gpu_why, sizeof(res->gpu_why), "turned off (--no-gpu)");
	} else if (!lib) {
		snprintf(res->gpu_why, sizeof(res->gpu_why), "no injection library");
	} else if (old && *old && strcmp(old, lib)) {
		snprintf(res->gpu_why, sizeof(res->gpu_why),
			 "CUDA_INJECTION64_PATH names another injection library");
	} else {
		setenv("CUDA_INJECTION64_PATH", lib, 1);
	}
}

static void setup_env(const struct prof_launch_opts *o, const char *spool,
		      struct prof_launch_result *res)
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
		setup_cuda(o, lib, res);
	} else if (o->nvtx || o->python) {
		warn(o, "no injection library '%s': NVTX and Python annotations "
		     "are not recorded", lib ? lib : INJECT_REL);
		setup_cuda(o, NULL, res);
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
	snprintf(buf, sizeof(buf), "%ld", o->cpu_sample_us);
	setenv(PROF_CPU_SAMPLE_ENV, buf, 1);
	if (o->cpu_timer)
		setenv(PROF_CPU_TIMER_ENV, o->cpu_timer, 1);
	if (o->cpu_rows)
		setenv(PROF_CPU_ROWS_ENV, "1", 1);
	else
		unsetenv(PROF_CPU_ROWS_ENV);
	if (o->cpu_sample_us > 0) {
		char *map = o->categories ? strdup(o->categories) :
			resource(PROF_CATEGORIES_ENV, CATEGORIES_REL);

		if (map && access(map, R_OK) == 0)
			setenv(PROF_CATEGORIES_ENV, map, 1);
		else
			warn(o, "no category map '%s': sampled CPU time counts as native",
			     map ? map : CATEGORIES_REL);
		free(map);
	}
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

/* A process that wrote CPU segments measured its own waits: pass 1 of the
 * merge tells. */
static int measured(void *ctx, int64_t pid)
{
	return prof_merge_has_segments(ctx, pid);
}

/* Whether GPU activity was recorded, into res and a meta row. */
static int gpu_meta(struct prof_trace_writer *w, const char *spool,
		    struct prof_launch_result *res)
{
	char buf[sizeof(res->gpu_why)], text[sizeof(res->gpu_why) + 16];
	int r = -1;

	if (!res->gpu_why[0]) {
		r = prof_gpu_status_read(spool, buf, sizeof(buf));
		if (r < 0 && prof_gpu_probe(0, buf, sizeof(buf)) == 0)
			snprintf(buf, sizeof(buf), "no process initialised CUDA");
		snprintf(res->gpu_why, sizeof(res->gpu_why), "%s", buf);
	}
	res->gpu_recorded = r == 1;
	snprintf(text, sizeof(text), "%s: %s", r == 1 ? "recorded" : "not recorded",
		 res->gpu_why);
	if (r == 1)
		res->gpu_why[0] = 0;
	return write_meta(w, "gpu", text);
}

static int write_trace(const struct prof_launch_opts *o, const char *spool,
		       struct prof_launch_result *res, int64_t start, int64_t end,
		       struct prof_sampler *sampler, struct core_error *err)
{
	struct prof_trace_writer w;
	struct prof_trace_sort *sort = NULL;
	struct prof_merge *m = NULL;
	struct prof_process_info child = { res->pid, getpid(), start, end, NULL, NULL, 0 };
	char buf[64], host[256] = "", recorder[64], us[32], *cmd = join_args(o->argv);
	int ret;

	snprintf(buf, sizeof(buf), "%lld", (long long)start);
	snprintf(us, sizeof(us), "%ld", o->cpu_sample_us);
	snprintf(recorder, sizeof(recorder), "rlprof-record %s", core_cli_version());
	gethostname(host, sizeof(host) - 1);
	child.command = cmd;
	child.detail = core_spawn_status_text(res->status, buf + 32, 32);
	if (!cmd || prof_merge_new(&m) < 0 || prof_merge_process(m, &child) < 0 ||
	    prof_trace_sort_new(&sort, 0) < 0) {
		ret = core_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	ret = -EIO;
	if (prof_trace_writer_init(&w, o->out, o->format) < 0 ||
	    write_meta(&w, "trace_version", "1") < 0 ||
	    write_meta(&w, "clock", "CLOCK_REALTIME") < 0 ||
	    write_meta(&w, "recorder", recorder) < 0 ||
	    write_meta(&w, "command", cmd) < 0 ||
	    write_meta(&w, "host", host) < 0 ||
	    write_meta(&w, "start_ns", buf) < 0 ||
	    write_meta(&w, "cpu_sample_us", us) < 0 ||
	    write_meta(&w, PROF_TRACE_ORDER_META, PROF_TRACE_ORDER_START) < 0) {
		core_error_errno(err, errno > 0 ? errno : EIO, "writing the trace failed");
		goto out;
	}
	/* Event rows in the report's order; process and thread rows last. */
	w.sort = sort;
	if ((ret = prof_merge_scan(m, spool, err)) < 0)
		goto out;
	if (sampler)
		prof_sampler_measured(sampler, measured, m);
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
	if (gpu_meta(&w, spool, res) < 0) {
		ret = core_error_errno(err, errno > 0 ? errno : EIO, "writing the trace failed");
		goto out;
	}
	w.sort = NULL;
	if ((ret = prof_trace_sort_finish(sort, &w, err)) < 0)
		goto out;
	if ((ret = prof_merge_finish(m, &w)) < 0) {
		core_error_errno(err, -ret, "writing the trace failed");
		goto out;
	}
	ret = 0;
out:
	prof_trace_sort_free(sort);
	prof_merge_free(m);
	free(cmd);
	return ret;
}

/* Wait for the command; meanwhile sample it, and reap the orphaned
 * descendants that come to us as a subreaper.  0 or -ENOMEM. */
static int wait_command(pid_t pid, int *status, struct prof_sampler *sampler, long ms)
{
	for (;;) {
		int st;
		pid_t r = waitpid(-1, &st, sampler ? WNOHANG : 0);

		if (r == pid) {
			*status = st;
			return 0;
		}
		if (r > 0) {
			if (sampler)
				prof_sampler_reaped(sampler, r, st);
			continue;
		}
		if (r < 0 && errno != EINTR)
			return 0;	/* cannot happen: pid is our child */
		if (r == 0) {
			if (prof_sampler_poll(sampler) < 0)
				return -ENOMEM;
			core_clock_sleep_ns(ms * 1000000);
		}
	}
}

int prof_launch_run(const struct prof_launch_opts *o, struct prof_launch_result *res,
		    struct core_error *err)
{
	struct core_spawn sp = CORE_SPAWN_INIT;
	struct prof_sampler *sampler = NULL;
	char spool[PATH_MAX];
	int64_t start, end;
	int ret;

	memset(res, 0, sizeof(*res));
	if (o->out != stdout)
		fcntl(fileno(o->out), F_SETFD, FD_CLOEXEC);
	ret = prof_spool_dir_make(spool, sizeof(spool), err);
	if (ret < 0)
		return ret;
	setup_env(o, spool, res);
	catch_signals();
	/* Descendants whose parent dies come to us, and stay in the tree. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	start = core_clock_real_ns();
	block_signals(SIG_BLOCK);
	sp.argv = o->argv;
	sp.out_fd = o->stdout_fd;
	sp.keep_ignored = 1;
	ret = core_spawn_start(&sp, err);
	if (ret < 0) {
		res->exec_errno = sp.exec_errno;
		goto out;
	}
	res->pid = sp.pid;
	child_pid = sp.pid;
	block_signals(SIG_UNBLOCK);
	if (o->sample_ms > 0 && prof_sampler_new(&sampler, sp.pid) < 0) {
		ret = core_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	ret = wait_command(sp.pid, &res->status, sampler, o->sample_ms);
	end = core_clock_real_ns();
	child_pid = 0;
	if (ret < 0) {
		core_error_set(err, ret, "out of memory");
		goto out;
	}
	res->exit_code = core_spawn_exit_code(res->status);
	ret = write_trace(o, spool, res, start, end, sampler, err);
	if (ret < 0)
		res->output_failed = ferror(o->out) && err->code != -ENOMEM;
out:
	block_signals(SIG_UNBLOCK);
	prof_spool_dir_remove(spool);
	prof_sampler_free(sampler);
	return ret;
}
