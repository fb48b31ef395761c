/*
 * SPMD mode (`fiberrun -n N -- COMMAND`): start N copies of a command
 * through a backend, each with its rank in the environment:
 *
 *   FIBERRUN_RANK         0 .. N-1
 *   FIBERRUN_SIZE         N
 *   FIBERRUN_LOCAL_RANK   its index among the ranks on its host
 *   FIBERRUN_LOCAL_SIZE   the number of ranks on its host
 *   FIBERRUN_HOST         its host (from the hosts file, or this host's name)
 *   FIBERRUN_MASTER_ADDR  the host of rank 0, for rendezvous
 *   FIBERRUN_MASTER_PORT  a port for rank 0 to listen on
 *
 * Their standard output and error are streamed line by line to ours
 * (never a line cut in two by another rank's), optionally prefixed with
 * "RANK: ".  Halt policy: with `halt_on_failure`, the first rank that
 * fails makes the others stop (SIGTERM, then SIGKILL after a grace
 * period); otherwise every rank runs to its end.  The result is the status
 * of the first rank that failed (its exit code or 128 + its signal), or 0.
 */
#ifndef FIBER_SPMD_H
#define FIBER_SPMD_H

#include "core/error.h"
#include "fiber/backend.h"

struct fiber_spmd_opts {
	long ranks;
	char *const *argv;
	struct fiber_backend *backend;
	int tag;		/* prefix each line with "RANK: " */
	int halt_on_failure;
	int out_fd, err_fd;	/* where the ranks' output goes */
};

/*
 * Run the ranks to their end.  Returns the exit status described above,
 * 128 + a signal that stopped us (SIGINT, SIGTERM, SIGHUP), or a negative
 * code when a rank cannot be started (err says why; ranks already started
 * are stopped).
 */
int fiber_spmd_run(const struct fiber_spmd_opts *o, struct core_error *err);

#endif
