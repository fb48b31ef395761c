/*
 * rlprof-report --by kernel: GPU time per kernel and per operation.
 *
 * Each gpu row (kernel, copy, memset) is linked by its correlation id to
 * the CUDA call (a cpu row of category cuda_api with the same pid and
 * correlation) that launched it, and through that call's thread and start
 * to the innermost operation open on that thread then.  A gpu row whose
 * call is not in the trace goes to "[unlinked]"; one whose call ran outside
 * any operation to "[unannotated]".
 *
 *	struct prof_kernels *k;
 *	prof_kernels_new(&k);
 *	while (...) prof_kernels_add(k, r, &ev);   // time order (report_scan)
 *	prof_kernels_write(fp, k, r, CORE_FORMAT_CSV);
 *	prof_kernels_free(k);
 *
 * Events must come in time order, with names interned (PROF_READ_ALL_NAMES).
 * Memory: O(CUDA calls + distinct (operation, kernel) pairs + open ops).
 *
 * Rows, per process in order of first GPU row: first each kernel over all
 * operations (operation "[all]"), by decreasing total; then each operation
 * over all its kernels (kernel "[all]"), by decreasing total, each followed
 * by its kernels, by decreasing total.  Columns: pid, operation, kernel,
 * category (kernel|memcpy|memset; empty for "[all]" kernels), calls,
 * total_ns, mean_ns, max_ns.
 */
#ifndef PROF_REPORT_GPU_H
#define PROF_REPORT_GPU_H

#include <stdio.h>

#include "core/table.h"
#include "prof/trace_read.h"

struct prof_kernels;

int prof_kernels_new(struct prof_kernels **out);
/* 0 or -ENOMEM. */
int prof_kernels_add(struct prof_kernels *k, const struct prof_trace_reader *r,
		     const struct prof_ev *ev);
/* Fill a table with the rows above; 0 or -ENOMEM. Release it after. */
int prof_kernels_table(struct core_table *t, const struct prof_kernels *k,
		       const struct prof_trace_reader *r);
/* The table written in format f; 0, -ENOMEM or -EIO. */
int prof_kernels_write(FILE *fp, const struct prof_kernels *k,
		       const struct prof_trace_reader *r, enum core_format f);
void prof_kernels_free(struct prof_kernels *k);

#endif
