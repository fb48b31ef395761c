#include "fiber/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int fiber_pipe(int fds[2])
{
	return pipe2(fds, O_CLOEXEC) < 0 ? -errno : 0;
}

char *fiber_env_pair(const char *name, const char *value)
{
	char *s;

	if (asprintf(&s, "%s=%s", name, value) < 0)
		return NULL;
	return s;
}

static int name_in(const char *kv, const char *const *list, int with_value)
{
	size_t n = strcspn(kv, "=");

	for (; list && *list; list++) {
		size_t m = with_value ? strcspn(*list, "=") : strlen(*list);

		if (m == n && strncmp(kv, *list, n) == 0)
			return 1;
	}
	return 0;
}

char **fiber_env_build(char *const *envp, const char *const *set,
		       const char *const *unset)
{
	size_t n = 0, k = 0, i;
	char **out;

	for (i = 0; envp && envp[i]; i++)
		n++;
	for (i = 0; set && set[i]; i++)
		n++;
	out = calloc(n + 1, sizeof(*out));
	if (!out)
		return NULL;
	for (i = 0; envp && envp[i]; i++)
		if (!name_in(envp[i], set, 1) && !name_in(envp[i], unset, 0))
			out[k++] = envp[i];
	for (i = 0; set && set[i]; i++)
		out[k++] = (char *)set[i];
	out[k] = NULL;
	return out;
}

int fiber_proc_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}

static void move_fd(int from, int to)
{
	if (from >= 0 && from != to)
		dup2(from, to);
	else if (from == to)
		fcntl(to, F_SETFD, 0);
}

_Noreturn static void child(const struct fiber_spawn *sp, char **envp,
			    pid_t parent, int report)
{
	sigset_t none;
	int e, sig;

	sigemptyset(&none);
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (sp->pdeathsig) {
		prctl(PR_SET_PDEATHSIG, sp->pdeathsig);
		if (getppid() != parent)
			_exit(128 + sp->pdeathsig);
	}
	if (sp->new_pgrp)
		setpgid(0, 0);
	move_fd(sp->in_fd, 0);
	move_fd(sp->out_fd, 1);
	move_fd(sp->err_fd, 2);
	if (sp->dir && chdir(sp->dir) < 0)
		goto fail;
	execvpe(sp->argv[0], sp->argv, envp);
fail:
	e = errno;
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int fiber_proc_spawn(const struct fiber_spawn *sp, pid_t *pid,
		     struct core_error *err)
{
	char **envp = fiber_env_build(environ, sp->env_set, sp->env_unset);
	pid_t parent = getpid(), p;
	int fds[2], e = 0, ret;
	ssize_t n;

	if (!envp)
		return core_error_set(err, -ENOMEM, "out of memory");
	ret = fiber_pipe(fds);
	if (ret < 0) {
		free(envp);
		return core_error_errno(err, -ret, "cannot create a pipe");
	}
	p = fork();
	if (p == 0)
		child(sp, envp, parent, fds[1]);
	e = errno;
	free(envp);
	close(fds[1]);
	if (p < 0) {
		close(fds[0]);
		return core_error_errno(err, e, "cannot start '%s'", sp->argv[0]);
	}
	do
		n = read(fds[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	if (n == (ssize_t)sizeof(e)) {
		waitpid(p, NULL, 0);
		return core_error_errno(err, e, "cannot run '%s'", sp->argv[0]);
	}
	if (sp->new_pgrp)
		setpgid(p, p);	/* also here, so that it holds before we signal it */
	*pid = p;
	return 0;
}

int fiber_proc_signalfd(void)
{
	sigset_t set;
	int fd;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	sigprocmask(SIG_BLOCK, &set, NULL);
	fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
