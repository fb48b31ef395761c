/*
 * Facts about the running program and its machine.
 *
 * core_sys_exe: the absolute path of the running program's file (from
 * /proc/self/exe), so that a program finds what is installed next to it
 * (../lib/rlkit/..., ../share/rlkit/...) wherever it was installed.
 * core_sys_exe_relative: "<folder of the program>/<rel>", not normalised
 * ("/usr/bin/../lib/x").  Both give a malloc'd string that the caller
 * frees, and return 0 or -errno (-ENOMEM, or readlink's error: -ENOENT
 * without /proc).
 *
 * core_sys_cpus: the number of CPUs this process may run on, from its
 * affinity mask (taskset, cgroup cpusets, Slurm), so that a default
 * number of threads or workers never exceeds what the process gets; the
 * online CPU count when the mask cannot be read; at least 1.
 *
 * Thread-safety: all three may be called from any thread.
 */
#ifndef CORE_SYS_H
#define CORE_SYS_H

#include <stddef.h>
#include <sys/types.h>

int core_sys_exe(char **path);
int core_sys_exe_relative(const char *rel, char **path);
int core_sys_cpus(void);

/* Writes all n bytes of p to fd, again after EINTR and short writes:
 * 0, or -errno. */
int core_sys_write_all(int fd, const void *p, size_t n);

/* The start of a small file (/proc, /sys): at most size - 1 bytes into buf,
 * NUL-ended (empty on failure), with one read: their number, or -errno. */
ssize_t core_sys_read_file(const char *path, char *buf, size_t size);

#endif
