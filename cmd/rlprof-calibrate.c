/*
 * rlprof-calibrate: what rlprof-record costs a command, per event of each
 * instrumentation source, for rlprof-report --calibration.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/atomic.h"
#include "core/cli.h"
#include "core/exitcode.h"
#include "core/json.h"
#include "core/msg.h"
#include "core/progress.h"
#include "core/spawn.h"
#include "core/table.h"
#include "prof/calib_run.h"

enum {
	OPT_SHOW = CORE_OPT_LONG_ONLY,
	OPT_LOG,
	OPT_VALIDATE,
};

static const struct core_opt opts[] = {
	{ "output", 'o', "FILE", "write the calibration to FILE (default rlprof-calibration.json; - for standard output)", NULL },
	{ "force", 'F', NULL, "replace an existing output file", NULL },
	{ "repeat", 'n', "N", "runs of each kind (default: 5 to 20, as the costs need)", NULL },
	{ "validate", OPT_VALIDATE, NULL, "run --repeat times more, alone and instrumented, correct and print the error", NULL },
	{ "format", 'f', "FORMAT", "format of the --validate figures (default: table on a terminal, else csv)",
	  "table|csv|json|jsonl" },
	{ "show-output", OPT_SHOW, NULL, "let the command write to this terminal", NULL },
	{ "log", OPT_LOG, "FILE", "append the command's output of every run to FILE", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct core_cli cli = {
	.usage = "[-o FILE] [options] [--] COMMAND [ARG ...]",
	.summary = "Measure what rlprof-record costs COMMAND per event, to correct its reports.",
	.footer = "Runs COMMAND uninstrumented and under rlprof-record with each source alone.\n",
	.opts = opts,
	.stop_at_nonopt = 1,
};

struct args {
	const char *output, *log;
	int force, show, validate, format;
	long repeat;
};

static int handle(int key, const char *arg, void *ctx)
{
	struct args *a = ctx;

	switch (key) {
	case 'o':
		a->output = arg;
		break;
	case 'F':
		a->force = 1;
		break;
	case 'n':
		if (core_cli_parse_long(arg, 1, 1000, &a->repeat) < 0)
			core_cli_usage_error(&cli, "bad repeat count '%s' (1 to 1000)", arg);
		break;
	case 'f':
		if ((a->format = core_format_parse(arg, CORE_FORMATS_ALL)) < 0)
			core_cli_usage_error(&cli, "unknown format '%s' (table, csv, json or jsonl)", arg);
		break;
	case OPT_VALIDATE:
		a->validate = 1;
		break;
	case OPT_SHOW:
		a->show = 1;
		break;
	case OPT_LOG:
		a->log = arg;
		break;
	default:
		return -1;
	}
	return 0;
}

static struct core_progress progress = CORE_PROGRESS_INIT;

static void on_progress(void *ctx, size_t done, size_t total)
{
	(void)ctx;
	progress.total = total;
	core_progress_update(&progress, done);
}

/* This program, which is also the timing wrapper of every run. */
static const char *find_self(void)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (n <= 0)
		return NULL;
	path[n] = 0;
	return path;
}

/* The timing wrapper (prof_calib_timed): argv[1..] is the command. */
static int timed(int argc, char **argv, const char *path)
{
	struct core_error err = CORE_ERROR_INIT;
	int ret;

	if (argc < 2)
		core_msg_die(CORE_EXIT_USAGE, "the timing wrapper needs a command");
	ret = prof_calib_timed(argv + 1, path, &err);
	if (ret < 0)
		core_msg_die_err(ret == -ENOENT || ret == -EACCES || ret == -ENOEXEC ?
				 core_spawn_error_exit(ret) : CORE_EXIT_FAIL, &err);
	return ret;
}

