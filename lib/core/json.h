/*
 * JSON documents and JSON Lines, on jansson.
 *
 * Ownership follows jansson: functions that return a json_t * hand over a
 * new reference (json_decref it); functions that take one borrow it.
 *
 * Errors carry the 1-based line number: for a document, the line inside it;
 * for JSON Lines, the line of the stream.
 */
#ifndef CORE_JSON_H
#define CORE_JSON_H

#include <jansson.h>
#include <stdio.h>

#include "core/error.h"

/* Parse one document from a file ("-" is stdin). */
json_t *core_json_load_file(const char *path, struct core_error *err);
/* Parse one document from a string. */
json_t *core_json_load_string(const char *s, const char *name,
			      struct core_error *err);

/*
 * Write `v` to `fp`: compact on one line with a newline when `pretty` is 0
 * (that is one JSON Lines record), indented by 2 otherwise.  Keys keep
 * insertion order.  Returns 0 or -EIO.
 */
int core_json_write(FILE *fp, const json_t *v, int pretty);

/* Write `v` to `path` atomically (see core/atomic.h); flags as there. */
int core_json_save_file(const char *path, const json_t *v, int flags,
			struct core_error *err);

/*
 * JSON Lines reader: one value per line, blank lines skipped.  Lines may be
 * of any length.  The reader does not own `fp`.
 */
struct core_jsonl_reader;

int core_jsonl_reader_new(struct core_jsonl_reader **out, FILE *fp,
			  const char *name, struct core_error *err);
/* Returns 1 and a new reference in *v, 0 at the end, or a negative code. */
int core_jsonl_read(struct core_jsonl_reader *r, json_t **v,
		    struct core_error *err);
/* Line number of the value last returned. */
long core_jsonl_line(const struct core_jsonl_reader *r);
void core_jsonl_reader_free(struct core_jsonl_reader *r);

#endif
