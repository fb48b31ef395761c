/*
 * Calibration: what the profiler itself costs, per event, and its removal
 * from a breakdown (rlprof-calibrate, rlprof-report --calibration).
 * man/man5/rlprof-calibration.5 describes the file.
 *
 * Sources: the instrumentation that rlprof-record can switch on alone,
 * each with the trace rows that count as its events:
 *   annotations   NVTX, C API and Python operations: op, mark, phase and
 *                 counter rows
 *   python-hook   the Python module's profile hook (--cpu-sample 0): cpu rows
 *   cpu-sampling  the per-thread CPU sampler (the default): the annotation
 *                 events (each boundary closes a segment) plus the samples,
 *                 the CPU time of the cpu rows over the period (meta row
 *                 cpu_sample_us; 1000 when absent).  Not its cpu rows:
 *                 how many a run has depends on its timing.
 * A trace's cpu rows are the hook's when its meta row cpu_sample_us is 0,
 * the sampler's otherwise.
 *
 * The cost of a source is the median over the repeats of
 * (t_on - t_base) / events (with their mean and sample standard deviation
 * beside it, as a measure of the noise), where t_on is the CPU time
 * (user + system, of the command and its descendants) with the source on
 * and t_base that of the run of the same repeat it adds to: the
 * uninstrumented run for annotations, the annotations-only run for the
 * hook and the sampler (which run with the annotations on).  CPU time,
 * not wall time: the recorder's cost is work on a CPU, and CPU time does
 * not count the time a busy machine keeps the command waiting (which
 * makes wall-time differences noise there).  The median, not the mean: a
 * run that a busy host slowed by a third (which happens here and there on
 * a shared machine) moves a mean of five repeats by several times the
 * cost being measured, and a median not at all.
 *
 *	struct prof_calib cal = PROF_CALIB_INIT;
 *	if (prof_calib_load(&cal, "cal.json", &err) < 0) ...
 *	... prof_calib_count(&counts, &ev) for every event of a trace
 *	prof_calib_correct(bd, &cal, &counts, meta_cpu_sample_us, &fix);
 *	prof_calib_release(&cal); prof_calib_counts_release(&counts);
 */
#ifndef PROF_CALIB_H
#define PROF_CALIB_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "prof/breakdown.h"
#include "prof/trace_read.h"

enum prof_calib_source {
	PROF_CALIB_ANNOTATIONS,
	PROF_CALIB_PYTHON_HOOK,
	PROF_CALIB_CPU_SAMPLING,
	PROF_CALIB_NSOURCES
};

/* "annotations", "python-hook", "cpu-sampling"; -1 from parse when unknown. */
const char *prof_calib_source_name(int s);
int prof_calib_source_parse(const char *s);

/* The runs of one source (or of the uninstrumented command). */
struct prof_calib_runs {
	size_t n;
	int64_t *ns;		/* run (wall) time of each repeat */
	int64_t *cpu;		/* CPU time of each repeat */
	uint64_t *events;	/* events of each repeat (sources only) */
};

struct prof_calib_cost {
	int measured;		/* 0: its runs had no events; no cost */
	double ns;		/* ns per event: the median of the repeats' costs */
	double mean, spread;	/* their mean and sample standard deviation */
	size_t samples;		/* repeats behind them */
};

struct prof_calib {
	int version;		/* of the file format: 1 */
	char *recorder;		/* "rlprof-record 1.2.3" */
	char *host, *kernel, *arch, *cpu_model;
	long cpus;
	char **argv;		/* the command, NULL-terminated */
	char *command;		/* argv joined by spaces, as trace meta rows say */
	int64_t created_ns;	/* CLOCK_REALTIME */
	struct prof_calib_runs base;	/* uninstrumented */
	struct prof_calib_runs runs[PROF_CALIB_NSOURCES];
	struct prof_calib_cost cost[PROF_CALIB_NSOURCES];
};

#define PROF_CALIB_INIT { 1, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, 0, { 0, NULL, NULL, NULL }, \
	{ { 0, NULL, NULL, NULL } }, { { 0, 0, 0, 0, 0 } } }

void prof_calib_release(struct prof_calib *cal);

/* Append one run (events ignored for the base); 0 or -ENOMEM. */
int prof_calib_runs_add(struct prof_calib_runs *r, int64_t ns, int64_t cpu, uint64_t events);
/* The median of v[0..n-1] (of the middle two: their mean), 0 when n is 0. */
int64_t prof_calib_median(const int64_t *v, size_t n);
/* The median run time (or CPU time), 0 when there is none. */
int64_t prof_calib_runs_median(const struct prof_calib_runs *r);
int64_t prof_calib_runs_median_cpu(const struct prof_calib_runs *r);

/*
 * Fill cal->cost from the runs as described above: the runs of a source
 * pair with those of its base by index; a repeat without events or
 * without a base run is left out.
 */
void prof_calib_compute(struct prof_calib *cal);

