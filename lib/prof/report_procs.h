/*
 * The processes of a report: the traced command's process tree, exec shims
 * folded into the program they ran, and processes with little time summed
 * in one row.
 *
 * Tree: each process under its parent (the process rows' parent pid),
 * depth first from the processes whose parent is not in the trace,
 * children in order of their first event.
 *
 * Shims: a process whose command is a launcher (its first word, or the
 * word after "env" or a shell, names env, sh, bash, dash, zsh, or a pyenv
 * program or shim: a word with "/pyenv" or "/.pyenv/shims/" in it) and
 * that has exactly one child in the trace is folded into that child: the
 * child's rows carry the time of both and the child takes the shim's place
 * in the tree.  A shim that exec'd its program kept its pid and needs no
 * folding.
 *
 * Small processes: unless `all`, processes (after folding) with under 1%
 * of the profiled time of all processes together are summed in one row
 * (PROF_PID_OTHERS).  The traced command (a root of the tree) always has
 * its own rows.
 */
#ifndef PROF_REPORT_PROCS_H
#define PROF_REPORT_PROCS_H

#include <stddef.h>

#include "prof/breakdown.h"

#define PROF_PID_OTHERS (-2)	/* the row of the processes summed */

struct prof_proc_plan {
	size_t n;		/* processes shown with rows of their own */
	size_t *order;		/* their indexes in bd->procs, in tree order */
	size_t *depth;		/* depth[k]: of order[k] in the tree */
	int64_t *parent;	/* parent[k]: pid of order[k]'s shown parent
				 * (shims folded), -1 for a root */
	size_t *into;		/* into[i]: position in order of bd->procs[i]'s
				 * rows; n for the summed row */
	size_t nothers;		/* processes summed */
};

#define PROF_PROC_PLAN_INIT { 0, NULL, NULL, NULL, NULL, 0 }

/* 0 or -ENOMEM. */
int prof_proc_plan_make(struct prof_proc_plan *pl, const struct prof_breakdown *bd, int all);
void prof_proc_plan_release(struct prof_proc_plan *pl);

/* Whether `command` is a launcher that runs another program (see above). */
int prof_proc_is_shim(const char *command);

#endif
