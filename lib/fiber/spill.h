/*
 * Records waiting for their turn (fiberrun --keep-order): kept in memory
 * up to a limit, past it appended to a temporary file that is unlinked at
 * once (it goes away with the process, whatever happens), and read back
 * when their turn comes.
 */
#ifndef FIBER_SPILL_H
#define FIBER_SPILL_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

struct fiber_spill {
	int fd;			/* -1 until the first record spills */
	uint64_t size;		/* bytes in the file */
	uint64_t waiting;	/* records in the file not yet read back */
};

#define FIBER_SPILL_INIT { -1, 0, 0 }

/* Append rec[0..len): *off is where it went.  0 or a negative code (err set). */
int fiber_spill_put(struct fiber_spill *s, const char *rec, size_t len, uint64_t *off,
		    struct core_error *err);
/* Read back the record at off (len bytes): a malloc'd NUL-terminated copy in *rec. */
int fiber_spill_get(struct fiber_spill *s, uint64_t off, size_t len, char **rec,
		    struct core_error *err);
void fiber_spill_release(struct fiber_spill *s);

#endif
