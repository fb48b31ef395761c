/*
 * The worker agent (`fiberrun --worker`): connects to the master,
 * authenticates both ways (see wire.h), starts the worker command with
 * pipes, and relays: each TASK frame becomes one line on the command's
 * standard input, each line of its standard output one RESULT frame for
 * the oldest task it has not answered.  The command's standard error is
 * ours.
 *
 * The agent ends, and kills the command, when the connection ends or
 * `watch_fd` reaches end of file; after a STOP frame it closes the
 * command's input, waits for it to exit, and reports its status in an
 * EXIT frame.  The command gets FIBERRUN_WORKER (the worker number) and
 * FIBERRUN_HOST, never the secret.
 */
#ifndef FIBER_AGENT_H
#define FIBER_AGENT_H

#include <stddef.h>
#include <signal.h>
#include <stdint.h>

#include "core/error.h"

struct fiber_agent_opts {
	const char *master;	/* HOST:PORT of the master */
	const char *secret;	/* the run's secret (hex) */
	uint64_t token;		/* the token the master gave this worker */
	const char *host;	/* host name to report; NULL: gethostname */
	char *const *argv;	/* the worker command */
	int watch_fd;		/* stop at its end of file; -1 for none */
	size_t frame_max;	/* longest task or result line */
};

/* The worker command's process group, for the agent's signal handlers. */
extern volatile sig_atomic_t fiber_agent_child_pgrp;

/*
 * Run the agent to its end.  SIGTERM, SIGINT and SIGHUP end the agent and
 * kill the command's whole process group.  Returns the exit status for the agent: 0
 * after a STOP, the command's own status when it ended by itself, 126/127
 * when it cannot be started, 1 when the connection failed (err says why).
 */
int fiber_agent_run(const struct fiber_agent_opts *o, struct core_error *err);

#endif
