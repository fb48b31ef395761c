/*
 * Two traces side by side (rlprof-report --compare): "this" (the trace
 * given as operand) and "other" (the --compare trace), for example a
 * PyTorch and a TensorFlow run, or a run before and after a change.
 *
 * Groups are matched by key (operation, phase, or "[all]") and slot,
 * summed over processes, since process ids differ between runs.  The
 * percent of each side is of its own profiled wall time (all processes);
 * the ratio is other / this (empty when this is 0).  Keys come in order of
 * decreasing time in "this", then those only in "other".
 *
 * CSV columns: operation,resource,category,time_us,percent,other_time_us,
 * other_percent,ratio; a last row with operation "[total]" compares the
 * profiled wall times; jsonl has the CSV's rows as JSON Lines, ratio null
 * where the CSV's is empty.  JSON: {"this": name, "other": name, "wall_us",
 * "other_wall_us", "ratio", "rows": [...]} with the CSV's fields.  The
 * table has the CSV's rows, with human units.  All return 0, -ENOMEM or
 * -EIO.
 */
#ifndef PROF_REPORT_COMPARE_H
#define PROF_REPORT_COMPARE_H

#include <stdio.h>

#include "prof/report.h"

/* The comparison in any format of core/table.h. */
int prof_compare_write(FILE *fp, const struct prof_report *a, const struct prof_report *b,
		       enum core_format f);

#endif
