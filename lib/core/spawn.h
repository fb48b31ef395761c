/*
 * Running other programs: fork and exec with an errno pipe, what their
 * wait status means, process groups.
 *
 *	struct core_spawn sp = CORE_SPAWN_INIT;
 *	sp.argv = argv;
 *	sp.env_set = (const char *const[]){ "FIBERRUN_RANK=0", NULL };
 *	if (core_spawn_start(&sp, &err) < 0)
 *		return sp.exec_errno ? core_spawn_error_exit(err.code) : 1;
 *	waitpid(sp.pid, &st, 0);
 *	return core_spawn_exit_code(st);
 *
 * core_spawn_start forks; the child sets itself up (signals, process group,
 * redirections, folder) and execs argv[0], looked up in PATH like a shell
 * does.  When any of that fails, the child writes its errno to a
 * close-on-exec pipe and exits, and core_spawn_start reaps it and returns
 * the error: so a command that cannot be found or executed is known before
 * anything else happens, and never mistaken for a command that exits 127.
 *
 * The child's signals: its mask is empty.  With keep_ignored, the
 * dispositions are left to exec, which resets caught signals to their
 * default and keeps ignored ones ignored, as a shell does (nohup);
 * otherwise every signal is reset to its default first.
 *
 * Errors: core_spawn_start returns 0, or -errno and fills err: "cannot
 * create a pipe", "cannot start 'x'" (fork), or "cannot run 'x': ..." with
 * sp->exec_errno set to the errno (ENOENT: not found; EACCES, ENOEXEC, ...:
 * not executable).  Ownership: nothing is kept; the caller waits for
 * sp->pid.  Thread-safety: core_spawn_start reads the environment, so
 * not while another thread changes it; in a threaded program, descriptors
 * the child should not get must be close-on-exec.  The other functions
 * keep no state.
 */
#ifndef CORE_SPAWN_H
#define CORE_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

#include "core/error.h"

struct core_spawn {
	char *const *argv;
	const char *const *env_set;	/* "NAME=VALUE" to set over ours, or NULL */
	const char *const *env_unset;	/* names to remove, or NULL */
	int in_fd, out_fd, err_fd;	/* made the child's 0, 1, 2; -1 keeps ours */
	const char *dir;		/* the child's working folder, or NULL */
	int pdeathsig;			/* signal the child gets when we die, or 0 */
	int new_pgrp;			/* the child leads a new process group */
	int keep_ignored;		/* see above */
	unsigned long long limit_as;	/* RLIMIT_AS of the child in bytes, 0: ours */
	int cgroup_fd;			/* a cgroup.procs open for writing: the child
					   joins that cgroup before it execs; -1: ours */
	/* Filled in by core_spawn_start. */
	pid_t pid;			/* the child, when started */
	int exec_errno;			/* errno of a failed set-up or exec, else 0 */
};

#define CORE_SPAWN_INIT { NULL, NULL, NULL, -1, -1, -1, NULL, 0, 0, 0, 0, -1, 0, 0 }

int core_spawn_start(struct core_spawn *sp, struct core_error *err);

/*
 * The exit status a shell reports for a wait(2) status: the exit code, or
 * 128 + the number of the signal that killed it (1 for anything else).
 */
int core_spawn_exit_code(int wstatus);

/*
 * The exit status for a command that could not be started (a negative
 * errno): 127 for -ENOENT (not found), else 126 (not executable), as in
 * core/exitcode.h.
 */
int core_spawn_error_exit(int code);

/* "exit N" or "signal SIGNAME" ("signal N" for an unnamed one) for a
 * wait(2) status, into buf; returns buf. */
const char *core_spawn_status_text(int wstatus, char *buf, size_t size);

/* "signal SIGNAME" or "signal N" into buf; returns buf. */
const char *core_spawn_signal_text(int sig, char *buf, size_t size);

/*
 * Send sig to the process group `pgrp` (a child started with new_pgrp,
 * which leads a group of the same number): 0, or -errno (-ESRCH when no
 * process is left in it).  A pgrp of 0 or below is refused (-EINVAL)
 * rather than taken by kill(2) as our own group.  Async-signal-safe.
 */
int core_spawn_kill_group(pid_t pgrp, int sig);

/*
 * The environment `envp` with `set` applied over it and `unset` removed:
 * a malloc'd NULL-terminated array of borrowed strings (free the array
 * only), or NULL when out of memory.
 */
char **core_spawn_env(char *const *envp, const char *const *set,
		      const char *const *unset);

#endif
