/*
 * The process registry of the merge (prof/merge.h): what is known of each
 * process and thread, from outside (prof_merge_process, prof_merge_thread)
 * and from their records, and the process and thread rows written from it
 * at the end.  Internal to lib/prof/merge*.c.
 */
#ifndef PROF_MERGE_PROCS_H
#define PROF_MERGE_PROCS_H

#include <stdint.h>

#include "prof/merge.h"
#include "prof/merge_cpu.h"

struct proc {
	int64_t pid, ppid, start, end, last;
	int64_t weak_start, weak_end;
	char *command, *detail, *weak_detail;
	int outside_start, outside_end;	/* came from prof_merge_process */
	int forked;		/* image began with fork, not exec */
	int exited;		/* an exit record was seen */
	int segments;		/* it wrote CPU segments */
	int command_provisional;	/* command from a fork record or sampling */
};

struct thread {
	int64_t pid, tid, first, last, end;
	int64_t seen_last;	/* last seen from outside */
	char *name;
};

struct prof_merge {
	struct proc *procs;
	size_t nprocs, capprocs;
	struct thread *threads;
	size_t nthreads, capthreads;
	struct prof_cpufrac frac;	/* sampled CPU categories */
};

/* The entry of a pid or thread, made when new; NULL when out of memory. */
struct proc *prof_merge_proc_get(struct prof_merge *m, int64_t pid);
struct thread *prof_merge_thread_get(struct prof_merge *m, int64_t pid, int64_t tid);

/* Replace *dst with a copy of s (NULL: keep it); 0 or -ENOMEM. */
int prof_merge_set_str(char **dst, const char *s);

/* When a process ended, and a thread of it. */
int64_t prof_merge_proc_end(const struct proc *p);
int64_t prof_merge_thread_end_of(struct prof_merge *m, const struct proc *p, int64_t tid);

#endif
