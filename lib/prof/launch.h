/*
 * Recording a command: what rlprof-record does between parsing its
 * options and committing the trace file.
 *
 *	struct prof_launch_opts o = PROF_LAUNCH_OPTS_INIT;
 *	struct prof_launch_result res;
 *	o.argv = argv; o.out = fp;
 *	if (prof_launch_run(&o, &res, &err) < 0) ...
 *	exit(res.exit_code);
 *
 * prof_launch_run makes a spool folder, sets the environment that makes
 * the command record itself (spool, buffer size, the injection library
 * for NVTX and the C API, the Python module on PYTHONPATH), and starts
 * the command (core/spawn.h; signals this process ignores stay ignored in
 * it).  While the command runs, it samples /proc every sample_ms (when
 * above 0) and reaps the orphaned descendants that come to this process
 * as a subreaper; when the command ends it writes the trace to `out`:
 * meta rows (trace_version, clock, recorder, command, host, start_ns),
 * the sampler's wait rows, the spooled events, then process and thread
 * rows.  The spool folder is removed in every case.
 *
 * GPU: with o->gpu the injection library is also the command's CUDA
 * injection library (CUDA_INJECTION64_PATH; one named there already is
 * left alone).  The meta row "gpu" says "recorded: CUPTI ..." or "not
 * recorded: " and why (no CUDA driver, no process initialised CUDA, CUPTI
 * refused, another subscriber, another injection library, turned off);
 * res->gpu_recorded and res->gpu_why say the same (prof/cupti_status.h).
 *
 * Signals: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 that
 * another process sends to this one go on to the command (those from the
 * terminal reach the command by themselves); ones that arrive while the
 * command starts wait until its pid is known.  Signals ignored when the
 * call starts stay ignored.  The handlers stay in place after the call and
 * then do nothing, so that a signal while the trace is written does not
 * lose it; this process also stays a subreaper.  So: one call per process,
 * from its main thread.
 *
 * Environment: RLPROF_INJECT_LIB, RLPROF_PYTHON_DIR and RLPROF_CATEGORIES
 * override where the injection library, the Python module and the
 * category map are looked for (by default ../lib/rlkit/librlprof-inject.so,
 * ../share/rlkit/python and ../share/rlkit/rlprof-categories from the
 * program's folder); the variables the command gets are set in this
 * process's own environment.
 *
 * Errors: returns 0 when the command ran and the trace was written
 * (whatever the command's status), else a negative code with err filled:
 * the command could not be started (res->exec_errno set: exit 127 or
 * 126, see core_spawn_error_exit), or the trace could not be written
 * (res->output_failed when the output stream failed; otherwise memory,
 * the spool folder or its files).  The library prints nothing; warnings
 * (no injection library) go to o->warn.
 */
#ifndef PROF_LAUNCH_H
#define PROF_LAUNCH_H

#include <stdio.h>
#include <sys/types.h>

#include "core/error.h"
#include "prof/trace_write.h"

struct prof_launch_opts {
	char **argv;			/* the command, NULL-terminated */
	FILE *out;			/* where the trace goes */
	enum prof_trace_format format;
	int nvtx, python;		/* record NVTX; inject the Python module */
	long buffer_kib;		/* the command's per-thread buffer */
	long sample_ms;			/* sampling interval; 0: no sampling */
	int stdout_fd;			/* the command's standard output, -1: ours */
	void (*warn)(void *ctx, const char *msg);	/* or NULL */
	void *warn_ctx;
	long cpu_sample_us;		/* CPU sampling period; 0: off (prof/cpusample.h) */
	const char *categories;		/* category map; NULL: the installed one */
	int gpu;			/* record CUDA calls and GPU activity (CUPTI) */
	const char *cpu_timer;		/* "posix" or "perf"; NULL: the environment's */
	int cpu_rows;			/* a row per CPU sample too (full detail) */
};

#define PROF_LAUNCH_OPTS_INIT { NULL, NULL, PROF_TRACE_CSV, 1, 1, 256, 5, -1, NULL, NULL, \
	1000, NULL, 1, NULL, 0 }

struct prof_launch_result {
	pid_t pid;			/* the command's */
	int status;			/* its wait(2) status */
	int exit_code;			/* what a shell says: status, or 128 + signal */
	int exec_errno;			/* it could not be started: errno, else 0 */
	int output_failed;		/* writing `out` failed */
	int gpu_recorded;		/* some process recorded GPU activity */
	char gpu_why[256];		/* else why not (also the trace's meta "gpu") */
};

int prof_launch_run(const struct prof_launch_opts *o, struct prof_launch_result *res,
		    struct core_error *err);

#endif
