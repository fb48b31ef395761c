/*
 * The trace reader's state, shared by its parts (internal to lib/prof):
 *
 *	trace_read.c		the sources, format detection, the CSV and
 *				JSON Lines records, prof_trace_read
 *	trace_read_conv.h	schema conversion: a record's fields to an
 *				event, or to a process, thread or meta entry
 *				(inline in the record loops)
 *	trace_read_reg.c	the out-of-line part of what the reader
 *				registers (strings, new processes, problems)
 *				and the accessors of all it registered
 *	trace_read_num.h	numbers and timestamps, a word at a time
 */
#ifndef PROF_TRACE_READ_INT_H
#define PROF_TRACE_READ_INT_H

#include <stdio.h>

#include <jansson.h>

#include "prof/trace_read.h"
#include "prof/trace_read_num.h"
#include "core/csv.h"
#include "core/json.h"
#include "core/map.h"

enum col {
	COL_KIND, COL_PID, COL_TID, COL_START, COL_END, COL_NAME, COL_CATEGORY,
	COL_DOMAIN, COL_DEVICE, COL_STREAM, COL_CORRELATION, COL_VALUE,
	COL_DETAIL, NCOL
};
struct meta {
	char *key, *value;
};

struct prof_trace_reader {
	FILE *src[2];		/* read src[0] to its end, then src[1] */
	int cur;
	FILE *tee;
	int tee_errno;		/* copying to `tee` failed with this */
	char *name;
	int flags;
	int format;		/* 0 unknown, 1 csv, 2 jsonl */
	/* The bytes read to tell the format, read again by the parser. */
	char *head;
	size_t headlen, headcap, headpos;
	struct core_csv_reader *csv;
	struct core_jsonl_reader *jsonl;
	/* Fields of the current record: the CSV row's own arrays when its
	 * header is PROF_TRACE_HEADER (direct), else copied to own. */
	const char *const *fld;
	const size_t *fldlen;
	const char *own[NCOL];
	size_t ownlen[NCOL];
	int col[NCOL];		/* CSV column of each known field, -1 */
	size_t ncols;		/* columns of the header */
	int direct;
	json_t *json;		/* the JSON Lines object being read */
	char numbuf[NCOL][32];
	/*
	 * Numbers and names are read a word at a time (trace_read_num.h):
	 * every field of up to 20 bytes has 8 readable bytes from its start,
	 * as CSV fields lie in the CSV reader's buffer, which has zeroed
	 * slack after its end (core/input.h), and short JSON Lines values
	 * are copied to numbuf.
	 */
	struct prof_num_cache nums;
	struct core_map st;	/* interned strings: id = entry index + 1 */
	uint32_t last_id[NCOL];	/* the id each column interned last */
	uint64_t last_w[NCOL];	/* its bytes as a word, when up to 8 */
	struct prof_process *procs;
	size_t nprocs, capprocs, lastproc;
	struct prof_thread *threads;
	size_t nthreads, capthreads;
	struct meta *meta;
	size_t nmeta, capmeta;
	struct prof_problems prob;
};

/* String table: id 0 is "", id i > 0 is the map's entry i - 1. */
uint32_t prof_trace_strtab_intern(struct core_map *st, const char *s, size_t len);

/* Count a problem; returns 1 to skip the row, or -EBADMSG (with err set)
 * under PROF_READ_STRICT.  `msg` is the whole message, line included. */
int prof_trace_problem_msg(struct prof_trace_reader *r, enum prof_problem p, long line,
			   struct core_error *err, const char *msg);
/* The same, with "'name': line N: " before the formatted text. */
__attribute__((format(printf, 5, 6)))
int prof_trace_problem(struct prof_trace_reader *r, enum prof_problem p, long line,
		       struct core_error *err, const char *fmt, ...);

/* The entry of process pid, added when new (NULL: out of memory). */
struct prof_process *prof_trace_process_find(struct prof_trace_reader *r, int64_t pid);

/* Intern column c's field as a new string of the column (w: its bytes as
 * a word, when up to 8). */
uint32_t prof_trace_intern_new(struct prof_trace_reader *r, enum col c, uint64_t w);

#endif
