#include "core/spawn.h"
#include "core/exitcode.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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

char **core_spawn_env(char *const *envp, const char *const *set,
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

int core_spawn_exit_code(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return CORE_EXIT_FAIL;
}

int core_spawn_error_exit(int code)
{
	return code == -ENOENT ? CORE_EXIT_NOTFOUND : CORE_EXIT_NOEXEC;
}

const char *core_spawn_signal_text(int sig, char *buf, size_t size)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, size, "signal SIG%s", abbrev);
	else
		snprintf(buf, size, "signal %d", sig);
	return buf;
}

const char *core_spawn_status_text(int wstatus, char *buf, size_t size)
{
	if (WIFSIGNALED(wstatus))
		return core_spawn_signal_text(WTERMSIG(wstatus), buf, size);
	snprintf(buf, size, "exit %d", WEXITSTATUS(wstatus));
	return buf;
}

int core_spawn_kill_group(pid_t pgrp, int sig)
{
	if (pgrp <= 0)
		return -EINVAL;
	return kill(-pgrp, sig) == 0 ? 0 : -errno;
}

/* Make `from` the descriptor `to` (without close-on-exec): 0 or -1. */
static int move_fd(int from, int to)
{
	if (from < 0)
		return 0;
	if (from == to)
		return fcntl(to, F_SETFD, 0) < 0 ? -1 : 0;
	return dup2(from, to) < 0 ? -1 : 0;
}

_Noreturn static void child(const struct core_spawn *sp, char **envp,
			    pid_t parent, int report)
{
	sigset_t none;
	int e, sig;

	if (!sp->keep_ignored)
		for (sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (sp->pdeathsig) {
		prctl(PR_SET_PDEATHSIG, sp->pdeathsig);
		if (getppid() != parent)
			_exit(128 + sp->pdeathsig);
	}
	if (sp->new_pgrp)
		setpgid(0, 0);
	if (move_fd(sp->in_fd, 0) < 0 || move_fd(sp->out_fd, 1) < 0 ||
	    move_fd(sp->err_fd, 2) < 0)
		goto fail;
	if (sp->dir && chdir(sp->dir) < 0)
		goto fail;
	/* "0": the writer itself; so nothing it runs escapes the group. */
	if (sp->cgroup_fd >= 0 && write(sp->cgroup_fd, "0", 1) < 0)
		goto fail;
	if (sp->limit_as) {
		struct rlimit rl = { (rlim_t)sp->limit_as, (rlim_t)sp->limit_as };

		if (setrlimit(RLIMIT_AS, &rl) < 0)
			goto fail;
	}
	execvpe(sp->argv[0], sp->argv, envp);
fail:
	e = errno;
	while (write(report, &e, sizeof(e)) < 0 && errno == EINTR)
		;
	_exit(CORE_EXIT_NOTFOUND);
}

int core_spawn_start(struct core_spawn *sp, struct core_error *err)
{
	char **envp = core_spawn_env(environ, sp->env_set, sp->env_unset);
	pid_t parent = getpid(), p;
	int fds[2], e = 0;
	ssize_t n;

	sp->pid = 0;
	sp->exec_errno = 0;
	if (!envp)
		return core_error_set(err, -ENOMEM, "out of memory");
	if (pipe2(fds, O_CLOEXEC) < 0) {
		e = errno;
		free(envp);
		return core_error_errno(err, e, "cannot create a pipe");
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
		while (waitpid(p, NULL, 0) < 0 && errno == EINTR)
			;
		sp->exec_errno = e ? e : EIO;
		return core_error_errno(err, sp->exec_errno, "cannot run '%s'", sp->argv[0]);
	}
	if (sp->new_pgrp)
		setpgid(p, p);	/* also here, so that it holds before we signal it */
	sp->pid = p;
	return 0;
}
