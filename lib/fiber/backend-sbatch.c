/*
 * The sbatch backend: one batch job per worker.  sbatch returns at once
 * with the job id; the worker is known to be alive by its connection, and
 * stopping it cancels the job.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fiber/backend.h"
#include "fiber/proc.h"
#include "fiber/wire.h"

/* Run argv with env, collect its output; its exit status or -errno. */
static int run_collect(char *const *argv, const char *const *env,
		       struct core_buf *out, struct core_error *err)
{
	struct core_spawn sp = CORE_SPAWN_INIT;
	pid_t pid;
	int fds[2], ret, st;
	ssize_t n;

	ret = fiber_pipe(fds);
	if (ret < 0)
		return core_error_errno(err, -ret, "cannot create a pipe");
	sp.argv = argv;
	sp.env_set = env;
	sp.out_fd = fds[1];
	ret = core_spawn_start(&sp, err);
	pid = sp.pid;
	close(fds[1]);
	if (ret < 0) {
		close(fds[0]);
		return ret;
	}
	while ((n = core_buf_read_fd(out, fds[0], 4096)) > 0 && core_buf_pending(out) < 65536)
		;
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return core_spawn_exit_code(st);
}

static int sbatch_spawn(struct fiber_backend *b, const struct fiber_launch *l,
			struct fiber_proc *p, struct core_error *err)
{
	struct core_buf cmd = CORE_BUF_INIT, out = CORE_BUF_INIT;
	char *wrap = NULL, *argv[8];
	size_t i;
	int ret;

	*p = (struct fiber_proc)FIBER_PROC_INIT;
	core_buf_append(&cmd, "exec", 4);
	for (i = 0; l->argv[i]; i++) {
		char *q = fiber_shell_quote(l->argv[i]);

		if (!q || core_buf_append(&cmd, " ", 1) < 0 ||
		    core_buf_append(&cmd, q, strlen(q)) < 0) {
			free(q);
			core_buf_release(&cmd);
			return core_error_set(err, -ENOMEM, "out of memory");
		}
		free(q);
	}
	if (core_buf_append(&cmd, "", 1) < 0 || asprintf(&wrap, "--wrap=%s", cmd.data) < 0) {
		core_buf_release(&cmd);
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	core_buf_release(&cmd);
	argv[0] = "sbatch";
	argv[1] = "--parsable";
	argv[2] = "--job-name=fiberrun";
	argv[3] = "--ntasks=1";
	argv[4] = "--export=ALL";
	argv[5] = wrap;
	argv[6] = NULL;
	ret = run_collect(argv, l->env, &out, err);
	free(wrap);
	if (ret < 0)
		goto out;
	core_buf_append(&out, "", 1);
	out.data[strcspn(out.data, ";\n")] = '\0';
	if (ret != 0 || !out.data[0] || strspn(out.data, "0123456789") != strlen(out.data)) {
		ret = core_error_set(err, -EIO, "sbatch failed (status %d)", ret);
		goto out;
	}
	p->job = strdup(out.data);
	ret = p->job ? 0 : core_error_set(err, -ENOMEM, "out of memory");
out:
	core_buf_release(&out);
	return ret;
}

static void sbatch_stop(struct fiber_backend *b, struct fiber_proc *p, int sig)
{
	struct core_buf out = CORE_BUF_INIT;
	char *argv[] = { "scancel", "--quiet", p->job, NULL };

	if (!p->job)
		return;
	run_collect(argv, NULL, &out, NULL);
	core_buf_release(&out);
	free(p->job);
	p->job = NULL;
}

const struct fiber_backend_ops fiber_backend_sbatch = {
	"sbatch", 1, 0, sbatch_spawn, sbatch_stop,
};