/*
 * How well the runs pin source s's cost down: the standard error of its
 * median cost per event (1.2533 times a robust standard deviation of the
 * repeats' costs, 1.4826 times their median absolute deviation, over the
 * square root of their count), in ns; 0 with fewer than 2 repeats.  Times
 * the source's median event count (prof_calib_events_median), it is how
 * well the correction of a run of the command is known.  After
 * prof_calib_compute.
 */
double prof_calib_uncertainty(const struct prof_calib *cal, int s);
double prof_calib_events_median(const struct prof_calib *cal, int s);
/* The same for the sources of rlprof-record's default (annotations and the
 * CPU sampler), summed: ns of CPU time per run. */
double prof_calib_default_uncertainty(const struct prof_calib *cal);

/* The machine this runs on: host, kernel, arch, cpu_model, cpus; 0 or -ENOMEM. */
int prof_calib_machine(struct prof_calib *cal);

/*
 * To and from JSON.  prof_calib_to_json returns a new reference or NULL.
 * prof_calib_load reads a file: a syntax error is "'name': line N: ...",
 * a missing or mistyped field "'name': FIELD: ..." (-EINVAL); fields it
 * does not know are ignored.  On failure cal is left released.
 */
json_t *prof_calib_to_json(const struct prof_calib *cal);
int prof_calib_from_json(struct prof_calib *cal, const json_t *root, const char *name,
			 struct core_error *err);
int prof_calib_load(struct prof_calib *cal, const char *path, struct core_error *err);

/*
 * Differences between a calibration and a trace (its meta rows host,
 * recorder, command): calls fn once per difference with a phrase such as
 * "host 'a' (the trace's: 'b')".  Returns how many.
 */
int prof_calib_check(const struct prof_calib *cal, const struct prof_trace_reader *r,
		     void (*fn)(void *ctx, const char *what), void *ctx);

/* Events per process, counted from a trace's rows. */
struct prof_calib_count {
	int64_t pid;
	uint64_t annotations;	/* op, mark, phase and counter rows */
	uint64_t cpu;		/* cpu rows */
	int64_t cpu_ns;		/* their time on a CPU (every category but wait, runnable) */
};

struct prof_calib_counts {
	struct prof_calib_count *v;
	size_t n, cap, last;
};

#define PROF_CALIB_COUNTS_INIT { NULL, 0, 0, 0 }

/* Count ev; 0 or -ENOMEM. */
int prof_calib_count(struct prof_calib_counts *c, const struct prof_ev *ev);
/* The events of source s in count n of a trace whose meta row
 * cpu_sample_us is `us` (may be NULL). */
double prof_calib_events(const struct prof_calib_count *n, int s, const char *us);
void prof_calib_counts_release(struct prof_calib_counts *c);
/* The counts of process pid (zeros when none). */
struct prof_calib_count prof_calib_counts_of(const struct prof_calib_counts *c, int64_t pid);

/* What a correction did, over all processes of the breakdown. */
struct prof_calib_fix {
	int applied;		/* a calibration was given */
	int64_t wall_ns;	/* profiled wall time before the correction */
	int64_t removed_ns;	/* time taken out */
	int64_t removed_cpu_ns;	/* of it, CPU time (the rest: runnable and wait) */
	int64_t clamped_ns;	/* cost that found no CPU time to take out */
	uint64_t events[PROF_CALIB_NSOURCES];
	const char *calibration;	/* its name, for the report line */
};

/*
 * Take the profiler's cost out of bd (after prof_breakdown_finish): for
 * each process, the events of each source (from `counts`; cpu rows go to
 * the hook when `cpu_sample_us` is "0", else to the sampler) times the
 * source's cost per event (negative costs count as 0).  The cost goes to the
 * process's operations in proportion to their boundaries: half of each
 * call to the operation itself, half to its caller (or [unannotated] for
 * a root), because a push or pop costs time on both sides of its
 * timestamp; a process without operations pays in [unannotated].  Within
 * an operation it comes out of the CPU slots in proportion to their time,
 * then, when they hold too little, out of runnable and wait (short
 * segments that the recorder did not measure on a CPU); never more than
 * they hold (the rest is clamped_ns), so no slot goes negative.  CPU time
 * taken out also takes the operation's runnable time in proportion
 * (runnable/CPU of the operation): what a busy machine made the thread
 * wait for the profiler's work.  The
 * phase slots and the process's wall time shrink by the same amount.
 * GPU time stays.  Returns 0 or -ENOMEM.
 */
int prof_calib_correct(struct prof_breakdown *bd, const struct prof_calib *cal,
		       const struct prof_calib_counts *counts, const char *cpu_sample_us,
		       struct prof_calib_fix *fix);

/*
 * The report line: "corrected: 1.23 ms of profiler cost removed (2.10 % of
 * 58.6 ms profiled; 40000 annotation, 120 cpu-sampling events), calibration
 * 'cal.json'", with ", 1.0 us clamped" when some was.
 */
void prof_calib_fix_text(char *buf, size_t size, const struct prof_calib_fix *fix);

#endif
