/*
 * Reading a whole trace in time order (the order of prof_ev_cmp), with
 * bounded memory.
 *
 * Rows of a trace come in no particular order across threads, but the
 * sweep needs them in time order.  prof_report_scan() reads optimistically:
 * while the rows arrive in order it hands each one to the sink at once, so
 * a time-ordered stream takes memory for its open intervals only.  At the
 * first row out of order it starts again: the sink's restart callback runs,
 * the input is read again from the start (a regular file is rewound; a pipe
 * was copied to an unlinked temporary file while it was read, and that copy
 * is read first), in chunks of `chunk` events that are sorted and, when
 * there is more than one, written as sorted runs to temporary files and
 * merged.  Memory is then O(chunk) and temporary disk O(trace).
 *
 * The sink sees each event once after its last restart; problems of the
 * input are reported by the final reader, returned in *reader (free it
 * with prof_trace_reader_free).
 */
#ifndef PROF_REPORT_SCAN_H
#define PROF_REPORT_SCAN_H

#include <stddef.h>
#include <stdio.h>

#include "core/error.h"
#include "prof/trace_read.h"

struct prof_scan_sink {
	/* One event, in time order; returns 0 or a negative code. */
	int (*event)(void *ctx, const struct prof_trace_reader *r,
		     const struct prof_ev *ev);
	/* Forget every event seen so far; returns 0 or a negative code. */
	int (*restart)(void *ctx);
	void *ctx;
};

#define PROF_SCAN_CHUNK_DEFAULT (1u << 20)

/* Statistics of a scan, for tests and benchmarks. */
struct prof_scan_stats {
	int sorted;		/* 1 when the input was already in time order */
	size_t runs;		/* sorted runs written to temporary files */
	uint64_t events;
};

int prof_report_scan(FILE *fp, const char *name, int read_flags, size_t chunk,
		     const struct prof_scan_sink *sink,
		     struct prof_trace_reader **reader,
		     struct prof_scan_stats *stats, struct core_error *err);

/*
 * An unlinked temporary file in $TMPDIR (else /tmp), open for reading and
 * writing; NULL with errno set on failure.
 */
FILE *prof_report_tmpfile(void);

#endif
