#include "fiber/envpass.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/grow.h"
#include "fiber/proc.h"

#define ENVPASS_MAX 200

extern char **environ;

int fiber_envpass_valid(const char *pattern)
{
	size_t i, n = strlen(pattern);

	if (n > 0 && pattern[n - 1] == '*')
		n--;
	if (n == 0 && pattern[0] != '*')
		return 0;
	for (i = 0; i < n; i++) {
		char c = pattern[i];

		if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		      (i > 0 && c >= '0' && c <= '9')))
			return 0;
	}
	return 1;
}

static int matches(const char *const *patterns, size_t n, const char *var, size_t namelen)
{
	size_t i;

	for (i = 0; i < n; i++) {
		size_t pl = strlen(patterns[i]);

		if (pl > 0 && patterns[i][pl - 1] == '*') {
			if (namelen >= pl - 1 && memcmp(var, patterns[i], pl - 1) == 0)
				return 1;
		} else if (pl == namelen && memcmp(var, patterns[i], pl) == 0) {
			return 1;
		}
	}
	return 0;
}

void fiber_envpass_free(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

int fiber_envpass_collect(const char *const *patterns, size_t n, const char *workdir,
			  unsigned long long mem_limit, char ***out, struct core_error *err)
{
	char **v = NULL;
	size_t k = 0, cap = 0, i;
	int ret = 0;

	*out = NULL;
	for (i = 0; environ && environ[i] && ret == 0; i++) {
		const char *e = environ[i], *eq = strchr(e, '=');

		if (!eq || !matches(patterns, n, e, (size_t)(eq - e)) ||
		    strncmp(e, "FIBERRUN_", 9) == 0)
			continue;
		if (strchr(eq, '\n'))
			ret = core_error_set(err, -EINVAL, "cannot pass '%.*s' to the workers: "
					     "its value holds a newline", (int)(eq - e), e);
		else if (k >= ENVPASS_MAX)
			ret = core_error_set(err, -EINVAL, "more than %d variables to pass to the workers",
					     ENVPASS_MAX);
		else if (CORE_GROW(v, cap, k + 2) < 0 || !(v[k] = strdup(e)))
			ret = core_error_set(err, -ENOMEM, "out of memory");
		else
			v[++k] = NULL;
	}
	if (ret == 0 && workdir) {
		if (strchr(workdir, '\n'))
			ret = core_error_set(err, -EINVAL, "bad working folder: it holds a newline");
		else if (CORE_GROW(v, cap, k + 2) < 0 ||
			 !(v[k] = fiber_env_pair("FIBERRUN_WORKDIR", workdir)))
			ret = core_error_set(err, -ENOMEM, "out of memory");
		else
			v[++k] = NULL;
	}
	if (ret == 0 && mem_limit) {
		char num[32];

		snprintf(num, sizeof(num), "%llu", mem_limit);
		if (CORE_GROW(v, cap, k + 2) < 0 || !(v[k] = fiber_env_pair("FIBERRUN_MEM_LIMIT", num)))
			ret = core_error_set(err, -ENOMEM, "out of memory");
		else
			v[++k] = NULL;
	}
	if (ret < 0) {
		fiber_envpass_free(v);
		return ret;
	}
	*out = v;
	return 0;
}

int fiber_backend_spawn(struct fiber_backend *b, const struct fiber_launch *l,
			struct fiber_proc *p, struct core_error *err)
{
	struct fiber_launch all = *l;
	const char **env;
	size_t n = 0, m = 0, i;
	int ret;

	if (!b->env)
		return b->ops->spawn(b, l, p, err);
	while (l->env && l->env[n])
		n++;
	while (b->env[m])
		m++;
	env = calloc(n + m + 1, sizeof(*env));
	if (!env)
		return core_error_set(err, -ENOMEM, "out of memory");
	/* Passed variables first: on the remote side a later line wins. */
	for (i = 0; i < m; i++)
		env[i] = b->env[i];
	for (i = 0; i < n; i++)
		env[m + i] = l->env[i];
	all.env = env;
	ret = b->ops->spawn(b, &all, p, err);
	free(env);
	return ret;
}

static int mkdirs(char *path)
{
	char *s = path;

	while ((s = strchr(s + 1, '/'))) {
		*s = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST) {
			*s = '/';
			return -errno;
		}
		*s = '/';
	}
	if (mkdir(path, 0777) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int fiber_workdir_enter(const char *host, struct core_error *err)
{
	const char *dir = getenv("FIBERRUN_WORKDIR");
	char name[256] = "", *copy;
	int ret = 0;

	if (!dir || !*dir)
		return 0;
	if (chdir(dir) == 0)
		return 0;
	if (errno == ENOENT) {
		copy = strdup(dir);
		if (!copy)
			return core_error_set(err, -ENOMEM, "out of memory");
		ret = mkdirs(copy);
		free(copy);
		if (ret == 0 && chdir(dir) == 0)
			return 0;
	}
	ret = -errno;
	if (host)
		snprintf(name, sizeof(name), "%s", host);
	else
		gethostname(name, sizeof(name) - 1);
	return core_error_errno(err, -ret, "cannot enter working folder '%s' on %s", dir, name);
}
