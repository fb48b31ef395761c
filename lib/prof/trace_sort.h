/*
 * Putting trace rows in the order that rlprof-report reads best, with
 * bounded memory: what rlprof-record does with the rows of its merge.
 *
 *	struct prof_trace_sort *s;
 *	prof_trace_sort_new(&s, 0);
 *	w.sort = s;                          // prof_trace_write hands rows here
 *	... prof_trace_write(&w, &ev) ...
 *	w.sort = NULL;
 *	prof_trace_sort_finish(s, &w, &err); // writes them, in order
 *	prof_trace_sort_free(s);
 *
 * The order is the report's (prof_ev_cmp in prof/breakdown.h): by start_ns,
 * the longer of two rows that start together first, then by value (an
 * operation's nesting depth), then in the order the rows were added.  A
 * trace written so carries the meta row "order" = "start_ns"
 * (PROF_TRACE_ORDER_META), so that a reader knows it need not sort.
 *
 * Rows are kept in memory, serialized, up to `chunk_bytes` (0: a default
 * of 64 MiB); a full chunk is sorted and written to an unlinked temporary
 * file in $TMPDIR (else /tmp) as a sorted run, and finish merges the runs.
 * Memory is O(chunk_bytes), temporary disk O(trace).
 *
 * Functions return 0 or a negative errno (-ENOMEM; an I/O error of a
 * temporary file or of the output); finish fills err.
 */
#ifndef PROF_TRACE_SORT_H
#define PROF_TRACE_SORT_H

#include <stddef.h>

#include "core/error.h"
#include "prof/trace_write.h"

#define PROF_TRACE_ORDER_META "order"
#define PROF_TRACE_ORDER_START "start_ns"

struct prof_trace_sort;

int prof_trace_sort_new(struct prof_trace_sort **out, size_t chunk_bytes);
int prof_trace_sort_add(struct prof_trace_sort *s, const struct prof_event *ev);
/* Write every row added, in order, with `w` (whose sort must be NULL). */
int prof_trace_sort_finish(struct prof_trace_sort *s, struct prof_trace_writer *w,
			   struct core_error *err);
/* Rows added, and sorted runs written to temporary files so far. */
size_t prof_trace_sort_rows(const struct prof_trace_sort *s);
size_t prof_trace_sort_runs(const struct prof_trace_sort *s);
void prof_trace_sort_free(struct prof_trace_sort *s);

#endif
