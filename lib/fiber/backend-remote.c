/*
 * The ssh and srun backends: start `fiberrun --stdin-env -- ARGV` on the
 * host through ssh or srun, write the environment to its standard input,
 * and keep that input open for as long as the worker should live.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fiber/backend.h"
#include "fiber/proc.h"
#include "fiber/wire.h"

/* "cd DIR 2>/dev/null; exec SELF --stdin-env -- ARGV..." for a remote shell. */
static char *remote_command(const struct fiber_backend *b, char *const *argv)
{
	struct core_buf s = CORE_BUF_INIT;
	char *q;
	size_t i;
	int bad = 0;

	q = fiber_shell_quote(b->cwd);
	bad |= !q || core_buf_append(&s, "cd ", 3) < 0 ||
	       core_buf_append(&s, q, strlen(q)) < 0 ||
	       core_buf_append(&s, " 2>/dev/null; exec ", 19) < 0;
	free(q);
	q = fiber_shell_quote(b->self);
	bad |= !q || core_buf_append(&s, q, strlen(q)) < 0 ||
	       core_buf_append(&s, " --stdin-env --", 15) < 0;
	free(q);
	for (i = 0; argv[i] && !bad; i++) {
		q = fiber_shell_quote(argv[i]);
		bad |= !q || core_buf_append(&s, " ", 1) < 0 ||
		       core_buf_append(&s, q, strlen(q)) < 0;
		free(q);
	}
	bad |= core_buf_append(&s, "", 1) < 0;
	if (bad) {
		core_buf_release(&s);
		return NULL;
	}
	return s.data;
}

/* Start argv with a pipe on its input carrying l->env. */
static int spawn_with_env(char *const *argv, const struct fiber_launch *l,
			  struct fiber_proc *p, struct core_error *err)
{
	struct core_spawn sp = CORE_SPAWN_INIT;
	struct core_buf env = CORE_BUF_INIT;
	static const char *const unset[] = { "FIBERRUN_SECRET", NULL };
	int fds[2], ret;
	size_t i;

	*p = (struct fiber_proc)FIBER_PROC_INIT;
	for (i = 0; l->env && l->env[i]; i++)
		if (core_buf_append(&env, l->env[i], strlen(l->env[i])) < 0 ||
		    core_buf_append(&env, "\n", 1) < 0)
			goto nomem;
	if (core_buf_append(&env, "\n", 1) < 0)
		goto nomem;
	ret = fiber_pipe(fds);
	if (ret < 0) {
		core_buf_release(&env);
		return core_error_errno(err, -ret, "cannot create a pipe");
	}
	sp.argv = argv;
	sp.env_unset = unset;
	sp.in_fd = fds[0];
	sp.out_fd = l->out_fd;
	sp.err_fd = l->err_fd;
	sp.pdeathsig = SIGTERM;
	ret = core_spawn_start(&sp, err);
	p->pid = sp.pid;
	close(fds[0]);
	if (ret < 0) {
		close(fds[1]);
		core_buf_release(&env);
		return ret;
	}
	/* A few hundred bytes: they fit in the pipe without blocking. */
	if (core_buf_write_fd(&env, fds[1]) < 0 || core_buf_pending(&env) > 0) {
		ret = core_error_set(err, -EIO, "cannot pass the environment to '%s'", argv[0]);
		close(fds[1]);
		kill(p->pid, SIGTERM);
		core_buf_release(&env);
		return ret;
	}
	core_buf_release(&env);
	p->in_fd = fds[1];
	return 0;
nomem:
	core_buf_release(&env);
	return core_error_set(err, -ENOMEM, "out of memory");
}

static int ssh_spawn(struct fiber_backend *b, const struct fiber_launch *l,
		     struct fiber_proc *p, struct core_error *err)
{
	char *cmd = remote_command(b, l->argv), **argv;
	size_t n = 0, k = 0, i;
	int ret;

	if (!cmd)
		return core_error_set(err, -ENOMEM, "out of memory");
	while (b->ssh[n])
		n++;
	argv = calloc(n + 8, sizeof(*argv));
	if (!argv) {
		free(cmd);
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++)
		argv[k++] = b->ssh[i];
	argv[k++] = "-T";
	argv[k++] = "-o";
	argv[k++] = "BatchMode=yes";
	argv[k++] = (char *)l->host;
	argv[k++] = cmd;
	argv[k] = NULL;
	ret = spawn_with_env(argv, l, p, err);
	free(argv);
	free(cmd);
	return ret;
}

static int srun_spawn(struct fiber_backend *b, const struct fiber_launch *l,
		      struct fiber_proc *p, struct core_error *err)
{
	char *fixed[] = { "srun", "--ntasks=1", "--nodes=1", "--overlap",
			  "--kill-on-bad-exit=1", "--quiet", "--job-name=fiberrun",
			  b->self, "--stdin-env", "--" };
	size_t nf = sizeof(fixed) / sizeof(fixed[0]), n = 0, i;
	char **argv;
	int ret;

	while (l->argv[n])
		n++;
	argv = calloc(nf + n + 1, sizeof(*argv));
	if (!argv)
		return core_error_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < nf; i++)
		argv[i] = fixed[i];
	for (i = 0; i < n; i++)
		argv[nf + i] = l->argv[i];
	ret = spawn_with_env(argv, l, p, err);
	free(argv);
	return ret;
}

static void remote_stop(struct fiber_backend *b, struct fiber_proc *p, int sig)
{
	/* End of input makes the remote side stop its command. */
	if (p->in_fd >= 0) {
		close(p->in_fd);
		p->in_fd = -1;
	}
	if (p->pid > 0 && sig == SIGKILL)
		kill(p->pid, sig);
}

const struct fiber_backend_ops fiber_backend_ssh = {
	"ssh", 1, 1, ssh_spawn, remote_stop,
};

const struct fiber_backend_ops fiber_backend_srun = {
	"srun", 1, 0, srun_spawn, remote_stop,
};
