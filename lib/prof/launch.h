/*
 * Running the command that rlprof-record profiles.
 *
 * prof_launch forks and execs argv (argv[0] looked up in PATH like a
 * shell), in the caller's environment.  When exec fails the child reports
 * errno through a close-on-exec pipe, so the caller learns it before
 * anything else: -ENOENT means "not found" (a shell says 127), other codes
 * "cannot execute" (126).  The child gets an empty signal mask; signals
 * the caller catches are reset by exec, ignored ones stay ignored.
 * With stdout_fd >= 0 the child's standard output is that descriptor
 * (rlprof-record -o - keeps its own standard output for the trace).
 */
#ifndef PROF_LAUNCH_H
#define PROF_LAUNCH_H

#include <sys/types.h>

#include "core/error.h"

/* Returns 0, PROF_LAUNCH_EXEC when exec failed (err->code is -errno),
 * or another negative code when fork or pipe did. */
#define PROF_LAUNCH_EXEC (-1000)
int prof_launch(char *const argv[], int stdout_fd, pid_t *pid, struct core_error *err);

/* Path of the file `rel` relative to the folder of the running program
 * ("../lib/rlkit/x.so"), newly allocated, or NULL. */
char *prof_launch_relpath(const char *rel);

#endif
