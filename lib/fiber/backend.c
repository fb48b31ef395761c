#include "fiber/backend.h"
#include "core/sys.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct fiber_backend_ops *fiber_backend_find(const char *name)
{
	static const struct fiber_backend_ops *all[] = {
		&fiber_backend_local, &fiber_backend_ssh,
		&fiber_backend_srun, &fiber_backend_sbatch,
	};
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

static char **split_words(const char *s)
{
	char *copy = strdup(s), *tok, *save = NULL, **v;
	size_t n = 0;

	if (!copy)
		return NULL;
	v = calloc(strlen(s) / 2 + 2, sizeof(*v));
	if (!v) {
		free(copy);
		return NULL;
	}
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		if (!(v[n++] = strdup(tok)))
			break;
	free(copy);
	return v;
}

int fiber_backend_init(struct fiber_backend *b,
		       const struct fiber_backend_ops *ops, const char *ssh,
		       const char *self, struct core_error *err)
{
	b->ops = ops;
	b->ssh = split_words(ssh ? ssh : "ssh");
	if (!b->ssh || !b->ssh[0])
		return core_error_set(err, -EINVAL, "empty ssh command");
	if (self) {
		b->self = strdup(self);
	} else {
		int ret = core_sys_exe(&b->self);

		if (ret < 0 && ret != -ENOMEM)
			return core_error_errno(err, -ret, "cannot find this program's path");
	}
	b->cwd = getcwd(NULL, 0);
	if (!b->self || !b->cwd)
		return core_error_set(err, -ENOMEM, "out of memory");
	return 0;
}

void fiber_backend_release(struct fiber_backend *b)
{
	size_t i;

	for (i = 0; b->ssh && b->ssh[i]; i++)
		free(b->ssh[i]);
	free(b->ssh);
	free(b->self);
	free(b->cwd);
	fiber_hosts_release(&b->hosts);
	b->ssh = NULL;
	b->self = b->cwd = NULL;
}

void fiber_proc_release(struct fiber_proc *p)
{
	if (p->in_fd >= 0)
		close(p->in_fd);
	free(p->job);
	p->in_fd = -1;
	p->job = NULL;
	p->pid = 0;
}

char *fiber_shell_quote(const char *s)
{
	size_t n = 2, i;
	char *out, *o;

	for (i = 0; s[i]; i++)
		n += s[i] == '\'' ? 4 : 1;
	out = malloc(n + 1);
	if (!out)
		return NULL;
	o = out;
	*o++ = '\'';
	for (i = 0; s[i]; i++) {
		if (s[i] == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = s[i];
		}
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

int fiber_env_read(int fd, struct core_error *err)
{
	char line[65536];
	size_t len = 0;
	int nlines = 0;

	for (;;) {
		char c;
		ssize_t n = read(fd, &c, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return core_error_errno(err, errno, "reading the environment from standard input");
		if (n == 0)
			return core_error_set(err, -EPROTO, "standard input ended before the environment");
		if (c != '\n') {
			if (len + 1 >= sizeof(line))
				return core_error_set(err, -EPROTO, "environment line too long");
			line[len++] = c;
			continue;
		}
		line[len] = '\0';
		if (len == 0)
			return 0;
		if (++nlines > 256 || !strchr(line, '=') || line[0] == '=')
			return core_error_set(err, -EPROTO, "bad environment line from standard input");
		line[strcspn(line, "=")] = '\0';
		if (setenv(line, line + strlen(line) + 1, 1) < 0)
			return core_error_errno(err, errno, "cannot set '%s'", line);
		len = 0;
	}
}