/* rlprof-record: $RLPROF_RECORD, else next to this program. */
static const char *find_record(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("RLPROF_RECORD");
	ssize_t n;
	char *slash;

	if (env && *env)
		return access(env, X_OK) ? NULL : env;
	n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	if (n <= 0)
		return NULL;
	path[n] = 0;
	if (!(slash = strrchr(path, '/')))
		return NULL;
	strcpy(slash + 1, "rlprof-record");
	return access(path, X_OK) ? NULL : path;
}

/*
 * PYTHONPATH=DIR[:$PYTHONPATH] with the folder of the rlprof module
 * ($RLPROF_PYTHON_DIR, else ../share/rlkit/python from this program), so
 * that an annotated Python program imports it uninstrumented too.
 */
static const char *python_path(void)
{
	static char buf[8192];
	char exe[PATH_MAX], *slash;
	const char *dir = getenv("RLPROF_PYTHON_DIR"), *old = getenv("PYTHONPATH");
	ssize_t n;

	if (!dir || !*dir) {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 32);
		if (n <= 0)
			return NULL;
		exe[n] = 0;
		if (!(slash = strrchr(exe, '/')))
			return NULL;
		*slash = 0;
		if (!(slash = strrchr(exe, '/')))
			return NULL;
		strcpy(slash, "/share/rlkit/python");
		dir = exe;
	}
	if ((size_t)snprintf(buf, sizeof(buf), "PYTHONPATH=%s%s%s", dir, old && *old ? ":" : "",
			     old && *old ? old : "") >= sizeof(buf))
		return NULL;
	return buf;
}

