/*
 * The joblog: a journal of finished tasks, one result record (the same
 * JSON line that goes to standard output) per line, appended and fsynced
 * before the records reach standard output, so that everything the user
 * has seen is in the journal.
 *
 * fiber_joblog_open with `resume` reads the records already there into
 * `done` (key -> record line: value.p, a malloc'd string that the caller
 * frees, e.g. with core_map_release(done, free)), ignores a torn last line (a crash in the
 * middle of a write) and cuts the file back to its last whole record
 * before appending; without `resume`, a non-empty file is an error
 * (-EEXIST), so a journal is never mixed up with another run's.
 */
#ifndef FIBER_JOBLOG_H
#define FIBER_JOBLOG_H

#include <stddef.h>

#include "core/error.h"
#include "core/map.h"
#include "fiber/task.h"
#include "fiber/wire.h"

struct fiber_joblog {
	int fd;
	char *path;
	struct core_buf pending;	/* records not yet written */
};

#define FIBER_JOBLOG_INIT { -1, NULL, CORE_BUF_INIT }

int fiber_joblog_open(struct fiber_joblog *j, const char *path, int resume,
		      struct core_map *done, struct core_error *err);
/* Queue one record (a JSON text without newline). */
int fiber_joblog_add(struct fiber_joblog *j, const char *rec, size_t len);
/* Write the queued records and fsync.  0 or a negative code. */
int fiber_joblog_commit(struct fiber_joblog *j, struct core_error *err);
void fiber_joblog_release(struct fiber_joblog *j);

#endif
