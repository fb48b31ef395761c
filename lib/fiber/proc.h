/*
 * Helpers around the processes of a run: pipes, the signalfd of the event
 * loops, environment pairs.  Starting processes is core/spawn.h.
 */
#ifndef FIBER_PROC_H
#define FIBER_PROC_H

#include <sys/types.h>

#include "core/error.h"
#include "core/spawn.h"

/* A pipe with both ends close-on-exec.  0 or -errno. */
int fiber_pipe(int fds[2]);

/*
 * Block SIGCHLD, SIGINT, SIGTERM and SIGHUP and return a non-blocking,
 * close-on-exec signalfd that reports them, or -errno.  SIGINT and
 * SIGTERM are reset to their default first: shells start background jobs
 * with SIGINT ignored, which would discard it even while blocked (nohup's
 * SIGHUP is left alone).  Children started with core_spawn_start get an
 * empty mask again.
 */
int fiber_proc_signalfd(void);

/* "NAME=VALUE" in a malloc'd string, or NULL. */
char *fiber_env_pair(const char *name, const char *value);

#endif
