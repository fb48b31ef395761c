#include "prof/cupti_status.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int prof_gpu_status_write(const char *spool, int ok, const char *text)
{
	char path[PATH_MAX];
	int n, fd = -1;
	FILE *fp;

	for (n = 0; n < 1000 && fd < 0; n++) {
		snprintf(path, sizeof(path), "%s/%d.%d.gpu", spool, (int)getpid(), n);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	if (fd < 0 || !(fp = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		return -EIO;
	}
	fprintf(fp, "%d %s\n", ok ? 1 : 0, text);
	return fclose(fp) ? -EIO : 0;
}

int prof_gpu_status_read(const char *spool, char *buf, size_t size)
{
	DIR *d = opendir(spool);
	struct dirent *e;
	char line[512], reason[512] = "", what[512] = "";
	int seen = 0, ok = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char path[PATH_MAX];
		FILE *fp;

		if (len < 5 || strcmp(e->d_name + len - 4, ".gpu"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", spool, e->d_name);
		if (!(fp = fopen(path, "r")))
			continue;
		if (fgets(line, sizeof(line), fp) && (line[0] == '0' || line[0] == '1') &&
		    line[1] == ' ') {
			line[strcspn(line, "\n")] = 0;
			seen = 1;
			if (line[0] == '1' && !ok) {
				ok = 1;
				snprintf(what, sizeof(what), "%s", line + 2);
			} else if (line[0] == '0' && !*reason) {
				snprintf(reason, sizeof(reason), "%s", line + 2);
			}
		}
		fclose(fp);
	}
	closedir(d);
	if (!seen)
		return -1;
	snprintf(buf, size, "%s", ok ? what : reason);
	return ok;
}

/* The driver API calls of the probe, with int for CUresult. */
typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_count_fn)(int *);
typedef int (*cu_errname_fn)(int, const char **);

int prof_gpu_probe(int full, char *buf, size_t size)
{
	const char *name = getenv(PROF_GPU_DRIVER_ENV);
	void *h;
	cu_init_fn init;
	cu_count_fn count;
	cu_errname_fn errname;
	const char *en = NULL;
	int n = 0, r;

	if (!name || !*name)
		name = "libcuda.so.1";
	if (!(h = dlopen(name, RTLD_NOW | RTLD_LOCAL))) {
		snprintf(buf, size, "no CUDA driver (%s cannot be loaded)", name);
		return -1;
	}
	if (!full)
		goto ok;
	init = (cu_init_fn)dlsym(h, "cuInit");
	count = (cu_count_fn)dlsym(h, "cuDeviceGetCount");
	errname = (cu_errname_fn)dlsym(h, "cuGetErrorName");
	if (!init || !count) {
		snprintf(buf, size, "no CUDA driver (%s lacks cuInit)", name);
		goto fail;
	}
	if ((r = init(0)) != 0 || (r = count(&n)) != 0) {
		if (errname)
			errname(r, &en);
		snprintf(buf, size, "no GPU (the CUDA driver says %s)", en ? en : "error");
		goto fail;
	}
	if (n < 1) {
		snprintf(buf, size, "no GPU (the CUDA driver sees no device)");
		goto fail;
	}
ok:
	dlclose(h);
	return 0;
fail:
	dlclose(h);
	return -1;
}
