/*
 * Turning spool files (prof/spool.h) into trace rows (prof/trace_write.h):
 * what rlprof-record does once the command has ended.
 *
 *	struct prof_merge *m;
 *	prof_merge_new(&m);
 *	prof_merge_process(m, &child);             // facts known from outside
 *	prof_merge_dir(m, spool_dir, &w, &err);    // op, mark, phase, cpu, ... rows
 *	prof_merge_finish(m, &w);                  // process and thread rows
 *	prof_merge_free(m);
 *
 * Pairing: pushes and pops pair per process, thread and domain, in the
 * order the thread recorded them; a pop with nothing open gives a warning
 * row "unbalanced pop" (except the pops, in a fork()ed child, of ranges
 * its parent opened before fork: those belong to the parent's trace).
 * Start/end ranges pair by id within a process, across threads.  Whatever
 * is still open when a process's records end becomes a row with detail
 * "unclosed" that ends when the process ended.  A cpu category lasts
 * until the thread sets another one or ends.  Phases are per process: a
 * new phase ends the previous one.
 *
 * A process's end is, in order of preference: what prof_merge_process
 * said (not weak), the time of its exit record, the later of the weak end
 * and its last record.  Its detail: the one given (not weak), its exit
 * record, a weak one that knows the status, "killed" when it has records
 * but no exit record, the weak "ended", else "running" when the process
 * still exists or "killed".
 */
#ifndef PROF_MERGE_H
#define PROF_MERGE_H

#include <stdint.h>

#include "core/error.h"
#include "prof/trace_write.h"

struct prof_merge;

/* What is known of a process from outside it (waitpid, /proc). */
struct prof_process_info {
	int64_t pid, ppid;	/* ppid < 0: unknown */
	int64_t start_ns, end_ns;	/* 0: unknown */
	const char *command;	/* NULL: unknown */
	const char *detail;	/* "exit 0", "signal SIGINT", ...; NULL: unknown */
	int weak;		/* 1: the process's own records, where there are
				 * any, say better (facts from sampling /proc) */
};

int prof_merge_new(struct prof_merge **out);
void prof_merge_free(struct prof_merge *m);

/* Record what is known of a process; later calls for one pid override the
 * fields they know. */
int prof_merge_process(struct prof_merge *m, const struct prof_process_info *p);

/* A thread seen from outside from `first` to `last`; its own records,
 * where there are any, extend the span and name it. */
int prof_merge_thread(struct prof_merge *m, int64_t pid, int64_t tid,
		      int64_t first, int64_t last, const char *name);

/* Read every *.spool file of `dir` and write the event rows.  A torn
 * file gives a warning row and the merge goes on; returns 0, or a negative
 * code for an I/O error of the output or an unreadable folder. */
int prof_merge_dir(struct prof_merge *m, const char *dir,
		   struct prof_trace_writer *w, struct core_error *err);

/* Look through the *.spool files of `dir` for the processes that
 * measured their CPU time and waits themselves (CPU segments,
 * prof/cpusample.h); prof_merge_has_segments then tells.  0 or -errno
 * with err. */
int prof_merge_scan(struct prof_merge *m, const char *dir, struct core_error *err);
int prof_merge_has_segments(const struct prof_merge *m, int64_t pid);

/* Write the process and thread rows. */
int prof_merge_finish(struct prof_merge *m, struct prof_trace_writer *w);

#endif
