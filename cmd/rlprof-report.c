/*
 * rlprof-report: where the time of a profiled run went, from a trace of
 * rlprof-record, as a table, CSV, JSON, an SVG chart, a Chrome or a Perfetto
 * trace.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/atomic.h"
#include "core/cli.h"
#include "core/exitcode.h"
#include "core/msg.h"
#include "core/progress.h"
#include "core/table.h"
#include "prof/breakdown.h"
#include "prof/calib.h"
#include "prof/report.h"
#include "prof/report_chrome.h"
#include "prof/report_compare.h"
#include "prof/report_gpu.h"
#include "prof/report_perfetto.h"
#include "prof/report_svg.h"
#include "prof/report_scan.h"

enum {
	OPT_FROM = CORE_OPT_LONG_ONLY,
	OPT_TO,
	OPT_STRICT,
	OPT_CHUNK,
	OPT_TREE,
	OPT_CALIB,
	OPT_ALL_PROCS,
};

/* The formats of core/table.h, then this program's own. */
enum format {
	F_TABLE = CORE_FORMAT_TABLE, F_CSV = CORE_FORMAT_CSV, F_JSON = CORE_FORMAT_JSON,
	F_JSONL = CORE_FORMAT_JSONL, F_SVG, F_CHROME, F_PERFETTO, F_DEFAULT
};

