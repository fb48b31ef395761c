/*
 * Two traces side by side (rlprof-report --compare): "this" (the trace
 * given as operand) and "other" (the --compare trace), for example a
 * PyTorch and a TensorFlow run, or a run before and after a change.
 *
 * Processes are matched by command, not by pid (pids differ between
 * runs): the processes of one command in a trace add up.  Groups are then
 * matched by (command, key) and slot.  The percent of each side is of its
 * own profiled wall time (all processes); the ratio is other / this
 * (empty when this is 0).  Commands come in order of first appearance in
 * "this", then those only in "other"; keys of a command by decreasing time
 * in "this", then in "other".
 *
 * CSV columns: process (the command), operation, resource, category,
 * time_us, percent, other_time_us, other_percent, ratio; a last row with
 * operation "[total]" and no process compares the profiled wall times;
 * jsonl has the CSV's rows as JSON Lines, ratio null where the CSV's is
 * empty.  JSON: {"summary": {"this", "other", "by", "wall_us",
 * "other_wall_us", "ratio"}, "rows": [the jsonl rows]}.  The table has the
 * CSV's rows, with human units.  SVG: report_svg.h.  All return 0,
 * -ENOMEM or -EIO.
 */
#ifndef PROF_REPORT_COMPARE_H
#define PROF_REPORT_COMPARE_H

#include <stdio.h>

#include "prof/report.h"

struct prof_cmp_row {
	const char *process;	/* command, "" when unknown or all */
	const char *key;
	int proc;		/* index in prof_cmp.procs */
	int64_t total[2];
	prof_slots ns[2];
};

struct prof_cmp {
	struct prof_cmp_row *rows;	/* in the order above */
	size_t n, cap;
	const char **procs;	/* commands, in order of first appearance */
	size_t nprocs, cap_procs;
	int64_t wall[2];	/* profiled wall time of each side, all processes */
};

/* The rows of a and b matched; 0 or -ENOMEM.  Release with prof_cmp_release. */
int prof_cmp_build(struct prof_cmp *c, const struct prof_report *a, const struct prof_report *b);
void prof_cmp_release(struct prof_cmp *c);

/* The comparison in any format of core/table.h. */
int prof_compare_write(FILE *fp, const struct prof_report *a, const struct prof_report *b,
		       enum core_format f);

#endif
