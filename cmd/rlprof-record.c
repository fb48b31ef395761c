/* rlprof-record: run a command and record where its time goes. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/atomic.h"
#include "core/cli.h"
#include "core/exitcode.h"
#include "core/msg.h"
#include "core/spawn.h"
#include "prof/catmap.h"
#include "prof/cupti_status.h"
#include "prof/launch.h"
#include "prof/trace_write.h"

enum {
	OPT_FORCE = CORE_OPT_LONG_ONLY,
	OPT_NO_NVTX,
	OPT_NO_PYTHON,
	OPT_BUFFER,
	OPT_SAMPLE,
	OPT_CPU_SAMPLE,
	OPT_CPU_TIMER,
	OPT_FULL_DETAIL,
	OPT_CATEGORIES,
	OPT_NO_GPU,
	OPT_REQUIRE_GPU,
};

static const struct core_opt opts[] = {
	{ "output", 'o', "FILE", "write the trace to FILE ('-': stdout; default rlprof.csv)", NULL },
	{ "format", 'f', "FORMAT", "trace format: csv (default) or jsonl", "csv|jsonl" },
	{ "force", OPT_FORCE, NULL, "replace FILE when it exists", NULL },
	{ "no-nvtx", OPT_NO_NVTX, NULL, "do not record NVTX annotations", NULL },
	{ "no-python", OPT_NO_PYTHON, NULL, "do not inject the Python module (no automatic categories)", NULL },
	{ "buffer-size", OPT_BUFFER, "KIB", "per-thread event buffer of the command in KiB (default 256)", NULL },
	{ "sample", OPT_SAMPLE, "MS", "sample processes and blocked threads every MS ms (default 5; 0: never)", NULL },
	{ "cpu-sample", OPT_CPU_SAMPLE, "US", "sample each thread's code every US us of its CPU time (default 1000; 0: never)", NULL },
	{ "full-detail", OPT_FULL_DETAIL, NULL, "a row per CPU sample too: its time, thread, category and file (some 100 bytes each)", NULL },
	{ "cpu-timer", OPT_CPU_TIMER, "KIND", "what samples: posix (CPU-clock timers, at the clock tick; default) or perf (perf events, every US, an interrupt each)", "posix|perf" },
	{ "no-gpu", OPT_NO_GPU, NULL, "do not record CUDA API calls and GPU activity (CUPTI)", NULL },
	{ "require-gpu", OPT_REQUIRE_GPU, NULL, "exit 3 when GPU activity cannot be recorded", NULL },
	{ "categories", OPT_CATEGORIES, "FILE", "the library-to-category map (default: the installed rlprof-categories)", NULL },
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
	int force, nvtx, python, gpu, require_gpu, full_detail;
	long buffer_kib, sample_ms, cpu_sample_us;
	const char *categories, *cpu_timer;
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
	case OPT_NO_GPU:
		o->gpu = 0;
		break;
	case OPT_REQUIRE_GPU:
		o->require_gpu = 1;
		break;
	case OPT_BUFFER:
		if (core_cli_parse_long(arg, 4, 1048576, &o->buffer_kib) < 0)
			core_cli_usage_error(&cli, "--buffer-size wants KiB from 4 to 1048576, not '%s'", arg);
		break;
	case OPT_CPU_SAMPLE:
		if (core_cli_parse_long(arg, 0, 1000000, &o->cpu_sample_us) < 0 ||
		    (o->cpu_sample_us > 0 && o->cpu_sample_us < 50))
			core_cli_usage_error(&cli, "--cpu-sample wants 0 or microseconds from 50 to 1000000, not '%s'", arg);
		break;
	case OPT_FULL_DETAIL:
		o->full_detail = 1;
		break;
	case OPT_CPU_TIMER:
		if (strcmp(arg, "posix") && strcmp(arg, "perf"))
			core_cli_usage_error(&cli, "--cpu-timer wants posix or perf, not '%s'", arg);
		o->cpu_timer = arg;
		break;
	case OPT_CATEGORIES:
		o->categories = arg;
		break;
	case OPT_SAMPLE:
		if (core_cli_parse_long(arg, 0, 60000, &o->sample_ms) < 0)
			core_cli_usage_error(&cli, "--sample wants milliseconds from 0 to 60000, not '%s'", arg);
		break;
	}
	return 0;
}

static void warn(void *ctx, const char *msg)
{
	(void)ctx;
	core_msg_warning("%s", msg);
}

int main(int argc, char **argv)
{
	struct options o = { "rlprof.csv", PROF_TRACE_CSV, 0, 1, 1, 1, 0, 0, 256, 5, 1000, NULL, NULL };
	struct prof_launch_opts lo = PROF_LAUNCH_OPTS_INIT;
	struct prof_launch_result res;
	struct core_atomic af = CORE_ATOMIC_INIT;
	struct core_error err = CORE_ERROR_INIT;
	int i;

	core_msg_init(argv[0]);
	i = core_cli_parse(&cli, argc, argv, handle, &o);
	if (i >= argc)
		core_cli_usage_error(&cli, "no command to run");
	if (o.categories) {
		struct prof_catmap map = PROF_CATMAP_INIT;
		int line = 0, ret = prof_catmap_load(&map, o.categories, &line);

		prof_catmap_release(&map);
		if (ret == -EINVAL)
			core_msg_die(CORE_EXIT_FAIL, "'%s' line %d: not a rule (PATTERN CATEGORY)",
				     o.categories, line);
		if (ret < 0)
			core_msg_die(CORE_EXIT_FAIL, "cannot read '%s': %s", o.categories, strerror(-ret));
	}
	if (o.full_detail && !o.cpu_sample_us)
		core_cli_usage_error(&cli, "--full-detail needs CPU sampling, which --cpu-sample 0 turns off");
	if (o.require_gpu && !o.gpu)
		core_cli_usage_error(&cli, "--require-gpu and --no-gpu contradict each other");
	if (o.require_gpu) {
		char why[256];

		if (prof_gpu_probe(1, why, sizeof(why)) < 0)
			core_msg_die(CORE_EXIT_MISSING, "%s", why);
	}
	if (core_atomic_open(&af, o.output, o.force ? CORE_ATOMIC_FORCE : 0, &err) < 0)
		core_msg_die_err(CORE_EXIT_FAIL, &err);
	lo.argv = argv + i;
	lo.out = af.fp;
	lo.format = o.format;
	lo.nvtx = o.nvtx;
	lo.python = o.python;
	lo.buffer_kib = o.buffer_kib;
	lo.sample_ms = o.sample_ms;
	lo.cpu_sample_us = o.cpu_sample_us;
	lo.categories = o.categories;
	lo.cpu_timer = o.cpu_timer;
	lo.cpu_rows = o.full_detail;
	lo.gpu = o.gpu;
	/* With -o -, standard output is the trace's: the command writes to
	 * standard error instead. */
	lo.stdout_fd = af.fp == stdout ? STDERR_FILENO : -1;
	lo.warn = warn;
	if (prof_launch_run(&lo, &res, &err) < 0) {
		core_atomic_abort(&af);
		if (res.exec_errno) {
			core_msg_error("%s", err.msg);
			return core_spawn_error_exit(err.code);
		}
		/* Not an output error (memory, the spool): say it as it is. */
		if (!res.output_failed)
			core_msg_die_err(CORE_EXIT_FAIL, &err);
		if (!strcmp(o.output, "-"))
			core_msg_die(CORE_EXIT_FAIL, "writing output failed: %s", strerror(-err.code));
		core_msg_die(CORE_EXIT_FAIL, "writing '%s' failed: %s", o.output, strerror(-err.code));
	}
	if (core_atomic_commit(&af, &err) < 0)
		core_msg_die_err(CORE_EXIT_FAIL, &err);
	if (o.require_gpu && !res.gpu_recorded)
		core_msg_die(CORE_EXIT_MISSING, "GPU activity not recorded: %s", res.gpu_why);
	return res.exit_code;
}
