/*
 * The worker agent (`fiberrun --worker`): connects to the master,
 * authenticates both ways (see wire.h), starts the worker command with
 * pipes, and relays (fiberrun-protocol(5)).  Protocol 2: each TASK frame
 * becomes a "task ID LEN" record on the command's standard input, each
 * "ok"/"error" record on its result descriptor (FIBERRUN_RESULT_FD) a
 * RESULT frame for the id it names, and what it writes on its standard
 * output goes to our standard error, marked as not a result.  Lines
 * protocol (compatibility): each TASK frame becomes one line, each line
 * of the command's standard output a RESULT for the oldest task it has
 * not answered.  READY is sent when the command says "ready" (protocol 2)
 * or first reads its input (lines).  The command's standard error is
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
	int proto2;		/* protocol 2; 0: the lines protocol */
	/*
	 * The master's --heartbeat bound (it PINGs every quarter of it): a
	 * master not heard from for twice this long is gone, and the agent
	 * ends (killing the command) instead of waiting for ever; 0: wait.
	 */
	double heartbeat_s;
	/*
	 * --mem-limit of the command in bytes (fiber_memlimit: a memory
	 * cgroup, else RLIMIT_AS), 0: none.  A command that dies of it is
	 * reported "out of memory: ..." in the EXIT frame.
	 */
	unsigned long long mem_limit;
	/*
	 * The command puts the limit on what it starts itself (the --each
	 * runner): the agent makes the group, passes it in
	 * FIBERRUN_MEM_CGROUP and removes it, but does not put the command in it.
	 */
	int mem_limit_inside;
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
