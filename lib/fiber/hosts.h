/*
 * Host lists for the remote backends: a file of "host[:slots]" lines
 * ("#" starts a comment; blank lines are skipped; slots default to 1;
 * an IPv6 literal is written "[::1]:2").
 *
 * Workers (or ranks) are placed by filling each host's slots in file
 * order, then around again when more workers than slots are asked for.
 */
#ifndef FIBER_HOSTS_H
#define FIBER_HOSTS_H

#include <stddef.h>

#include "core/error.h"

struct fiber_host {
	char *name;
	int slots;
};

struct fiber_hosts {
	struct fiber_host *v;
	size_t n, cap;
};

#define FIBER_HOSTS_INIT { NULL, 0, 0 }

/* Read a hosts file; errors name the file and line. */
int fiber_hosts_load(struct fiber_hosts *h, const char *path,
		     struct core_error *err);
/* Parse one line (without its newline) into h; 0, 1 when blank, or -EINVAL. */
int fiber_hosts_parse_line(struct fiber_hosts *h, const char *line,
			   struct core_error *err);
void fiber_hosts_release(struct fiber_hosts *h);
/* The total number of slots. */
long fiber_hosts_slots(const struct fiber_hosts *h);

/*
 * Placement of worker `i` (0-based) among `n`: the host index, and the
 * local rank and local size (workers on that host).
 */
void fiber_hosts_place(const struct fiber_hosts *h, long i, long n,
		       size_t *host, long *local_rank, long *local_size);

#endif
