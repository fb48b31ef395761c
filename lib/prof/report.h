/*
 * Reports of a breakdown (lib/prof/breakdown.h): grouping, and the output
 * formats of rlprof-report.
 *
 * A report is a list of groups; each group has a process (or all of them),
 * a key (an operation, a phase, or "[all]") and its time per slot.  The
 * percent of a row is its time over the profiled wall time of its
 * process (over the sum of them when the group is all processes).
 *
 * Formats (all write to `fp` and return 0, -ENOMEM or -EIO); every row
 * goes through the toolkit's table writer (core/table.h), so that table,
 * csv, json and jsonl carry the same columns:
 *   csv    header "process,operation,resource,category,time_us,percent,
 *          calls,exclusive_ns,inclusive_ns,mean_ns,p50_ns,p95_ns,max_ns",
 *          one row per non-zero slot (one row without resource for an
 *          operation whose calls own no time); time_us exact to the
 *          nanosecond (three decimals), percent with two decimals; process
 *          is the pid, or "all"; the call statistics of the group on each
 *          of its rows, empty where they do not apply
 *   jsonl  the rows of csv as JSON Lines, with the same keys
 *   table  a section per process, aligned, human units, the statistics on
 *          the first row of each group, a total line per process, and the
 *          GPU utilisation next to the nvidia-smi figure
 *   json   {"by", "processes": [...], "rows": [the jsonl rows], "gpus":
 *          [...], "problems": {...}}, each part written by the table writer
 *   svg    report_svg.h
 * Chrome and Perfetto output are sinks of the scan (report_chrome.h,
 * report_perfetto.h), and --compare output is in report_compare.h.
 */
#ifndef PROF_REPORT_H
#define PROF_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "core/table.h"
#include "prof/breakdown.h"
#include "prof/trace_read.h"

enum prof_report_by {
	PROF_BY_OPERATION,	/* (process, operation) */
	PROF_BY_CATEGORY,	/* everything together: one group */
	PROF_BY_PROCESS,	/* one group per process */
	PROF_BY_PHASE,		/* (process, phase) */
};

/* "operation", "category", "process", "phase" and back; -1 when unknown. */
const char *prof_report_by_name(enum prof_report_by by);
int prof_report_by_parse(const char *s);

struct prof_report_group {
	int64_t pid;		/* -1: all processes; PROF_PID_OTHERS (-2):
				 * the processes summed (report_procs.h) */
	int64_t parent;		/* parent pid, -1 when unknown */
	int depth;		/* in the process tree, 0 for a root */
	const char *process;	/* process name, "" when unknown */
	const char *key;	/* operation, phase, or "[all]" */
	int64_t wall;		/* ns the percent is relative to */
	int64_t total;		/* ns of the group: its exclusive time */
	prof_slots ns;
	/* Operations only (has_calls): their calls, from prof_breakdown_op_calls. */
	int has_calls;
	uint64_t calls;
	int64_t inclusive, mean, p50, p95, max;
};

struct prof_calib_fix;

struct prof_report {
	struct prof_report_group *groups;
	size_t ngroups;
	const struct prof_breakdown *bd;
	const struct prof_problems *problems;	/* may be NULL */
	const char *trace;	/* the trace's name, for titles */
	enum prof_report_by by;
	/* With rlprof-report --calibration (prof/calib.h), else NULL: every
	 * format says it, the table and svg with a "corrected: ..." line,
	 * csv and jsonl with a last row for process "all", operation
	 * "[corrected]" whose time is what was removed, json with an object
	 * "correction". */
	const struct prof_calib_fix *fix;
	char others[64];	/* the name of the processes summed */
};

/*
 * Group bd by `by`: processes in tree order, shims folded (report_procs.h),
 * every process with rows of its own; within a process, keys by
 * decreasing time, then by name; keys with no time are left out.  Returns 0 or -ENOMEM; release with prof_report_release().
 */
int prof_report_build(struct prof_report *rep, const struct prof_breakdown *bd,
		      enum prof_report_by by);
/*
 * As prof_report_build, with the processes as report_procs.h says:
 * processes in tree order, shims folded, and, unless `all`, the processes
 * under 1% in one group (pid PROF_PID_OTHERS, process "N processes under
 * 1% each").  Calls of one operation in several processes joined: calls,
 * inclusive time and mean over all, the largest max, p50 and p95 of the
 * process with the most calls.
 */
int prof_report_build_procs(struct prof_report *rep, const struct prof_breakdown *bd,
			    enum prof_report_by by, int all);
void prof_report_release(struct prof_report *rep);

/* The rows of csv, jsonl or table (without the GPU lines) in format f. */
int prof_report_rows(FILE *fp, const struct prof_report *rep, enum core_format f);
int prof_report_csv(FILE *fp, const struct prof_report *rep);
int prof_report_table(FILE *fp, const struct prof_report *rep);
int prof_report_json(FILE *fp, const struct prof_report *rep);
int prof_report_svg(FILE *fp, const struct prof_report *rep);

/*
 * --tree: the call tree of each process (struct prof_bd_node), depth
 * first, children by decreasing inclusive time, and each process's
 * unannotated time last, in format f of core/table.h.  Columns: process,
 * operation (indented by depth in the table), depth, calls, exclusive_ns,
 * inclusive_ns, mean_ns, p50_ns, p95_ns, max_ns, percent (inclusive time
 * over the process's profiled wall time).  JSON: an array of the rows.
 */
int prof_report_tree(FILE *fp, const struct prof_report *rep, enum core_format f);

/* "process 12 (python train.py): 1.23 s profiled": the heading of g's process. */
void prof_report_heading(char *buf, size_t size, const struct prof_report_group *g);
/* t in JSON, without the newline that ends a document. */
int prof_report_json_value(FILE *fp, const struct core_table *t);

/*
 * Whether `name` (rlprof-report -p NAME) names the process of `command`:
 * the whole command, or the last path component of one of its words
 * ("train.py" and "python" both name "python train.py").
 */
int prof_report_name_matches(const char *command, const char *name);

/*
 * A duration such as "1.5s", "200ms", "30us", "100ns" (a bare number is
 * seconds) into ns.  Returns 0, or -EINVAL when malformed or negative.
 */
int prof_report_parse_duration(const char *s, int64_t *ns);


/* The per-call statistics columns of a table (core_col initialisers), in
 * the order of every format: calls, exclusive_ns, inclusive_ns, mean_ns,
 * p50_ns, p95_ns, max_ns. */
#define PROF_CALL_STAT_COLS \
	{ .name = "calls", .type = CORE_COL_INT }, \
	{ .name = "exclusive_ns", .type = CORE_COL_DURATION, .unit = "ns", .title = "exclusive" }, \
	{ .name = "inclusive_ns", .type = CORE_COL_DURATION, .unit = "ns", .title = "inclusive" }, \
	{ .name = "mean_ns", .type = CORE_COL_DURATION, .unit = "ns", .title = "mean" }, \
	{ .name = "p50_ns", .type = CORE_COL_DURATION, .unit = "ns", .title = "p50" }, \
	{ .name = "p95_ns", .type = CORE_COL_DURATION, .unit = "ns", .title = "p95" }, \
	{ .name = "max_ns", .type = CORE_COL_DURATION, .unit = "ns", .title = "max" }

#endif
