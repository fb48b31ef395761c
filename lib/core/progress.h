/*
 * A progress bar on stderr, for programs (cmd/ only).
 *
 * It draws only when stderr is a terminal, and at most ten times a second,
 * so a pipe or a log file never sees it.  Usage:
 *
 *	struct core_progress p = CORE_PROGRESS_INIT;
 *	core_progress_start(&p, "frames", total);   // total 0: unknown
 *	for (...) core_progress_update(&p, done);
 *	core_progress_finish(&p);                   // clears the line
 */
#ifndef CORE_PROGRESS_H
#define CORE_PROGRESS_H

#include <stdint.h>

struct core_progress {
	const char *label;
	uint64_t total;
	int64_t start_ns, last_draw_ns;
	int enabled;	/* stderr is a terminal */
	int drawn;	/* something is on the line */
	int eta;	/* with a total: the time left, from the rate so far */
	int no_bar;	/* counts, rate and ETA only */
};

#define CORE_PROGRESS_INIT { NULL, 0, 0, 0, 0, 0, 0, 0 }

void core_progress_start(struct core_progress *p, const char *label, uint64_t total);
void core_progress_update(struct core_progress *p, uint64_t done);
void core_progress_finish(struct core_progress *p);

/* Force drawing on or off (tests; --progress options). */
void core_progress_force(struct core_progress *p, int enabled);

#endif
