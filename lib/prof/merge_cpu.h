/*
 * CPU segments (prof/cpusample.h) into cpu rows, for prof/merge.c.
 *
 * A segment's CPU time is exact; its split into categories comes from
 * samples.  A segment with samples worth at least half its CPU time is
 * split by its own samples; any other by the samples of all segments of
 * the same thread and innermost operation (its key), gathered in a first
 * pass; without those, by the thread's; without any, it is native.  The
 * rows of a segment are laid end to end from its start: one per category
 * with time, then "runnable", then "wait" (blocked) up to its end.
 *
 *	struct prof_cpufrac f = PROF_CPUFRAC_INIT;
 *	prof_cpufrac_add(&f, pid, tid, key, seg);        // pass 1, every segment
 *	prof_cpufrac_write(&f, w, pid, start, key, seg); // pass 2
 *	prof_cpufrac_release(&f);
 */
#ifndef PROF_MERGE_CPU_H
#define PROF_MERGE_CPU_H

#include <stdint.h>

#include "core/map.h"
#include "prof/spool.h"
#include "prof/trace_write.h"

struct prof_cpufrac {
	struct core_map map;	/* pid, tid, key -> int64_t[PROF_SEG_NCAT] */
};

#define PROF_CPUFRAC_INIT { CORE_MAP_INIT }

/* 0 or -ENOMEM.  key: the innermost operation's name, "" for none. */
int prof_cpufrac_add(struct prof_cpufrac *f, int64_t pid, const char *key,
		     const struct prof_spool_seg *seg);

/* The segment's time per category (PROF_SEG_*), summing to seg->cpu. */
void prof_cpufrac_split(const struct prof_cpufrac *f, int64_t pid, const char *key,
			const struct prof_spool_seg *seg, int64_t out[PROF_SEG_NCAT]);

/* Write the rows of a segment that starts at `start`; 0 or -errno. */
int prof_cpufrac_write(const struct prof_cpufrac *f, struct prof_trace_writer *w,
		       int64_t pid, int64_t start, const char *key,
		       const struct prof_spool_seg *seg);

void prof_cpufrac_release(struct prof_cpufrac *f);

/* The trace category of a PROF_SEG_* index. */
enum prof_category prof_seg_category(int seg_cat);

#endif
