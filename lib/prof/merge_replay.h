/*
 * The two passes of the merge (prof/merge.h) over one spool file, and the
 * replay state they share.  Pass 1 (merge_collect.c) learns the processes,
 * threads and domains, the ranges started (an end may come before its
 * start in the file) and what each operation's CPU segments say; pass 2
 * (merge_replay.c) pairs and writes the rows, and closes at the file's end
 * what is still open.  Internal to lib/prof/merge*.c.
 */
#ifndef PROF_MERGE_REPLAY_H
#define PROF_MERGE_REPLAY_H

#include <stdint.h>

#include "core/error.h"
#include "prof/merge_procs.h"
#include "prof/spool.h"
#include "prof/trace_write.h"

/* An open range or phase while replaying one file. */
struct open {
	int64_t tid, t;
	uint32_t domain;
	uint64_t id;
	char *name;
};

struct stack {
	int64_t tid;
	uint32_t domain;
	struct open *v;
	size_t n, cap;
};

struct cpu_state {
	int64_t tid, t;
	int cat;
};

/* Replay state of one spool file. */
struct replay {
	struct stack *stacks;
	size_t nstacks, capstacks;
	struct open *ranges;
	size_t nranges, capranges;
	struct cpu_state *cpus;
	size_t ncpus, capcpus;
	struct open phase;
	int has_phase;
	char **domains;		/* by id */
	size_t ndomains;
};

/* Pass 1 over a file (r from its start); rp then holds its ranges and
 * domains, and stacks that prof_merge_replay_clear() empties for pass 2. */
int prof_merge_collect(struct prof_merge *m, struct prof_spool_reader *r,
		       struct replay *rp, struct core_error *err);
void prof_merge_replay_clear(struct replay *rp);

/* Pass 2: one record of thread tid of process p, written to w (0 or -errno). */
int prof_merge_replay_rec(struct prof_merge *m, struct replay *rp, struct prof_trace_writer *w,
			  const struct proc *p, int64_t tid, const struct prof_spool_rec *rec);
/* The file's end: what is still open becomes rows, "unclosed". */
int prof_merge_replay_end(struct prof_merge *m, struct replay *rp, struct prof_trace_writer *w,
			  int64_t pid);
/* Frees rp, what is still open included (after an error). */
void prof_merge_replay_release(struct replay *rp);

/* A warning row (tid 0, t 0: none). */
int prof_merge_warning(struct prof_trace_writer *w, int64_t pid, int64_t tid,
		       int64_t t, const char *domain, const char *what);

/* Both passes: the stack of thread tid in domain (made when new; NULL
 * when out of memory), the name of the innermost operation open on thread
 * tid ("" when none), and a segment record's payload (0: too short or
 * inconsistent). */
struct stack *prof_merge_stack(struct replay *rp, int64_t tid, uint32_t domain);
const char *prof_merge_innermost(const struct replay *rp, int64_t tid);
int prof_merge_seg_of(const struct prof_spool_rec *rec, struct prof_spool_seg *seg);

#endif