static const struct core_opt opts[] = {
	{ "format", 'f', "FORMAT", "output format (default: table on a terminal, else csv)",
	  "table|csv|json|jsonl|svg|chrome|perfetto" },
	{ "by", 'b', "KEY", "group time by operation (default), category, process or phase; "
	  "kernel: GPU time per kernel and operation", "operation|category|process|phase|kernel" },
	{ "process", 'p', "PID|NAME", "report only the process PID, or the processes of command NAME", NULL },
	{ "tree", OPT_TREE, NULL, "show operations nested under their callers, with inclusive time", NULL },
	{ "all-processes", OPT_ALL_PROCS, NULL, "give processes under 1% of the time rows of their own", NULL },
	{ "from", OPT_FROM, "TIME", "start of the time window, from the trace start (1.5s, 200ms)", NULL },
	{ "to", OPT_TO, "TIME", "end of the time window, from the trace start", NULL },
	{ "compare", 'c', "OTHER", "put the trace OTHER side by side, with ratios", NULL },
	{ "output", 'o', "FILE", "write to FILE (atomically) instead of standard output", NULL },
	{ "force", 'F', NULL, "replace an existing output file", NULL },
	{ "strict", OPT_STRICT, NULL, "make any bad row an error (exit 1)", NULL },
	{ "sort-chunk", OPT_CHUNK, "N", "events sorted in memory at once for unordered traces", NULL },
	{ "calibration", OPT_CALIB, "FILE", "subtract the profiler's cost measured by rlprof-calibrate", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct core_cli cli = {
	.usage = "[options] [TRACE|-]",
	.summary = "Break the time of a profiled run down by operation, resource and category.",
	.footer = "Reads a trace of rlprof-record (CSV or JSON Lines) from TRACE or standard input.\n",
	.opts = opts,
};

struct args {
	enum format format;
	enum prof_report_by by;
	int has_pid, strict, force, tree, kernel, all_procs;
	int64_t pid, from, to;
	const char *name;	/* -p NAME */
	const char *compare, *output;
	size_t chunk;
	const char *calibration;
};

static int handle(int key, const char *arg, void *ctx)
{
	struct args *a = ctx;
	long v;
	int i;

	switch (key) {
	case 'f':
		if ((i = core_format_parse(arg, CORE_FORMATS_ALL)) >= 0)
			a->format = (enum format)i;
		else if (!strcmp(arg, "svg"))
			a->format = F_SVG;
		else if (!strcmp(arg, "chrome"))
			a->format = F_CHROME;
		else if (!strcmp(arg, "perfetto"))
			a->format = F_PERFETTO;
		else
			core_cli_usage_error(&cli, "unknown format '%s' (table, csv, json, jsonl, svg, chrome or perfetto)", arg);
		break;
	case 'b':
		a->kernel = !strcmp(arg, "kernel");
		if (a->kernel)
			break;
		if ((i = prof_report_by_parse(arg)) < 0)
			core_cli_usage_error(&cli, "cannot group by '%s' (operation, category, process, phase or kernel)", arg);
		a->by = (enum prof_report_by)i;
		break;
	case 'p':
		if (!*arg)
			core_cli_usage_error(&cli, "-p takes a process id or a command name");
		if (arg[strspn(arg, "0123456789")]) {
			a->name = arg;
			a->has_pid = 0;
			break;
		}
		if (core_cli_parse_long(arg, 0, INT32_MAX, &v) < 0)
			core_cli_usage_error(&cli, "bad process id '%s'", arg);
		a->pid = v;
		a->has_pid = 1;
		a->name = NULL;
		break;
	case OPT_TREE:
		a->tree = 1;
		break;
	case OPT_ALL_PROCS:
		a->all_procs = 1;
		break;
	case OPT_FROM:
	case OPT_TO:
		if (prof_report_parse_duration(arg, key == OPT_FROM ? &a->from : &a->to) < 0)
			core_cli_usage_error(&cli, "bad time '%s' for --%s (examples: 1.5s, 200ms, 30us)",
					     arg, key == OPT_FROM ? "from" : "to");
		break;
	case 'c':
		a->compare = arg;
		break;
	case 'o':
		a->output = arg;
		break;
	case 'F':
		a->force = 1;
		break;
	case OPT_STRICT:
		a->strict = 1;
		break;
	case OPT_CALIB:
		a->calibration = arg;
		break;
	case OPT_CHUNK:
		if (core_cli_parse_long(arg, 2, 1L << 30, &v) < 0)
			core_cli_usage_error(&cli, "bad chunk size '%s'", arg);
		a->chunk = (size_t)v;
		break;
	default:
		return -1;
	}
	return 0;
}

/* What one trace gives: its breakdown, or its Chrome or Perfetto trace. */
struct job {
	const struct args *a;
	struct prof_breakdown *bd;
	struct prof_chrome *chrome;
	struct prof_perfetto *perfetto;
	struct prof_kernels *kernels;	/* --by kernel */
	FILE *trace_fp;		/* where chrome or perfetto output goes first */
	struct prof_trace_reader *reader;
	struct core_progress progress;
	uint64_t seen, kept;
	int64_t *pids;		/* chrome, perfetto: the processes of -p NAME */
	size_t npids;
	struct prof_calib_counts counts;	/* with --calibration */
};

static int wanted(const struct job *j, int64_t pid)
{
	size_t i;

	if (j->a->has_pid)
		return pid == j->a->pid;
	if (!j->a->name || j->bd)
		return 1;
	for (i = 0; i < j->npids; i++)
		if (j->pids[i] == pid)
			return 1;
	return 0;
}

static int on_event(void *ctx, const struct prof_trace_reader *r, const struct prof_ev *ev)
{
	struct job *j = ctx;

	if (!(++j->seen & 0xffff))
		core_progress_update(&j->progress, j->seen);
	if (!wanted(j, ev->pid))
		return 0;
	j->kept++;
	if (j->a->calibration && prof_calib_count(&j->counts, ev) < 0)
		return -ENOMEM;
	if (j->chrome)
		return prof_chrome_event(j->chrome, r, ev);
	if (j->perfetto)
		return prof_perfetto_event(j->perfetto, r, ev);
	if (j->kernels)
		return prof_kernels_add(j->kernels, r, ev);
	return prof_breakdown_add(j->bd, r, ev);
}

static int on_restart(void *ctx)
{
	struct job *j = ctx;

	j->seen = j->kept = 0;
	prof_calib_counts_release(&j->counts);
	if (j->chrome)
		return prof_chrome_restart(j->chrome);
	if (j->perfetto)
		return prof_perfetto_restart(j->perfetto);
	if (j->kernels) {
		prof_kernels_free(j->kernels);
		j->kernels = NULL;
		return prof_kernels_new(&j->kernels);
	}
	prof_breakdown_free(j->bd);
	j->bd = NULL;
	if (prof_breakdown_new(&j->bd, j->a->from, j->a->to) < 0)
		return -ENOMEM;
	if (j->a->has_pid)
		j->bd->only_pid = j->a->pid;
	return 0;
}

static int has_process(const struct prof_trace_reader *r, int64_t pid)
{
	const struct prof_process *pr;
	size_t n = prof_trace_processes(r, &pr), i;

	for (i = 0; i < n; i++)
		if (pr[i].pid == pid)
			return 1;
	return 0;
}

static void report_problems(const struct prof_trace_reader *r)
{
	const struct prof_problems *p = prof_trace_problems(r);
	int i;

	for (i = 0; i < PROF_PROB_COUNT; i++)
		if (p->count[i])
			core_msg_warning("%llu %s row%s (first: %s); --strict makes this an error",
					 (unsigned long long)p->count[i], prof_problem_name(i),
					 p->count[i] > 1 ? "s" : "", p->first[i]);
	if (p->recorder_warnings)
		core_msg_warning("the recorder left %llu warning%s in the trace (first: %s)",
				 (unsigned long long)p->recorder_warnings,
				 p->recorder_warnings > 1 ? "s" : "", p->first_warning);
}

static int name_keep(const struct prof_bd_process *p, void *ctx)
{
	return prof_report_name_matches(p->name, ctx);
}

/*
 * The processes of command `a->name` in the trace at `path`, for the
 * Chrome and Perfetto writers, which stream events before the process
 * rows (often at the end of a trace) name them: a first reading of the
 * trace.  Exits on failure.
 */
static void find_pids(struct job *j, const char *path)
{
	struct core_error err = CORE_ERROR_INIT;
	struct prof_trace_reader *r;
	const struct prof_process *pr;
	const struct prof_thread *th;
	struct prof_ev ev;
	FILE *fp = fopen(path, "r");
	size_t np, nt, i, k;
	int ret;

	if (!fp)
		core_msg_die(CORE_EXIT_FAIL, "cannot open '%s': %s", path, strerror(errno));
	if (prof_trace_reader_new(&r, fp, path, 0, &err) < 0)
		core_msg_die_err(CORE_EXIT_FAIL, &err);
	while ((ret = prof_trace_read(r, &ev, &err)) > 0)
		;
	if (ret < 0)
		core_msg_die_err(CORE_EXIT_FAIL, &err);
	np = prof_trace_processes(r, &pr);
	nt = prof_trace_threads(r, &th);
	if (!(j->pids = calloc(np + nt + 1, sizeof(*j->pids))))
		core_msg_die(CORE_EXIT_FAIL, "out of memory");
	for (i = 0; i < np; i++)
		if (prof_report_name_matches(prof_trace_str(r, pr[i].name), j->a->name))
			j->pids[j->npids++] = pr[i].pid;
	/* A process without a process row goes by its main thread's name. */
	for (i = 0; i < nt; i++) {
		for (k = 0; k < np && pr[k].pid != th[i].pid; k++)
			;
		if (k == np && th[i].tid == th[i].pid &&
		    prof_report_name_matches(prof_trace_str(r, th[i].name), j->a->name))
			j->pids[j->npids++] = th[i].pid;
	}
	prof_trace_reader_free(r);
	fclose(fp);
}

/* Read one trace into j; exits on failure. */
static void load(struct job *j, const char *path)
{
	struct prof_scan_sink sink = { on_event, on_restart, j };
	struct core_error err = CORE_ERROR_INIT;
	const char *name = strcmp(path, "-") ? path : "standard input";
	FILE *fp;
	int stream = j->chrome || j->perfetto || j->a->kernel;
	int flags = (j->a->strict ? PROF_READ_STRICT : 0) | (stream ? PROF_READ_ALL_NAMES : 0);
	int ret;

	if (stream && j->a->name)
		find_pids(j, path);
	if (j->a->kernel && prof_kernels_new(&j->kernels) < 0)
		core_msg_die(CORE_EXIT_FAIL, "out of memory");
	if (!(fp = strcmp(path, "-") ? fopen(path, "r") : stdin))
		core_msg_die(CORE_EXIT_FAIL, "cannot open '%s': %s", path, strerror(errno));
	if (!stream && prof_breakdown_new(&j->bd, j->a->from, j->a->to) < 0)
		core_msg_die(CORE_EXIT_FAIL, "out of memory");
	if (j->bd && j->a->has_pid)
		j->bd->only_pid = j->a->pid;
	if (j->a->has_pid || j->a->name) {
		size_t i, n = j->a->has_pid ? 1 : j->npids;

		for (i = 0; i < n; i++) {
			int64_t pid = j->a->has_pid ? j->a->pid : j->pids[i];

			if ((j->chrome && prof_chrome_only(j->chrome, pid) < 0) ||
			    (j->perfetto && prof_perfetto_only(j->perfetto, pid) < 0))
				core_msg_die(CORE_EXIT_FAIL, "out of memory");
		}
	}
	core_progress_start(&j->progress, "events", 0);
	ret = prof_report_scan(fp, name, flags, j->a->chunk, &sink, &j->reader, NULL, &err);
	core_progress_finish(&j->progress);
	if (ret < 0)
		core_msg_die_err(CORE_EXIT_FAIL, &err);
	if (fp != stdin)
		fclose(fp);
	if (j->bd && prof_breakdown_finish(j->bd, j->reader) < 0)
		core_msg_die(CORE_EXIT_FAIL, "out of memory");
	report_problems(j->reader);
	/* A process that is not in the trace is an error, not an empty report. */
	if (j->a->has_pid && (j->bd ? !j->bd->nprocs : !j->kept && !has_process(j->reader, j->a->pid)))
		core_msg_die(CORE_EXIT_FAIL, "no process %lld in '%s'", (long long)j->a->pid, name);
	if (j->a->name && (j->bd ? !prof_breakdown_keep(j->bd, name_keep, (void *)j->a->name) : !j->npids))
		core_msg_die(CORE_EXIT_FAIL, "no process of command '%s' in '%s'", j->a->name, name);
}

static int copy(FILE *from, FILE *to)
{
	char buf[65536];
	size_t n;

	rewind(from);
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return -EIO;
	return ferror(from) ? -EIO : 0;
}

static void calib_warning(void *ctx, const char *what)
{
	core_msg_warning("calibration '%s' is for another %s", (const char *)ctx, what);
}

/* --calibration: take the profiler's cost out of j's breakdown. */
static void correct(struct job *j, const char *path, struct prof_calib_fix *fix)
{
	struct core_error err = CORE_ERROR_INIT;
	struct prof_calib cal;

	if (prof_calib_load(&cal, path, &err) < 0)
		core_msg_die_err(CORE_EXIT_FAIL, &err);
	prof_calib_check(&cal, j->reader, calib_warning, (void *)path);
	fix->calibration = path;
	if (prof_calib_correct(j->bd, &cal, &j->counts, prof_trace_meta(j->reader, "cpu_sample_us"), fix) < 0)
		core_msg_die(CORE_EXIT_FAIL, "out of memory");
	prof_calib_release(&cal);
}

static int write_report(FILE *fp, const struct args *a, struct job *j, struct job *other,
			const char *path, const char *other_path)
{
	static struct prof_calib_fix fix;
	struct prof_report rep, orep;
	int ret;

	if (j->chrome || j->perfetto) {
		if (j->chrome ? prof_chrome_finish(j->chrome, j->reader) < 0 :
				prof_perfetto_finish(j->perfetto, j->reader) < 0)
			return -EIO;
		return copy(j->trace_fp, fp);
	}
	if (j->kernels)
		return prof_kernels_write(fp, j->kernels, j->reader, (enum core_format)a->format);
	if (a->calibration)
		correct(j, a->calibration, &fix);
	if (prof_report_build_procs(&rep, j->bd, a->by, a->all_procs || other || a->tree) < 0)
		return -ENOMEM;
	rep.fix = a->calibration ? &fix : NULL;
	rep.problems = prof_trace_problems(j->reader);
	rep.trace = path;
	if (other) {
		if (prof_report_build(&orep, other->bd, a->by) < 0) {
			prof_report_release(&rep);
			return -ENOMEM;
		}
		orep.trace = other_path;
		ret = a->format == F_SVG ? prof_compare_svg(fp, &rep, &orep) :
		      prof_compare_write(fp, &rep, &orep, (enum core_format)a->format);
		prof_report_release(&orep);
	} else {
		ret = a->tree ? prof_report_tree(fp, &rep, (enum core_format)a->format) :
		      a->format == F_JSON ? prof_report_json(fp, &rep) :
		      a->format == F_SVG ? prof_report_svg(fp, &rep) :
		      a->format == F_TABLE ? prof_report_table(fp, &rep) :
		      prof_report_rows(fp, &rep, (enum core_format)a->format);
	}
	prof_report_release(&rep);
	return ret;
}

/* Removed at exit unless committed (abort is safe after a commit). */
static struct core_atomic out = CORE_ATOMIC_INIT;

static void abort_output(void)
{
	core_atomic_abort(&out);
}

int main(int argc, char **argv)
{
	struct args a = { F_DEFAULT, PROF_BY_OPERATION, 0, 0, 0, 0, 0, 0, 0, INT64_MIN, INT64_MAX,
			  NULL, NULL, NULL, PROF_SCAN_CHUNK_DEFAULT, NULL };
	struct core_error err = CORE_ERROR_INIT;
	struct job j = { &a, NULL, NULL, NULL, NULL, NULL, NULL, CORE_PROGRESS_INIT, 0, 0, NULL, 0,
			 PROF_CALIB_COUNTS_INIT };
	struct job o = { &a, NULL, NULL, NULL, NULL, NULL, NULL, CORE_PROGRESS_INIT, 0, 0, NULL, 0,
			 PROF_CALIB_COUNTS_INIT };
	const char *path = "-";
	int optind_, ret;

	core_msg_init(argv[0]);
	optind_ = core_cli_parse(&cli, argc, argv, handle, &a);
	if (argc - optind_ > 1)
		core_cli_usage_error(&cli, "too many operands: give one trace");
	if (optind_ < argc)
		path = argv[optind_];
	if (a.from != INT64_MIN && a.to != INT64_MAX && a.to <= a.from)
		core_cli_usage_error(&cli, "the time window is empty: --to must come after --from");
	if (a.format == F_DEFAULT)
		a.format = (enum format)core_format_default(a.output);
	if (a.compare && (a.format == F_CHROME || a.format == F_PERFETTO))
		core_cli_usage_error(&cli, "--compare gives table, csv, json, jsonl or svg, not %s",
				     a.format == F_CHROME ? "chrome" : "perfetto");
	if (a.tree && (a.compare || a.by != PROF_BY_OPERATION || a.format > F_JSONL))
		core_cli_usage_error(&cli, "--tree gives operations as table, csv, json or jsonl, "
				     "without --compare");
	if (a.kernel && (a.compare || a.tree || a.format > F_JSONL))
		core_cli_usage_error(&cli, "--by kernel gives table, csv, json or jsonl, "
				     "without --compare or --tree");
	if (a.name && (a.format == F_CHROME || a.format == F_PERFETTO) &&
	    (!strcmp(path, "-") || (a.compare && !strcmp(a.compare, "-"))))
		core_cli_usage_error(&cli, "-p NAME with -f %s needs a trace file, not standard input",
				     a.format == F_CHROME ? "chrome" : "perfetto");
	if (a.calibration && (a.compare || a.tree || a.format == F_CHROME || a.format == F_PERFETTO))
		core_cli_usage_error(&cli, "--calibration corrects breakdowns (table, csv, json, jsonl, svg), "
				     "without --compare or --tree");
	if (a.compare && !strcmp(a.compare, "-") && !strcmp(path, "-"))
		core_cli_usage_error(&cli, "only one trace can come from standard input");
	if (!strcmp(path, "-") && isatty(STDIN_FILENO))
		core_cli_usage_error(&cli, "no trace given and standard input is a terminal");
	if (a.format == F_CHROME || a.format == F_PERFETTO) {
		if (!(j.trace_fp = prof_report_tmpfile()))
			core_msg_die(CORE_EXIT_FAIL, "cannot create a temporary file: %s", strerror(errno));
		if (a.format == F_CHROME ? prof_chrome_new(&j.chrome, j.trace_fp, a.from, a.to) < 0 :
		    prof_perfetto_new(&j.perfetto, j.trace_fp, a.from, a.to) < 0)
			core_msg_die(CORE_EXIT_FAIL, "out of memory");
	}
	/* The destination first, so that a bad -o fails before the work. */
	if (core_atomic_open(&out, a.output ? a.output : "-", a.force ? CORE_ATOMIC_FORCE : 0, &err) < 0)
		core_msg_die_err(CORE_EXIT_FAIL, &err);
	atexit(abort_output);
	load(&j, path);
	if (a.compare)
		load(&o, a.compare);
	ret = write_report(out.fp, &a, &j, a.compare ? &o : NULL,
			   strcmp(path, "-") ? path : "standard input",
			   a.compare && strcmp(a.compare, "-") ? a.compare : "standard input");
	if (ret < 0) {
		core_atomic_abort(&out);
		core_msg_die(CORE_EXIT_FAIL, "%s", ret == -ENOMEM ? "out of memory" : "writing output failed");
	}
	if (core_atomic_commit(&out, &err) < 0)
		core_msg_die_err(CORE_EXIT_FAIL, &err);
	prof_breakdown_free(j.bd);
	prof_breakdown_free(o.bd);
	prof_chrome_free(j.chrome);
	prof_perfetto_free(j.perfetto);
	prof_kernels_free(j.kernels);
	if (j.trace_fp)
		fclose(j.trace_fp);
	free(j.pids);
	free(o.pids);
	prof_trace_reader_free(j.reader);
	prof_trace_reader_free(o.reader);
	prof_calib_counts_release(&j.counts);
	return core_msg_close_stream(stdout) ? CORE_EXIT_FAIL : CORE_EXIT_OK;
}
