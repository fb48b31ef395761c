/*
 * Launch backends: how a worker agent (pool mode) or a rank (SPMD mode) is
 * started on a host.  Each backend is a table of operations, so a new one
 * (Kubernetes: one pod per worker, the secret in a Secret object) is one
 * more file and one more entry in fiber_backend_find().
 *
 *   local   fork/exec on this machine, with a parent-death signal
 *   ssh     one long-lived `ssh HOST` per worker, for hosts from a file
 *   srun    one `srun` job step per worker, inside a Slurm allocation
 *   sbatch  one batch job per worker, submitted with `sbatch`
 *
 * Secrets never go on a command line.  Local processes get their
 * environment directly; ssh and srun start `fiberrun --stdin-env -- ...`
 * on the host and write the variables to its standard input, which then
 * stays open: when the master goes away, that input reaches end of file
 * and the remote side kills what it started.  sbatch passes them in the
 * job's environment (kept by Slurm, readable by root and SlurmUser only).
 */
#ifndef FIBER_BACKEND_H
#define FIBER_BACKEND_H

#include <sys/types.h>

#include "core/error.h"
#include "fiber/hosts.h"

/* One thing to start. */
struct fiber_launch {
	const char *host;		/* host name from the hosts file, or NULL */
	char *const *argv;		/* what to run on the host */
	const char *const *env;		/* NAME=VALUE for it; may hold secrets */
	int out_fd, err_fd;		/* its output here; -1 keeps ours */
};

/* A started thing, as the master sees it. */
struct fiber_proc {
	pid_t pid;		/* local process standing for it, 0 if none */
	int in_fd;		/* its standard input, kept open; -1 if none */
	char *job;		/* batch job id (sbatch), or NULL */
};

#define FIBER_PROC_INIT { 0, -1, NULL }

struct fiber_backend;

struct fiber_backend_ops {
	const char *name;
	/* Workers run on other hosts (the master must be reachable there). */
	int remote;
	/* Hosts come from --hosts (required). */
	int needs_hosts;
	int (*spawn)(struct fiber_backend *b, const struct fiber_launch *l,
		     struct fiber_proc *p, struct core_error *err);
	/*
	 * Stop what spawn started, without waiting: signal, close its input,
	 * cancel its job.  The caller reaps p->pid.  Idempotent.
	 */
	void (*stop)(struct fiber_backend *b, struct fiber_proc *p, int sig);
};

struct fiber_backend {
	const struct fiber_backend_ops *ops;
	struct fiber_hosts hosts;	/* ssh */
	char **ssh;			/* ssh command words, NULL-terminated */
	char *self;			/* fiberrun on the hosts */
	char *cwd;			/* working folder to use on the hosts */
	char **env;			/* more NAME=VALUE for every launch (envpass.h), or NULL */
};

#define FIBER_BACKEND_INIT { NULL, FIBER_HOSTS_INIT, NULL, NULL, NULL, NULL }

/* The backend called `name`, or NULL. */
const struct fiber_backend_ops *fiber_backend_find(const char *name);

/*
 * Set up `b` for ops: `ssh` is the ssh command line (split on blanks;
 * NULL for "ssh"), `self` the path of fiberrun on the hosts (NULL: this
 * program's own).  Hosts are loaded by the caller into b->hosts.
 */
int fiber_backend_init(struct fiber_backend *b,
		       const struct fiber_backend_ops *ops, const char *ssh,
		       const char *self, struct core_error *err);
void fiber_backend_release(struct fiber_backend *b);

/* Release what a fiber_proc holds (after stop and reaping). */
void fiber_proc_release(struct fiber_proc *p);

/* Quote `s` for a POSIX shell: a malloc'd string, or NULL. */
char *fiber_shell_quote(const char *s);

/*
 * Read NAME=VALUE lines from fd up to an empty line and set them in our
 * environment (the `--stdin-env` side of ssh and srun launches).  At most
 * 256 lines of 64 KiB.  0 or a negative code.
 */
int fiber_env_read(int fd, struct core_error *err);

extern const struct fiber_backend_ops fiber_backend_local;
extern const struct fiber_backend_ops fiber_backend_ssh;
extern const struct fiber_backend_ops fiber_backend_srun;
extern const struct fiber_backend_ops fiber_backend_sbatch;

#endif
