/*
 * rlprof: annotate a program for rlprof-record(1), from C.
 *
 *	#include <prof/rlprof.h>        // cc ... $(pkg-config --cflags --libs rlkit)
 *
 *	rlprof_phase("training");
 *	for (;;) {
 *		rlprof_push("inference");
 *		...
 *		rlprof_pop();
 *	}
 *
 * Operations (push/pop, start/end) become "op" rows of the trace, marks
 * "mark" rows, phases "phase" rows, counters "counter" rows and metadata
 * "meta" rows (rlprof-trace(5)).  Outside rlprof-record every function
 * returns at once: the first call checks the environment, the others test
 * one flag.  While recording, a call appends to a per-thread buffer: no
 * locks, no system calls (see prof/recorder.h).
 *
 * Strings are copied: callers may free them when the call returns.  All
 * functions are thread-safe; push/pop stacks are per thread.  A pop with
 * nothing pushed, and pushes still open at exit, are recorded as such
 * (warning rows, "unclosed" ops), never fatal.
 *
 * These functions are exported by librlkit and by the NVTX injection
 * library that rlprof-record loads into Python (ctypes).
 */
#ifndef PROF_RLPROF_H
#define PROF_RLPROF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define RLPROF_API __attribute__((visibility("default")))
#else
#define RLPROF_API
#endif

/* 1 when the program runs under rlprof-record, else 0. */
RLPROF_API int rlprof_enabled(void);

/* Open an operation on this thread's stack; returns its nesting level
 * (0 outermost), or -1 when not recording. */
RLPROF_API int rlprof_push(const char *name);
/* Close the innermost open operation; returns its level, or -1. */
RLPROF_API int rlprof_pop(void);

/* An operation that may end on another thread: returns an id for
 * rlprof_end (0 when not recording). */
RLPROF_API uint64_t rlprof_start(const char *name);
RLPROF_API void rlprof_end(uint64_t id);

/* An instant event. */
RLPROF_API void rlprof_mark(const char *name);

/* Enter a phase of the run ("training", "evaluation", ...), ending the
 * previous one of the process; NULL or "" just ends it. */
RLPROF_API void rlprof_phase(const char *name);

/* A sample of a counter (episode return, replay buffer size, ...). */
RLPROF_API void rlprof_counter(const char *name, double value);

/* A key/value pair about the run (becomes a "meta" row). */
RLPROF_API void rlprof_meta(const char *key, const char *value);

/* Name the calling thread in the trace. */
RLPROF_API void rlprof_thread_name(const char *name);

/*
 * The CPU category of the calling thread from now on: one of the cpu
 * categories of prof/trace.h ("python", "simulator", "backend",
 * "cuda_api"), by number (enum prof_category); 0 ends it.  The Python
 * module sets it; C programs rarely need to.  rlprof_category_id turns a
 * name into that number (-1 when unknown).
 */
RLPROF_API void rlprof_cpu(int category);
RLPROF_API int rlprof_category_id(const char *name);

/* Write out everything buffered by every thread and stop recording this
 * process image: call it before exec() or _exit(). */
RLPROF_API void rlprof_finish(void);

#ifdef __cplusplus
}
#endif

#endif
