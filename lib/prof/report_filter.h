/*
 * What the viewer outputs (report_chrome.h, report_perfetto.h) keep of a
 * trace: a time window [from, to) in nanoseconds from the start of the
 * first event (INT64_MIN / INT64_MAX: open), which events are clipped to,
 * and the processes whose names and tracks are described at the end.
 */
#ifndef PROF_REPORT_FILTER_H
#define PROF_REPORT_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "prof/trace_read.h"

struct prof_window {
	int64_t from, to;	/* as asked, relative to t0 */
	int64_t lo, hi;		/* absolute, once the first event is seen */
	int64_t t0;		/* the start of the first event */
	int started;
};

void prof_window_init(struct prof_window *w, int64_t from, int64_t to);

/* Start again, as before the first event. */
void prof_window_reset(struct prof_window *w);

/*
 * Clip ev to the window into [*a, *b); 0 when nothing of it is inside (an
 * instant inside counts).  The first event seen anchors the window.
 */
int prof_window_clip(struct prof_window *w, const struct prof_ev *ev, int64_t *a, int64_t *b);

/* A set of pids; empty means every process. */
struct prof_pidset {
	int64_t *v;
	size_t n, cap;
};

int prof_pidset_add(struct prof_pidset *s, int64_t pid);	/* 0 or -ENOMEM */
int prof_pidset_has(const struct prof_pidset *s, int64_t pid);	/* empty: 1 */
void prof_pidset_release(struct prof_pidset *s);

#endif
