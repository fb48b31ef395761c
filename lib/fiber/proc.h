/*
 * Starting processes for workers and ranks: fork/exec with a chosen
 * environment, redirections, an empty signal mask, and a parent-death
 * signal, so that a child never outlives the process that started it.
 *
 *	struct fiber_spawn sp = FIBER_SPAWN_INIT;
 *	sp.argv = argv;
 *	sp.env_set = (const char *[]){ "FIBERRUN_RANK=0", NULL };
 *	if (fiber_proc_spawn(&sp, &pid, &err) < 0) ...
 *
 * A command that cannot be started is reported by fiber_proc_spawn itself
 * (-ENOENT: "cannot run 'x': No such file or directory"), through a
 * close-on-exec pipe, so no child exits with a made-up status for it.
 */
#ifndef FIBER_PROC_H
#define FIBER_PROC_H

#include <sys/types.h>

#include "core/error.h"

struct fiber_spawn {
	char *const *argv;
	const char *const *env_set;	/* "NAME=VALUE" to set, or NULL */
	const char *const *env_unset;	/* names to remove, or NULL */
	int in_fd, out_fd, err_fd;	/* dup2'd to 0, 1, 2; -1 keeps ours */
	int pdeathsig;			/* signal on our death, 0 for none */
	const char *dir;		/* working folder, or NULL */
	int new_pgrp;			/* lead a new process group */
};

#define FIBER_SPAWN_INIT { NULL, NULL, NULL, -1, -1, -1, 0, NULL, 0 }

int fiber_proc_spawn(const struct fiber_spawn *sp, pid_t *pid,
		     struct core_error *err);

/*
 * The environment `envp` with `set` applied over it and `unset` removed:
 * a malloc'd NULL-terminated array of borrowed strings (free the array
 * only), or NULL when out of memory.
 */
char **fiber_env_build(char *const *envp, const char *const *set,
		       const char *const *unset);

/*
 * The exit status a shell would report for a wait(2) status: the exit
 * code, or 128 + the signal number.
 */
int fiber_proc_status(int wstatus);

/* A pipe with both ends close-on-exec.  0 or -errno. */
int fiber_pipe(int fds[2]);

/*
 * Block SIGCHLD, SIGINT, SIGTERM and SIGHUP and return a non-blocking,
 * close-on-exec signalfd that reports them, or -errno.  SIGINT and
 * SIGTERM are reset to their default first: shells start background jobs
 * with SIGINT ignored, which would discard it even while blocked (nohup's
 * SIGHUP is left alone).  Children started with fiber_proc_spawn get an
 * empty mask again.
 */
int fiber_proc_signalfd(void);

/* "NAME=VALUE" in a malloc'd string, or NULL. */
char *fiber_env_pair(const char *name, const char *value);

#endif