/* A run that failed: its status is ours, with the end of its stderr. */
static _Noreturn void failed(const struct prof_calib_failure *f, const char *cmd)
{
	char *line, *save = NULL;

	core_msg_error("the %s run of '%s' failed with exit status %d", f->run, cmd, f->exit_code);
	for (line = strtok_r((char *)f->tail, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		core_msg_note("stderr: %s", line);
	exit(f->exit_code ? f->exit_code : CORE_EXIT_FAIL);
}

static void summary(const struct prof_calib *cal)
{
	char base[32], err[32];
	int s;
	double cpu = (double)prof_calib_runs_median_cpu(&cal->base), u = prof_calib_default_uncertainty(cal);

	core_fmt_human_ns(base, sizeof(base), prof_calib_runs_median(&cal->base));
	core_msg_note("uninstrumented: %s (median of %zu runs)", base, cal->base.n);
	core_fmt_human_ns(err, sizeof(err), (int64_t)u);
	if (cal->base.n > 1 && cpu > 0)
		core_msg_note("the correction of a run with the default sources is known to within "
			      "%s (standard error; %.2f %% of the command's CPU time)", err, 100 * u / cpu);
	for (s = 0; s < PROF_CALIB_NSOURCES; s++) {
		const struct prof_calib_cost *c = &cal->cost[s];
		const struct prof_calib_runs *r = &cal->runs[s];

		if (!c->measured)
			core_msg_note("%s: no events, not measured", prof_calib_source_name(s));
		else
			core_msg_note("%s: %.1f ns per event, the median of %zu runs (standard error "
				      "%.1f ns; mean %.1f ns, spread %.1f ns; %llu events in the first)",
				      prof_calib_source_name(s), c->ns, c->samples,
				      prof_calib_uncertainty(cal, s), c->mean, c->spread,
				      (unsigned long long)r->events[0]);
	}
}

static const struct core_col vcols[] = {
	{ .name = "uninstrumented_ms", .type = CORE_COL_DURATION, .unit = "ms", .decimals = 3,
	  .title = "uninstrumented" },
	{ .name = "instrumented_ms", .type = CORE_COL_DURATION, .unit = "ms", .decimals = 3,
	  .title = "instrumented" },
	{ .name = "corrected_ms", .type = CORE_COL_DURATION, .unit = "ms", .decimals = 3,
	  .title = "corrected" },
	{ .name = "removed_ms", .type = CORE_COL_DURATION, .unit = "ms", .decimals = 3,
	  .title = "removed" },
	{ .name = "overhead_pct", .type = CORE_COL_FLOAT, .unit = "%", .decimals = 2,
	  .title = "overhead" },
	{ .name = "error_pct", .type = CORE_COL_FLOAT, .unit = "%", .decimals = 2,
	  .title = "corrected error" },
	{ .name = "uninstrumented_cpu_ms", .type = CORE_COL_DURATION, .unit = "ms", .decimals = 3,
	  .title = "CPU: uninstrumented" },
	{ .name = "instrumented_cpu_ms", .type = CORE_COL_DURATION, .unit = "ms", .decimals = 3,
	  .title = "instrumented" },
	{ .name = "corrected_cpu_ms", .type = CORE_COL_DURATION, .unit = "ms", .decimals = 3,
	  .title = "corrected" },
	{ .name = "cpu_overhead_pct", .type = CORE_COL_FLOAT, .unit = "%", .decimals = 2,
	  .title = "overhead" },
	{ .name = "cpu_error_pct", .type = CORE_COL_FLOAT, .unit = "%", .decimals = 2,
	  .title = "corrected error" },
	{ .name = "removed_cpu_ms", .type = CORE_COL_DURATION, .unit = "ms", .decimals = 3,
	  .title = "removed" },
};

static int write_validation(FILE *fp, const struct prof_calib_validation *v, enum core_format f)
{
	struct core_table t;
	int ret;

	core_table_init(&t, vcols, sizeof(vcols) / sizeof(vcols[0]), CORE_TABLE_RECORD);
	ret = core_table_add_row(&t, 0);
	if (!ret)
		ret = core_table_set_ns(&t, 0, v->uninstrumented_ns) | core_table_set_ns(&t, 1, v->instrumented_ns) |
		      core_table_set_ns(&t, 2, v->corrected_ns) | core_table_set_ns(&t, 3, v->fix.removed_ns) |
		      core_table_set_float(&t, 4, v->uncorrected_pct) | core_table_set_float(&t, 5, v->error_pct) |
		      core_table_set_ns(&t, 6, v->uninstrumented_cpu_ns) |
		      core_table_set_ns(&t, 7, v->instrumented_cpu_ns) |
		      core_table_set_ns(&t, 8, v->corrected_cpu_ns) |
		      core_table_set_float(&t, 9, v->cpu_uncorrected_pct) |
		      core_table_set_float(&t, 10, v->cpu_error_pct) |
		      core_table_set_ns(&t, 11, v->fix.removed_cpu_ns);
	if (!ret)
		ret = core_table_write(fp, &t, f);
	core_table_release(&t);
	return ret;
}

static json_t *validation_json(const struct prof_calib_validation *v)
{
	json_t *o = json_object();

	json_object_set_new(o, "runs", json_integer(v->runs));
	json_object_set_new(o, "uninstrumented_ns", json_integer(v->uninstrumented_ns));
	json_object_set_new(o, "instrumented_ns", json_integer(v->instrumented_ns));
	json_object_set_new(o, "corrected_ns", json_integer(v->corrected_ns));
	json_object_set_new(o, "removed_ns", json_integer(v->fix.removed_ns));
	json_object_set_new(o, "clamped_ns", json_integer(v->fix.clamped_ns));
	json_object_set_new(o, "overhead_pct", json_real(v->uncorrected_pct));
	json_object_set_new(o, "error_pct", json_real(v->error_pct));
	json_object_set_new(o, "uninstrumented_cpu_ns", json_integer(v->uninstrumented_cpu_ns));
	json_object_set_new(o, "instrumented_cpu_ns", json_integer(v->instrumented_cpu_ns));
	json_object_set_new(o, "corrected_cpu_ns", json_integer(v->corrected_cpu_ns));
	json_object_set_new(o, "cpu_overhead_pct", json_real(v->cpu_uncorrected_pct));
	json_object_set_new(o, "cpu_error_pct", json_real(v->cpu_error_pct));
	json_object_set_new(o, "removed_cpu_ns", json_integer(v->fix.removed_cpu_ns));
	return o;
}

static struct core_atomic out = CORE_ATOMIC_INIT;

static void abort_output(void)
{
	core_atomic_abort(&out);
}

int main(int argc, char **argv)
{
	struct args a = { "rlprof-calibration.json", NULL, 0, 0, 0, -1, 0 };
	struct prof_calib_run_opts o = PROF_CALIB_RUN_OPTS_INIT;
	struct prof_calib cal = PROF_CALIB_INIT;
	struct prof_calib_failure fail;
	struct prof_calib_validation v;
	struct core_error err = CORE_ERROR_INIT;
	char *cmd;
	json_t *doc;
	FILE *vfp;
	int optind_, ret;

	core_msg_init(argv[0]);
	if (getenv(PROF_CALIB_TIMES_ENV))
		return timed(argc, argv, getenv(PROF_CALIB_TIMES_ENV));
	optind_ = core_cli_parse(&cli, argc, argv, handle, &a);
	if (optind_ >= argc)
		core_cli_usage_error(&cli, "no command given");
	if (a.show && a.log)
		core_cli_usage_error(&cli, "--show-output and --log exclude each other");
	if (!(o.record = find_record()))
		core_msg_die(CORE_EXIT_MISSING, "cannot find rlprof-record next to this program "
			     "(set RLPROF_RECORD)");
	o.argv = argv + optind_;
	o.repeat = (int)a.repeat;
	o.show_output = a.show;
	o.progress = on_progress;
	o.base_env = python_path();
	if (!(o.self = find_self()))
		core_msg_die(CORE_EXIT_MISSING, "cannot find this program's own path in /proc");
	cmd = argv[optind_];
	if (a.log && (o.log_fd = open(a.log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666)) < 0)
		core_msg_die(CORE_EXIT_FAIL, "cannot open '%s': %s", a.log, strerror(errno));
	/* The destination first, so that a bad -o fails before the work. */
	if (core_atomic_open(&out, a.output, a.force ? CORE_ATOMIC_FORCE : 0, &err) < 0)
		core_msg_die_err(CORE_EXIT_FAIL, &err);
	atexit(abort_output);
	memset(&fail, 0, sizeof(fail));
	core_progress_start(&progress, "runs", 0);
	ret = prof_calib_run(&o, &cal, &fail, &err);
	core_progress_finish(&progress);
	if (ret == -ECHILD)
		failed(&fail, cmd);
	if (ret < 0)
		core_msg_die_err(fail.exec_errno ? core_spawn_error_exit(-fail.exec_errno) :
				 CORE_EXIT_FAIL, &err);
	summary(&cal);
	if (!(doc = prof_calib_to_json(&cal)))
		core_msg_die(CORE_EXIT_FAIL, "out of memory");
	if (a.validate) {
		core_progress_start(&progress, "validation runs", 0);	/* the runs give the total */
		ret = prof_calib_validate(&o, &cal, &v, &fail, &err);
		core_progress_finish(&progress);
		if (ret == -ECHILD)
			failed(&fail, cmd);
		if (ret < 0)
			core_msg_die_err(CORE_EXIT_FAIL, &err);
		json_object_set_new(doc, "validation", validation_json(&v));
		vfp = strcmp(a.output, "-") ? stdout : stderr;
		if (write_validation(vfp, &v, a.format >= 0 ? (enum core_format)a.format :
				     core_format_default(vfp == stdout ? NULL : "stderr")) < 0)
			core_msg_die(CORE_EXIT_FAIL, "writing output failed");
	}
	if (core_json_write(out.fp, doc, 1) < 0) {
		core_atomic_abort(&out);
		core_msg_die(CORE_EXIT_FAIL, "writing output failed");
	}
	if (core_atomic_commit(&out, &err) < 0)
		core_msg_die_err(CORE_EXIT_FAIL, &err);
	json_decref(doc);
	prof_calib_release(&cal);
	if (o.log_fd >= 0)
		close(o.log_fd);
	return core_msg_close_stream(stdout) ? CORE_EXIT_FAIL : CORE_EXIT_OK;
}
