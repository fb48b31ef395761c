/*
 * Tasks and their ids.
 *
 * A task is one input line.  With JSON Lines input, a line holding an
 * object with an "id" member (a string or an integer) has that id;
 * every other task's id is its line number in the input (an integer), so
 * the same input gives the same ids when a run is resumed.
 *
 * Ids are compared by key: "s" + the string, or "i" + the decimal integer,
 * so the string "7" and the integer 7 are different ids.
 * Tables of ids are core_map (core/map.h) keyed by these keys.
 */
#ifndef FIBER_TASK_H
#define FIBER_TASK_H

#include <jansson.h>
#include <stddef.h>

#include "core/error.h"

/*
 * The id of the task on input line `lineno`: *id is a new reference (a
 * JSON string or integer) and *key a malloc'd key.  `v` is the parsed line
 * (NULL for --lines input).  0, or -EINVAL for an id of another type.
 */
int fiber_task_id(const json_t *v, long lineno, json_t **id, char **key,
		  struct core_error *err);

/* The key of an id value (string or integer), malloc'd; NULL otherwise. */
char *fiber_task_key(const json_t *id);

#endif
