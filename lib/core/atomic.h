/*
 * Atomic file output: write to a temporary file in the destination's
 * folder, then fsync and rename over the destination.  Whatever happens
 * before core_atomic_commit() succeeds (a write error, a full disk, a
 * crash), the old file at `path` is untouched.
 *
 * The path "-" means standard output: writes go straight to stdout and
 * commit only flushes it.
 *
 *	struct core_atomic af = CORE_ATOMIC_INIT;
 *	if (core_atomic_open(&af, path, 0, &err) < 0) ...
 *	fprintf(af.fp, ...);
 *	if (core_atomic_commit(&af, &err) < 0) ...   // on failure: aborted
 *
 * core_atomic_abort() removes the temporary file; it is safe to call after
 * a commit or on a never-opened struct.
 */
#ifndef CORE_ATOMIC_H
#define CORE_ATOMIC_H

#include <stdio.h>

#include "core/error.h"

/* Flags for core_atomic_open. */
#define CORE_ATOMIC_FORCE 1	/* replace an existing file (else -EEXIST) */

struct core_atomic {
	FILE *fp;	/* where to write; stdout for "-" */
	char *path;	/* destination */
	char *tmp;	/* temporary file, NULL for stdout or when done */
};

#define CORE_ATOMIC_INIT { NULL, NULL, NULL }

int core_atomic_open(struct core_atomic *af, const char *path, int flags,
		     struct core_error *err);
int core_atomic_commit(struct core_atomic *af, struct core_error *err);
void core_atomic_abort(struct core_atomic *af);

#endif
