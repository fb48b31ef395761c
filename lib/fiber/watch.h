/*
 * The remote end of the ssh and srun backends (`fiberrun --stdin-env`):
 * run a command and stop it when a file descriptor (our standard input,
 * which the master holds open) reaches end of file, so nothing outlives
 * the master on any host.
 */
#ifndef FIBER_WATCH_H
#define FIBER_WATCH_H

#include "core/error.h"

/*
 * Run argv with /dev/null as its input, in a process group of its own;
 * when `watch_fd` ends, send the group SIGTERM, then SIGKILL after two
 * seconds, and SIGKILL to what is left of it once the command has ended.
 * Returns its status (exit code or 128 + signal), or a negative code when
 * it cannot be started.
 */
int fiber_watch_run(char *const *argv, int watch_fd, struct core_error *err);

#endif
