/*
 * CPU segments (prof/cpusample.h) into cpu rows, for prof/merge.c.
 *
 * A segment's CPU time is exact; its split into categories comes from
 * samples.  A segment with samples worth at least half its CPU time is
 * split by its own samples; any other goes whole to one category of the
 * samples of all segments of the same thread and innermost operation (its
 * key), gathered in a first pass: the one furthest behind its share of
 * what the key's segments got so far (so the key's totals follow the
 * samples to within one segment); without samples of the key, by the
 * thread's; without any, it is native.  The
 * rows of a segment are laid end to end from its start: one per category
 * with time, then "runnable", then "wait" (blocked) up to its end.
 *
 *	struct prof_cpufrac f = PROF_CPUFRAC_INIT;
 *	prof_cpufrac_add(&f, pid, tid, key, seg);        // pass 1, every segment
 *	prof_cpufrac_write(&f, w, pid, start, key, seg); // pass 2
 *	prof_cpufrac_flush(&f, w);                        // end of a file
 *	prof_cpufrac_release(&f);
 */
#ifndef PROF_MERGE_CPU_H
#define PROF_MERGE_CPU_H

#include <stdint.h>

#include "core/map.h"
#include "prof/spool.h"
#include "prof/trace_write.h"

struct prof_cpurow {
	int64_t pid, tid, start, end;
	enum prof_category cat;
};

struct prof_cpufrac {
	struct core_map map;	/* pid, tid, key -> int64_t[PROF_SEG_NCAT] */
	struct prof_cpurow *pending;	/* the last row of each thread */
	size_t npending, cappending;
};

#define PROF_CPUFRAC_INIT { CORE_MAP_INIT, NULL, 0, 0 }

/* 0 or -ENOMEM.  key: the innermost operation's name, "" for none. */
int prof_cpufrac_add(struct prof_cpufrac *f, int64_t pid, const char *key,
		     const struct prof_spool_seg *seg);

/* The segment's time per category (PROF_SEG_*), summing to seg->cpu.
 * Calls in pass 2 must come in the order of the segments (it keeps what
 * each key got so far, in the map's values). */
void prof_cpufrac_split(const struct prof_cpufrac *f, int64_t pid, const char *key,
			const struct prof_spool_seg *seg, int64_t out[PROF_SEG_NCAT]);

/* Write the rows of a segment that starts at `start`; 0 or -errno.  A
 * thread's last row is held back and grows while the next ones continue
 * it (same category, starting at its end): that changes no instant's
 * category, and a thread busy in one category gets one row, not one per
 * segment.  prof_cpufrac_flush writes the rows held back. */
int prof_cpufrac_write(struct prof_cpufrac *f, struct prof_trace_writer *w,
		       int64_t pid, int64_t start, const char *key,
		       const struct prof_spool_seg *seg);
int prof_cpufrac_flush(struct prof_cpufrac *f, struct prof_trace_writer *w);

void prof_cpufrac_release(struct prof_cpufrac *f);

/* The trace category of a PROF_SEG_* index. */
enum prof_category prof_seg_category(int seg_cat);

#endif
