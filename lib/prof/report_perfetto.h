/*
 * Perfetto trace output (rlprof-report -f perfetto): the protobuf format
 * of Perfetto's trace.proto (a Trace is a sequence of TracePacket fields),
 * which ui.perfetto.dev opens however long the run, written packet by
 * packet with an encoder of our own.
 *
 * Tracks (TrackDescriptor packets, written before their first event and
 * again at the end with the names the trace gives then, the last one of
 * a uuid being the one that holds):
 *   a process track per pid (ProcessDescriptor: pid, the command)
 *   a thread track per tid holding its operations and marks
 *     (ThreadDescriptor: pid, tid, thread name)
 *   under the process, tracks named like those of report_chrome.h:
 *   "<tid> cpu", "phases", "GPU <d> stream <s>", and a counter track per
 *   counter name
 * Ranges are TYPE_SLICE_BEGIN and TYPE_SLICE_END events (name and
 * category as in the Chrome output), marks and recorder warnings
 * TYPE_INSTANT, counters TYPE_COUNTER with double_counter_value.  A range
 * that would cross another on its track rather than nest in it goes to a
 * further track of the same parent, named "<track> (2)", "(3)" ..., so
 * that the slices of every track nest.  Timestamps are the trace's
 * nanoseconds; packets come in time order on one sequence (id 1).
 *
 * The writer is a sink for prof_report_scan() like report_chrome.h; its
 * memory is that of the open ranges and the tracks.
 */
#ifndef PROF_REPORT_PERFETTO_H
#define PROF_REPORT_PERFETTO_H

#include <stdint.h>
#include <stdio.h>

#include "prof/trace_read.h"

struct prof_perfetto;

/* [from, to) as for prof_breakdown_new(); events are clipped to it. */
int prof_perfetto_new(struct prof_perfetto **out, FILE *fp, int64_t from, int64_t to);
int prof_perfetto_event(struct prof_perfetto *p, const struct prof_trace_reader *r,
			const struct prof_ev *ev);
/* Describe only these processes at the end (the caller filters events). */
int prof_perfetto_only(struct prof_perfetto *p, int64_t pid);
/* Forget what was written (truncate fp). */
int prof_perfetto_restart(struct prof_perfetto *p);
/* End the open ranges, name the tracks.  Returns 0, -ENOMEM or -EIO. */
int prof_perfetto_finish(struct prof_perfetto *p, const struct prof_trace_reader *r);
void prof_perfetto_free(struct prof_perfetto *p);

#endif
