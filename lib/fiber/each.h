/*
 * One process per task (`fiberrun --each`): the pool's workers are this
 * built-in protocol 2 worker (`fiberrun --each-run` on the host), which
 * runs COMMAND ARGS... once for each task it gets, with
 *
 *   {}        the task: its line (--lines), or for a JSON task the value
 *             of a string, else its JSON text
 *   {#}       the task's number in the input, from 1
 *   {NAME}    member NAME of a JSON object task (a string's value, else
 *             its JSON text); left as it is when the task has no member
 *             of that name, or is not an object
 *
 * replaced in every argument (no placeholder in any argument: the task
 * is added as the last argument).  The command's standard output, less
 * one final newline, is the task's result when it exits with status 0;
 * any other end is an "error" answer naming the status.  Its standard
 * input is /dev/null, its standard error ours.
 *
 * With mem_limit, the commands run in one memory cgroup, the agent's
 * (mem_group) or else one of this runner's (fiber_memlimit; one at a
 * time, so a kill for the limit during a task is that task's), and an
 * error that memory explains says so: "out of memory: ..." when certain (the kernel killed a process of the group;
 * under RLIMIT_AS, a command whose standard error ends with Python's
 * "MemoryError" line), "..., perhaps out of memory: ..." for a death by
 * SIGSEGV, SIGBUS, SIGABRT or SIGKILL under RLIMIT_AS.  Under RLIMIT_AS
 * the command's standard error passes through a pipe (to see its end);
 * in a cgroup, the commands get its folder in FIBERRUN_MEM_CGROUP.
 */
#ifndef FIBER_EACH_H
#define FIBER_EACH_H

#include <stddef.h>

#include "core/error.h"

struct fiber_each_opts {
	char *const *argv;	/* the command, with placeholders */
	int lines;		/* tasks are plain lines, not JSON */
	int in_fd, res_fd;	/* protocol 2: tasks in, records out */
	size_t frame_max;	/* longest output kept */
	unsigned long long mem_limit;	/* --mem-limit of each command, 0: none */
	const char *mem_group;	/* the agent's memory cgroup for them, or NULL */
	char **env_set;		/* more "NAME=VALUE" for the commands, or NULL */
};

/*
 * The command line for one task: a malloc'd NULL-terminated array of
 * malloc'd strings (free with fiber_each_argv_free), or NULL when out of
 * memory.  `task` is the task's bytes, `number` its number from 1.
 */
char **fiber_each_argv(char *const *argv, const char *task, size_t len, int lines,
		       unsigned long long number);
void fiber_each_argv_free(char **v);

/* Serve tasks until the input ends: 0, or a negative code with err set. */
int fiber_each_run(const struct fiber_each_opts *o, struct core_error *err);

#endif
