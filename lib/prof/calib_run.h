/*
 * The calibration runs of rlprof-calibrate: the command, uninstrumented
 * and under rlprof-record with each source on alone, `repeat` times (or
 * as many as the costs need, below).
 *
 *	struct prof_calib_run_opts o = PROF_CALIB_RUN_OPTS_INIT;
 *	o.argv = argv; o.record = "/usr/bin/rlprof-record"; o.repeat = 5;
 *	if (prof_calib_run(&o, &cal, &fail, &err) == -ECHILD) ... fail.exit_code
 *
 * A repeat runs, in this order: the command alone; rlprof-record
 * --sample 0 --cpu-sample 0 with RLPROF_PYHOOK=off (annotations); the same
 * with the hook (python-hook, left out after the first repeat when it made
 * no cpu rows: not a Python command); rlprof-record --sample 0 (the CPU
 * sampler with the annotations).  Every run goes through the timing
 * wrapper (prof_calib_timed, in the program `self`), under the recorder
 * too, so that the recorder's own start-up and trace writing do not
 * count: its wall time from before fork to after wait, and the CPU time
 * of the command and its descendants.
 *
 * The command's standard output goes to log_fd, or /dev/null; its
 * standard error to a temporary file, appended to log_fd after each run
 * (with show_output both stay ours).  A run that exits other than 0 stops
 * everything: -ECHILD, with *fail saying which run, its exit status and
 * the last lines of its standard error.  Other errors: a negative code
 * with err filled (a command that cannot be started: -ENOENT, -EACCES, as
 * core/spawn.h).  The library prints nothing; progress(ctx, done, total)
 * is called after each run.
 */
#ifndef PROF_CALIB_RUN_H
#define PROF_CALIB_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "prof/calib.h"

/*
 * Repeats by default (repeat 0): at least PROF_CALIB_AUTO_MIN, then more
 * until the correction of a run with rlprof-record's default sources is
 * known to within PROF_CALIB_AUTO_PCT percent of the command's median CPU
 * time (prof_calib_default_uncertainty), at most PROF_CALIB_AUTO_MAX.
 */
#define PROF_CALIB_AUTO_MIN 5
#define PROF_CALIB_AUTO_MAX 20
#define PROF_CALIB_AUTO_PCT 1.0

struct prof_calib_run_opts {
	char **argv;		/* the command, NULL-terminated */
	const char *record;	/* rlprof-record to run */
	int repeat;		/* 0: PROF_CALIB_AUTO_* */
	int show_output;
	int log_fd;		/* -1: none */
	void (*progress)(void *ctx, size_t done, size_t total);
	void *ctx;
	const char *base_env;	/* "NAME=VALUE" for the uninstrumented runs, or NULL */
	const char *self;	/* a program that runs prof_calib_timed when
				   PROF_CALIB_TIMES_ENV is set */
};

#define PROF_CALIB_RUN_OPTS_INIT { NULL, NULL, 0, 0, -1, NULL, NULL, NULL, NULL }

/* The environment variable that makes `self` the timing wrapper. */
#define PROF_CALIB_TIMES_ENV "RLPROF_CALIBRATE_TIMES"

/*
 * The timing wrapper: run argv (NULL-terminated; PROF_CALIB_TIMES_ENV
 * removed from its environment), wait for it, and write "WALL_NS CPU_NS\n"
 * to `path`: the wall time from before fork to after wait, and the user +
 * system time of the command and the descendants it waited for (wait4).
 * Returns its exit status as a shell says it, or a negative code with err
 * filled when it could not be started (core/spawn.h) or `path` not written.
 */
int prof_calib_timed(char **argv, const char *path, struct core_error *err);

struct prof_calib_failure {
	const char *run;	/* "uninstrumented", "annotations", ... */
	int exit_code;		/* as a shell says it */
	char tail[1024];	/* the end of its standard error, "" when not kept */
	int exec_errno;		/* the command could not be started: errno (err says so) */
};

/* Fill cal (runs, costs, machine, command, recorder) from new runs. */
int prof_calib_run(const struct prof_calib_run_opts *o, struct prof_calib *cal,
		   struct prof_calib_failure *fail, struct core_error *err);

struct prof_calib_validation {
	int runs;			/* instrumented runs (and new uninstrumented ones) */
	int64_t uninstrumented_ns;	/* median of the new uninstrumented runs */
	int64_t instrumented_ns;	/* median of the new runs, every source of the default on */
	int64_t corrected_ns;		/* median of each run's time less what its correction removed */
	double error_pct;		/* (corrected - uninstrumented) / uninstrumented */
	double uncorrected_pct;		/* the same for the instrumented time */
	/* The same in CPU time, which a busy machine does not stretch. */
	int64_t uninstrumented_cpu_ns, instrumented_cpu_ns, corrected_cpu_ns;
	double cpu_error_pct, cpu_uncorrected_pct;
	struct prof_calib_fix fix;
};

/*
 * o->repeat (0: PROF_CALIB_AUTO_MIN) more pairs of runs: uninstrumented, and under rlprof-record
 * --sample 0, whose trace is broken down (prof/breakdown.h) and corrected
 * with cal (prof_calib_correct).  The figures are medians (v->fix: the
 * last run's, with the median removed and clamped times), so that one run
 * a busy host slowed does not make the error; the uninstrumented runs are
 * the validation's own, each beside an instrumented one, as a shared
 * machine's speed drifts over minutes.  Errors as prof_calib_run.
 */
int prof_calib_validate(const struct prof_calib_run_opts *o, const struct prof_calib *cal,
			struct prof_calib_validation *v, struct prof_calib_failure *fail,
			struct core_error *err);

/*
 * The events of each source in the trace at `path` and the run time of its
 * first process (the process row of the one whose parent is not in the
 * trace, the earliest); -1 in *run_ns when there is none.  For tests and
 * the runs above.  Returns 0 or a negative code with err filled.
 */
int prof_calib_trace_events(const char *path, uint64_t events[PROF_CALIB_NSOURCES],
			    int64_t *run_ns, struct core_error *err);

#endif
