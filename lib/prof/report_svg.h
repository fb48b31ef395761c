/*
 * SVG charts of rlprof-report, after RL-Scope's figures: a stacked bar per
 * operation (or phase, process...), one segment per resource and category
 * in the colours of the legend, whose entries read "resource / category"
 * as the table's columns name them ("CPU / python", "none / wait").  The
 * time axis has round ticks (1, 2 or 5 times a power of ten) in one unit
 * fitted to the run (ns, us, ms or s), and grid lines behind the bars.
 *
 * prof_report_svg() (report.h) draws one report.  prof_compare_svg()
 * draws two (--compare -f svg) side by side on one scale: the rows of
 * report_compare.h, "this" on the left and "other" on the right, each bar
 * labelled with its time and percent of its own run.
 */
#ifndef PROF_REPORT_SVG_H
#define PROF_REPORT_SVG_H

#include <stdio.h>

#include "prof/report.h"

int prof_compare_svg(FILE *fp, const struct prof_report *a, const struct prof_report *b);

#endif
