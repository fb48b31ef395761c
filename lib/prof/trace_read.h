/*
 * Reading rlprof traces (lib/prof/trace.h): CSV or JSON Lines, detected
 * from the first non-blank byte ('{' means JSON Lines), from any stream.
 *
 * The reader turns each row into a compact struct prof_ev whose strings
 * are ids in the reader's string table, and keeps the rows that describe
 * rather than happen (meta, process, thread) in side tables:
 *
 *	struct prof_trace_reader *r;
 *	struct prof_ev ev;
 *	if (prof_trace_reader_new(&r, fp, "run.csv", 0, &err) < 0) ...
 *	while ((ret = prof_trace_read(r, &ev, &err)) > 0)
 *		use(&ev, prof_trace_str(r, ev.name));
 *	...  // ret < 0: err says what and where ("'run.csv': line 7: ...")
 *	prof_trace_reader_free(r);
 *
 * CSV: the header row names the columns (any order; the 13 of
 * PROF_TRACE_HEADER are expected, unknown ones are ignored).  CSV is read
 * with core_csv_reader and JSON Lines with core_jsonl_reader, by their
 * rules (core/csv.h, core/json.h); a record they reject is a malformed row
 * (a truncated one when the input ends inside it).
 *
 * Bad rows are "problems", sorted into the classes of enum prof_problem.
 * Without PROF_READ_STRICT a bad row is counted and skipped (an unmatched
 * range that still has an end, such as an op marked "unclosed", is counted
 * and kept); with it, the first problem ends the read with -EBADMSG.
 * prof_trace_problems() gives the counts and the first message of each
 * class, so that a program reports each class once.
 *
 * Memory: the CSV or JSON Lines reader's buffer (it grows to the longest
 * record) and the string table (distinct strings only).  The reader does
 * not own `fp`.
 */
#ifndef PROF_TRACE_READ_H
#define PROF_TRACE_READ_H

#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "prof/trace.h"

/* Reader flags. */
#define PROF_READ_STRICT 1	/* the first problem is an error */
#define PROF_READ_ALL_NAMES 2	/* intern names of every kind, not only op/phase */

/* An event row: kinds op, mark, phase, cpu, gpu, counter, warning. */
struct prof_ev {
	int64_t start, end;	/* ns; end == start for instants */
	int64_t pid, tid;	/* tid 0 when the row has none (gpu) */
	int64_t line;		/* input line; also the tie-breaker of sorts */
	double value;		/* nesting depth (op), counter value */
	int64_t stream;		/* gpu: CUDA stream, -1 when absent */
	int64_t correlation;	/* gpu, and cpu rows of CUDA calls: -1 when absent */
	uint32_t name, domain, detail;	/* string ids, 0 = empty */
	int32_t device;		/* gpu: device, -1 when absent */
	uint8_t kind;		/* enum prof_kind */
	uint8_t cat;		/* enum prof_category */
	uint8_t unclosed;	/* op or phase that the process outlived */
	uint8_t reserved[5];	/* zero: no padding, so that copies written
				 * to temporary files are fully defined */
};

/* Classes of bad input. */
enum prof_problem {
	PROF_PROB_MALFORMED,	/* wrong field count, bad number, bad category */
	PROF_PROB_UNKNOWN_KIND,
	PROF_PROB_END_BEFORE_START,
	PROF_PROB_UNMATCHED,	/* a range without an end, or left unclosed */
	PROF_PROB_TRUNCATED,	/* the input ends inside a row */
	PROF_PROB_COUNT
};

struct prof_problems {
	uint64_t count[PROF_PROB_COUNT];
	char first[PROF_PROB_COUNT][CORE_ERROR_MSG_MAX];	/* with line */
	uint64_t recorder_warnings;	/* rows of kind "warning" */
	char first_warning[CORE_ERROR_MSG_MAX];
};

/* A process, from its process row and the events that name its pid. */
struct prof_process {
	int64_t pid;
	int64_t start, end;	/* from the process row; INT64_MIN/MAX when none */
	int64_t parent;		/* -1 when unknown */
	uint32_t name;		/* command, or the name of its main thread */
	uint32_t detail;	/* "exit 0", "signal SEGV", ... */
};

struct prof_thread {
	int64_t pid, tid;
	uint32_t name;
};

struct prof_trace_reader;

int prof_trace_reader_new(struct prof_trace_reader **out, FILE *fp,
			  const char *name, int flags, struct core_error *err);
/*
 * Read from `first` until its end, then from `fp`; used to replay a copy
 * of what a pipe already gave.  `first` may be NULL.
 */
int prof_trace_reader_new2(struct prof_trace_reader **out, FILE *first,
			   FILE *fp, const char *name, int flags,
			   struct core_error *err);
/* Copy every byte read from `fp` to `tee` too (NULL: stop copying). */
void prof_trace_reader_tee(struct prof_trace_reader *r, FILE *tee);

/* Returns 1 with an event, 0 at the end of input, or a negative code. */
int prof_trace_read(struct prof_trace_reader *r, struct prof_ev *ev,
		    struct core_error *err);
void prof_trace_reader_free(struct prof_trace_reader *r);

/* "csv" or "jsonl" once something was read, "" before. */
const char *prof_trace_format(const struct prof_trace_reader *r);
const char *prof_trace_name(const struct prof_trace_reader *r);

/* The string with id `id` ("" for 0); valid while the reader lives. */
const char *prof_trace_str(const struct prof_trace_reader *r, uint32_t id);
/* Intern `s` in the reader's table: its id, or 0 when out of memory. */
uint32_t prof_trace_intern(struct prof_trace_reader *r, const char *s, size_t len);

const struct prof_problems *prof_trace_problems(const struct prof_trace_reader *r);

/* The processes and threads seen so far, in order of appearance. */
size_t prof_trace_processes(const struct prof_trace_reader *r,
			    const struct prof_process **list);
size_t prof_trace_threads(const struct prof_trace_reader *r,
			  const struct prof_thread **list);
/* The detail of the meta row named `key`, or NULL. */
const char *prof_trace_meta(const struct prof_trace_reader *r, const char *key);

/* "malformed", "unknown kind", ...: the phrase used in summaries. */
const char *prof_problem_name(enum prof_problem p);

#endif
