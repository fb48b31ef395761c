/*
 * The rlprof trace model: the contract between rlprof-record,
 * rlprof-calibrate and rlprof-report.  man/man5/rlprof-trace.5 is the
 * user-facing description; this header is the source of truth for names.
 *
 * A trace is a table of events, one per row, in no particular order across
 * threads.  In CSV it has this header row:
 *
 *   kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail
 *
 * and in JSON Lines each event is an object with the same keys (empty
 * fields omitted).  Timestamps are integer nanoseconds of CLOCK_REALTIME
 * (nanoseconds since the Unix epoch), the base CUPTI reports too.
 *
 * Kinds and the fields they use (others are empty):
 *   meta     name=key, detail=value (clock, version, command, host, ...);
 *            rows the program wrote (rlprof_meta) also carry pid and tid
 *   process  pid, start_ns, end_ns, name=command, value=parent pid,
 *            detail="exit N" | "signal NAME" | "killed" | "running" |
 *            "ended" (seen only from outside, by sampling; status unknown)
 *   thread   pid, tid, start_ns, end_ns, name=thread name
 *   op       an operation range (NVTX push/pop or start/end, C API,
 *            Python): pid, tid, start_ns, end_ns, name, domain,
 *            value=nesting depth (0 outermost), detail="unclosed" when still
 *            open when the process ended (end_ns is then the process end)
 *   mark     an instant: pid, tid, start_ns=end_ns, name, domain
 *   phase    a training phase (C API, Python): pid, tid, start_ns, end_ns, name
 *   cpu      a CPU category interval: pid, tid, start_ns, end_ns,
 *            category=python|simulator|backend|cuda_api|native|system
 *            (on a CPU), runnable (ready, waiting for a CPU) or wait
 *            (blocked); recorded rows of one thread never overlap.  Rows
 *            from the CPU sampler (prof/cpusample.h) are aggregated: one
 *            row per category and segment of the thread (the time between
 *            two of its operation boundaries), laid end to end from the
 *            segment's start, so that their lengths, not their positions,
 *            are measured.  "wait" rows of processes seen only from outside
 *            (prof/sample.h) may overlap rows of other categories
 *   gpu      GPU activity: pid, start_ns, end_ns, name (kernel name),
 *            category=kernel|memcpy|memset, device, stream, correlation
 *   counter  pid, tid, start_ns=end_ns, name, value
 *   sample   one CPU sample (rlprof-record --full-detail): pid, tid,
 *            start_ns=end_ns, name=the file of the code it found,
 *            category=python|simulator|backend|cuda_api|native, value=the
 *            user CPU ns it stands for
 *   warning  pid, tid, start_ns, detail=what happened ("unbalanced pop",
 *            "dropped N events", ...)
 */
#ifndef PROF_TRACE_H
#define PROF_TRACE_H

#include <stdint.h>

#define PROF_TRACE_HEADER \
	"kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail"
#define PROF_TRACE_COLUMNS 13

enum prof_kind {
	PROF_KIND_META,
	PROF_KIND_PROCESS,
	PROF_KIND_THREAD,
	PROF_KIND_OP,
	PROF_KIND_MARK,
	PROF_KIND_PHASE,
	PROF_KIND_CPU,
	PROF_KIND_GPU,
	PROF_KIND_COUNTER,
	PROF_KIND_WARNING,
	PROF_KIND_SAMPLE,
	PROF_KIND_COUNT
};

/* Categories of cpu and gpu rows, and of breakdown rows in reports. */
enum prof_category {
	PROF_CAT_NONE,		/* empty field */
	PROF_CAT_PYTHON,
	PROF_CAT_SIMULATOR,
	PROF_CAT_BACKEND,
	PROF_CAT_CUDA_API,
	PROF_CAT_NATIVE,	/* reports only: CPU time covered by no cpu row */
	PROF_CAT_WAIT,
	PROF_CAT_GPU,		/* reports only: GPU time */
	PROF_CAT_KERNEL,	/* gpu rows */
	PROF_CAT_MEMCPY,
	PROF_CAT_MEMSET,
	PROF_CAT_SYSTEM,	/* cpu rows: in the kernel on the thread's behalf */
	PROF_CAT_RUNNABLE,	/* cpu rows: ready to run, waiting for a CPU */
	PROF_CAT_COUNT
};

/* Lowercase names as they appear in traces ("op", "cuda_api"). */
const char *prof_kind_name(enum prof_kind k);
const char *prof_category_name(enum prof_category c);
/* Name to value; -1 when unknown. */
int prof_kind_parse(const char *s);
int prof_category_parse(const char *s);

#endif
