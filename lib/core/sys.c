#include "core/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int core_sys_exe(char **path)
{
	size_t size = 256;
	char *buf = NULL;

	*path = NULL;
	for (;;) {
		char *b = realloc(buf, size);
		ssize_t n;

		if (!b) {
			free(buf);
			return -ENOMEM;
		}
		buf = b;
		n = readlink("/proc/self/exe", buf, size);
		if (n < 0) {
			int e = errno;

			free(buf);
			return -e;
		}
		if ((size_t)n < size) {
			buf[n] = '\0';
			*path = buf;
			return 0;
		}
		if (size > 1 << 20) {	/* longer than any path the kernel makes */
			free(buf);
			return -ENAMETOOLONG;
		}
		size *= 2;
	}
}

int core_sys_exe_relative(const char *rel, char **path)
{
	char *exe, *slash;
	int ret = core_sys_exe(&exe);

	if (ret < 0)
		return ret;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	ret = asprintf(path, "%s/%s", slash ? exe : ".", rel) < 0 ? -ENOMEM : 0;
	if (ret < 0)
		*path = NULL;
	free(exe);
	return ret;
}

int core_sys_cpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

int core_sys_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

ssize_t core_sys_read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = -errno;

	if (fd >= 0) {
		do
			n = read(fd, buf, size - 1);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			n = -errno;
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	return n;
}
