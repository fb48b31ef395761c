/*
 * The CUPTI records of a spool file (prof/spool.h: PROF_REC_GPU,
 * PROF_REC_API, written by the CUDA injection library) as trace rows:
 *
 *   PROF_REC_GPU -> a gpu row: pid, start_ns, end_ns, name (kernel name;
 *                   for copies the direction, "HtoD", ...), category
 *                   kernel|memcpy|memset, device, stream, correlation
 *   PROF_REC_API -> a cpu row of category cuda_api on the calling thread:
 *                   pid, tid, start_ns, end_ns, name (the CUDA function),
 *                   correlation (the id its kernels and copies carry)
 *
 * Returns 1 when `rec` was one of these (and written), 0 when it is of
 * another type, or a negative errno of the writer.  A record too short for
 * its struct is skipped (returns 1, writes nothing).
 */
#ifndef PROF_CUPTI_MERGE_H
#define PROF_CUPTI_MERGE_H

#include <stdint.h>

#include "prof/spool.h"
#include "prof/trace_write.h"

int prof_cupti_merge_rec(struct prof_trace_writer *w, int64_t pid, int64_t tid,
			 const struct prof_spool_rec *rec);

/* Encode a PROF_REC_GPU text (in lib/prof/cupti_rec.c, which the
 * injection library links without the trace writer): struct then name (cut to fit), into buf of
 * PROF_SPOOL_TEXT_MAX bytes; returns the length to record. */
size_t prof_cupti_gpu_text(char *buf, const struct prof_spool_gpu *g, const char *name);
/* The same for PROF_REC_API. */
size_t prof_cupti_api_text(char *buf, int64_t end, const char *name);

#endif
