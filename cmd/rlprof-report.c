/*
 * rlprof-report: where the time of a profiled run went, from a trace of
 * rlprof-record, as a table, CSV, JSON, an SVG chart or a Chrome trace.
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
#include "prof/report.h"
#include "prof/report_chrome.h"
#include "prof/report_compare.h"
#include "prof/report_scan.h"

enum {
	OPT_FROM = CORE_OPT_LONG_ONLY,
	OPT_TO,
	OPT_STRICT,
	OPT_CHUNK,
};

/* The formats of core/table.h, then this program's own. */
enum format {
	F_TABLE = CORE_FORMAT_TABLE, F_CSV = CORE_FORMAT_CSV, F_JSON = CORE_FORMAT_JSON,
	F_JSONL = CORE_FORMAT_JSONL, F_SVG, F_CHROME, F_DEFAULT
};

static const struct core_opt opts[] = {
	{ "format", 'f', "FORMAT", "output format (default: table on a terminal, else csv)",
	  "table|csv|json|jsonl|svg|chrome" },
	{ "by", 'b', "KEY", "group time by operation (default), category, process or phase",
	  "operation|category|process|phase" },
	{ "process", 'p', "PID", "report only the process PID", NULL },
	{ "from", OPT_FROM, "TIME", "start of the time window, from the trace start (1.5s, 200ms)", NULL },
	{ "to", OPT_TO, "TIME", "end of the time window, from the trace start", NULL },
	{ "compare", 'c', "OTHER", "put the trace OTHER side by side, with ratios", NULL },
	{ "output", 'o', "FILE", "write to FILE (atomically) instead of standard output", NULL },
	{ "force", 'F', NULL, "replace an existing output file", NULL },
	{ "strict", OPT_STRICT, NULL, "make any bad row an error (exit 1)", NULL },
	{ "sort-chunk", OPT_CHUNK, "N", "events sorted in memory at once for unordered traces", NULL },
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
	int has_pid, strict, force;
	int64_t pid, from, to;
	const char *compare, *output;
	size_t chunk;
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
		else
			core_cli_usage_error(&cli, "unknown format '%s' (table, csv, json, jsonl, svg or chrome)", arg);
		break;
	case 'b':
		if ((i = prof_report_by_parse(arg)) < 0)
			core_cli_usage_error(&cli, "cannot group by '%s' (operation, category, process or phase)", arg);
		a->by = (enum prof_report_by)i;
		break;
	case 'p':
		if (core_cli_parse_long(arg, 0, INT32_MAX, &v) < 0)
			core_cli_usage_error(&cli, "bad process id '%s'", arg);
		a->pid = v;
		a->has_pid = 1;
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

/* What one trace gives: its breakdown, or its Chrome trace. */
struct job {
	const struct args *a;
	struct prof_breakdown *bd;
	struct prof_chrome *chrome;
	FILE *chrome_fp;
	struct prof_trace_reader *reader;
	struct core_progress progress;
	uint64_t seen;
};

static int on_event(void *ctx, const struct prof_trace_reader *r, const struct prof_ev *ev)
{
	struct job *j = ctx;

	if (!(++j->seen & 0xffff))
		core_progress_update(&j->progress, j->seen);
	if (j->a->has_pid && ev->pid != j->a->pid)
		return 0;
	if (j->chrome)
		return prof_chrome_event(j->chrome, r, ev);
	return prof_breakdown_add(j->bd, r, ev);
}

static int on_restart(void *ctx)
{
	struct job *j = ctx;

	j->seen = 0;
	if (j->chrome)
		return prof_chrome_restart(j->chrome);
	prof_breakdown_free(j->bd);
	j->bd = NULL;
	if (prof_breakdown_new(&j->bd, j->a->from, j->a->to) < 0)
		return -ENOMEM;
	if (j->a->has_pid)
		j->bd->only_pid = j->a->pid;
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

/* Read one trace into j; exits on failure. */
static void load(struct job *j, const char *path)
{
	struct prof_scan_sink sink = { on_event, on_restart, j };
	struct core_error err = CORE_ERROR_INIT;
	const char *name = strcmp(path, "-") ? path : "standard input";
	FILE *fp = strcmp(path, "-") ? fopen(path, "r") : stdin;
	int flags = (j->a->strict ? PROF_READ_STRICT : 0) | (j->chrome ? PROF_READ_ALL_NAMES : 0);
	int ret;

	if (!fp)
		core_msg_die(CORE_EXIT_FAIL, "cannot open '%s': %s", path, strerror(errno));
	if (!j->chrome && prof_breakdown_new(&j->bd, j->a->from, j->a->to) < 0)
		core_msg_die(CORE_EXIT_FAIL, "out of memory");
	if (j->bd && j->a->has_pid)
		j->bd->only_pid = j->a->pid;
	if (j->chrome && j->a->has_pid)
		prof_chrome_only(j->chrome, j->a->pid);
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

static int write_report(FILE *fp, const struct args *a, struct job *j, struct job *other,
			const char *path, const char *other_path)
{
	struct prof_report rep, orep;
	int ret;

	if (j->chrome) {
		if (prof_chrome_finish(j->chrome, j->reader) < 0)
			return -EIO;
		return copy(j->chrome_fp, fp);
	}
	if (prof_report_build(&rep, j->bd, a->by) < 0)
		return -ENOMEM;
	rep.problems = prof_trace_problems(j->reader);
	rep.trace = path;
	if (other) {
		if (prof_report_build(&orep, other->bd, a->by) < 0) {
			prof_report_release(&rep);
			return -ENOMEM;
		}
		orep.trace = other_path;
		ret = prof_compare_write(fp, &rep, &orep, (enum core_format)a->format);
		prof_report_release(&orep);
	} else {
		ret = a->format == F_JSON ? prof_report_json(fp, &rep) :
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
	struct args a = { F_DEFAULT, PROF_BY_OPERATION, 0, 0, 0, 0, INT64_MIN, INT64_MAX,
			  NULL, NULL, PROF_SCAN_CHUNK_DEFAULT };
	struct core_error err = CORE_ERROR_INIT;
	struct job j = { &a, NULL, NULL, NULL, NULL, CORE_PROGRESS_INIT, 0 };
	struct job o = { &a, NULL, NULL, NULL, NULL, CORE_PROGRESS_INIT, 0 };
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
	if (a.compare && (a.format == F_SVG || a.format == F_CHROME))
		core_cli_usage_error(&cli, "--compare gives table, csv, json or jsonl, not %s",
				     a.format == F_SVG ? "svg" : "chrome");
	if (a.compare && !strcmp(a.compare, "-") && !strcmp(path, "-"))
		core_cli_usage_error(&cli, "only one trace can come from standard input");
	if (!strcmp(path, "-") && isatty(STDIN_FILENO))
		core_cli_usage_error(&cli, "no trace given and standard input is a terminal");
	if (a.format == F_CHROME) {
		if (!(j.chrome_fp = prof_report_tmpfile()))
			core_msg_die(CORE_EXIT_FAIL, "cannot create a temporary file: %s", strerror(errno));
		if (prof_chrome_new(&j.chrome, j.chrome_fp, a.from, a.to) < 0)
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
	if (j.chrome_fp)
		fclose(j.chrome_fp);
	prof_trace_reader_free(j.reader);
	prof_trace_reader_free(o.reader);
	return core_msg_close_stream(stdout) ? CORE_EXIT_FAIL : CORE_EXIT_OK;
}
