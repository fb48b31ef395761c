/*
 * Chrome Trace Event output: a JSON object {"traceEvents": [...],
 * "displayTimeUnit": "ms", "otherData": {...}} that Perfetto and
 * chrome://tracing open.
 *
 * Tracks: a process per pid (named after its command); a thread per tid
 * holding its operations ("X" events, cat "op" or the op's domain, args
 * depth) and marks ("i"); and synthetic threads, numbered from
 * PROF_CHROME_TID_BASE up in order of first use:
 *   "<tid> cpu"              the thread's cpu rows, cat "cpu", named after
 *                            their category
 *   "phases"                 the process's phases, cat "phase"
 *   "GPU <d> stream <s>"     one per CUDA stream: kernels, memcpy and
 *                            memset rows, cat = that category, args
 *                            correlation... (what the trace gives)
 * so that the durations on each track nest.  Counters are "C" events,
 * recorder warnings are process-wide instants named "warning".
 * Timestamps are microseconds from the trace start (the start of the first
 * event, "start_ns" in otherData, as a string of nanoseconds of the trace
 * clock) with three decimals, so that a JSON reader gets them back exactly
 * to the nanosecond (up to 2^53 ns, 104 days).
 *
 * The writer is a sink for prof_report_scan(): events are written as they
 * come to `fp` (which must be seekable, so that a restart can truncate it),
 * and prof_chrome_finish() writes the track names and closes the object.
 */
#ifndef PROF_REPORT_CHROME_H
#define PROF_REPORT_CHROME_H

#include <stdint.h>
#include <stdio.h>

#include "prof/trace_read.h"

#define PROF_CHROME_TID_BASE 1000000000

struct prof_chrome;

/* [from, to) as for prof_breakdown_new(); events are clipped to it. */
int prof_chrome_new(struct prof_chrome **out, FILE *fp, int64_t from, int64_t to);
int prof_chrome_event(struct prof_chrome *c, const struct prof_trace_reader *r,
		      const struct prof_ev *ev);
/* Name only the processes given so in the metadata (the caller filters
 * events).  Returns 0 or -ENOMEM. */
int prof_chrome_only(struct prof_chrome *c, int64_t pid);
/* Forget what was written (truncate fp). */
int prof_chrome_restart(struct prof_chrome *c);
/* Write metadata events and the end of the document.  Returns 0 or -EIO. */
int prof_chrome_finish(struct prof_chrome *c, const struct prof_trace_reader *r);
void prof_chrome_free(struct prof_chrome *c);

#endif
