#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atari/cuda.h"
#include "core/sys.h"

static void *cuda_plugin_open(char *why, size_t len)
{
	const char *env = getenv("RLKIT_CUDA_PLUGIN");
	char *path;
	void *h;

	if (env && *env) {
		h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			snprintf(why, len, "%s", dlerror());
		return h;
	}
	if (core_sys_exe_relative("../lib/rlkit/" ATARI_CUDA_PLUGIN, &path) < 0) {
		snprintf(why, len, "cannot find the running program");
		return NULL;
	}
	if (access(path, F_OK) != 0) {
		snprintf(why, len, "this build has no CUDA backend (no %s)", ATARI_CUDA_PLUGIN);
		free(path);
		return NULL;
	}
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		snprintf(why, len, "%s", dlerror());
	free(path);
	return h;
}

int atari_cuda_run(const struct atari_rom *rom, const struct atari_game *g,
		   const struct atari_env_config *cfg, int n, long steps,
		   struct atari_batch_stats *stats, double *seconds, struct core_error *err)
{
	char why[512] = "";
	void *h = cuda_plugin_open(why, sizeof(why));
	atari_cuda_entry_fn run;
	int ret;

	if (!h)
		return core_error_set(err, -ENOSYS, "CUDA backend unavailable: %s", why);
	*(void **)&run = dlsym(h, ATARI_CUDA_ENTRY);
	if (!run) {
		dlclose(h);
		return core_error_set(err, -ENOSYS, "CUDA backend unavailable: %s lacks %s",
				      ATARI_CUDA_PLUGIN, ATARI_CUDA_ENTRY);
	}
	ret = run(rom, g, cfg, n, steps, stats, seconds, why, sizeof(why));
	dlclose(h);
	if (ret < 0)
		return core_error_set(err, ret, "%s", why);
	return 0;
}
