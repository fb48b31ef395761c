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
 * said, the time of its exit record, the time of its last record.  A
 * process whose records stop without an exit record is "killed", or
 * "running" when it still exists.
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
};

int prof_merge_new(struct prof_merge **out);
void prof_merge_free(struct prof_merge *m);

/* Record what is known of a process; later calls for one pid override the
 * fields they know. */
int prof_merge_process(struct prof_merge *m, const struct prof_process_info *p);

/* Read every *.spool file of `dir` and write the event rows.  A torn
 * file gives a warning row and the merge goes on; returns 0, or a negative
 * code for an I/O error of the output or an unreadable folder. */
int prof_merge_dir(struct prof_merge *m, const char *dir,
		   struct prof_trace_writer *w, struct core_error *err);

/* Write the process and thread rows. */
int prof_merge_finish(struct prof_merge *m, struct prof_trace_writer *w);

/* "exit N" or "signal NAME" for a wait(2) status, into buf. */
const char *prof_merge_status_text(int status, char *buf, size_t size);

#endif
