/*
 * What every worker gets beyond the FIBERRUN_* variables, on every
 * backend: variables of the master's environment chosen by name
 * (`--env NAME`, or `--env 'PREFIX_*'` for every name with that prefix),
 * and the working folder to enter (`--workdir DIR`, passed as
 * FIBERRUN_WORKDIR and entered by the agent or the `--stdin-env` side on
 * the host, which names the host when it cannot).
 *
 * Local workers inherit the whole environment anyway; ssh and srun
 * workers get only what the launch passes (fiber_env_read on the host),
 * so these lists are what makes PYTHONPATH and the user's variables
 * arrive there.  Values cannot hold a newline (the ssh channel is one
 * NAME=VALUE line each) and at most 200 variables pass.
 */
#ifndef FIBER_ENVPASS_H
#define FIBER_ENVPASS_H

#include <stddef.h>

#include "core/error.h"
#include "fiber/backend.h"

/* A pattern for --env: a variable name, or a name prefix then '*'. 1 or 0. */
int fiber_envpass_valid(const char *pattern);

/*
 * NAME=VALUE for each variable of our environment matching one of the
 * `n` patterns (FIBERRUN_* names excluded: the launcher sets those),
 * FIBERRUN_WORKDIR=workdir when workdir is not NULL, and
 * FIBERRUN_MEM_LIMIT=bytes (--mem-limit, which the agent or the --each
 * runner puts on the commands it starts: fiber/memlimit.h) when mem_limit
 * is not 0: a malloc'd
 * NULL-terminated array of malloc'd strings in *out.  0 or a negative
 * code (-EINVAL: a value with a newline, too many variables).
 */
int fiber_envpass_collect(const char *const *patterns, size_t n, const char *workdir,
			  unsigned long long mem_limit, char ***out, struct core_error *err);
void fiber_envpass_free(char **v);

/*
 * Start l through b's backend with b->env added to l->env (l's own
 * variables win).  As ops->spawn.
 */
int fiber_backend_spawn(struct fiber_backend *b, const struct fiber_launch *l,
			struct fiber_proc *p, struct core_error *err);

/*
 * Enter FIBERRUN_WORKDIR when it is set, creating it (and its parents)
 * when missing.  0, or a negative code with err naming the folder and
 * `host` (NULL: this host's name).
 */
int fiber_workdir_enter(const char *host, struct core_error *err);

#endif
