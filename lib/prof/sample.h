/*
 * Watching the command from outside, by sampling /proc: which processes
 * it made (all descendants, annotated or not) and when each thread was
 * blocked.  The target pays nothing for it.
 *
 *	struct prof_sampler *s;
 *	prof_sampler_new(&s, child_pid);
 *	while (command runs) { prof_sampler_poll(s); sleep(interval); }
 *	prof_sampler_finish(s, merge, &writer);   // wait rows, process facts
 *	prof_sampler_free(s);
 *
 * Each poll walks the process tree from the root through
 * /proc/PID/task/TID/children and reads every thread's state from
 * /proc/PID/task/TID/stat (kept open, one pread per thread).  A thread seen
 * in any state but R (running or runnable) is blocked; consecutive blocked
 * samples make one "cpu" row of category "wait".  Its ends are refined by
 * the thread's CPU time (/proc/PID/task/TID/schedstat): a thread that used
 * d ns of CPU between a running and a blocked sample blocked d ns after the
 * first; one found running again woke at the latest d ns before.  Without
 * schedstat the error of each end is one sampling interval.
 */
#ifndef PROF_SAMPLE_H
#define PROF_SAMPLE_H

#include <stdint.h>
#include <sys/types.h>

#include "prof/merge.h"
#include "prof/trace_write.h"

struct prof_sampler;

int prof_sampler_new(struct prof_sampler **out, pid_t root);
void prof_sampler_free(struct prof_sampler *s);

/* Take one sample now.  Returns 0 or -ENOMEM. */
int prof_sampler_poll(struct prof_sampler *s);

/* A descendant that we reaped ourselves (rlprof-record is a subreaper):
 * its exit status is known. */
void prof_sampler_reaped(struct prof_sampler *s, pid_t pid, int status);

/* Processes whose threads measure their own blocked time (the recorder's
 * CPU sampler): measured(ctx, pid) != 0 leaves their wait rows out. */
void prof_sampler_measured(struct prof_sampler *s, int (*measured)(void *ctx, int64_t pid),
			   void *ctx);

/* Write the wait rows; tell `m` the processes and threads that were seen.
 * Returns 0, -EIO (output) or -ENOMEM. */
int prof_sampler_finish(struct prof_sampler *s, struct prof_merge *m,
			struct prof_trace_writer *w);

#endif
