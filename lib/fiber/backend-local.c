/* The local backend: fork/exec with a parent-death signal. */
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <stdlib.h>

#include "fiber/backend.h"
#include "fiber/proc.h"

static int local_spawn(struct fiber_backend *b, const struct fiber_launch *l,
		       struct fiber_proc *p, struct core_error *err)
{
	struct core_spawn sp = CORE_SPAWN_INIT;
	static const char *const unset[] = { "FIBERRUN_SECRET", NULL };
	int ret;

	sp.argv = l->argv;
	sp.env_set = l->env;
	sp.env_unset = unset;
	sp.out_fd = l->out_fd;
	sp.err_fd = l->err_fd;
	sp.pdeathsig = SIGKILL;
	sp.new_pgrp = 1;
	sp.in_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	*p = (struct fiber_proc)FIBER_PROC_INIT;
	ret = core_spawn_start(&sp, err);
	p->pid = sp.pid;
	if (sp.in_fd >= 0)
		close(sp.in_fd);
	return ret;
}

static void local_stop(struct fiber_backend *b, struct fiber_proc *p, int sig)
{
	/* The whole group: what the command started goes with it. */
	if (p->pid > 0 && core_spawn_kill_group(p->pid, sig) < 0)
		kill(p->pid, sig);
}

const struct fiber_backend_ops fiber_backend_local = {
	"local", 0, 0, local_spawn, local_stop,
};
