/*
 * Writing trace events (see prof/trace.h for the model and
 * man/man5/rlprof-trace.5 for the format) as CSV or JSON Lines.
 *
 *	struct prof_trace_writer w;
 *	prof_trace_writer_init(&w, fp, PROF_TRACE_CSV);   // CSV: writes the header
 *	struct prof_event ev = PROF_EVENT_INIT;
 *	ev.kind = PROF_KIND_OP; ev.pid = 12; ev.has = PROF_EV_PID | ...;
 *	prof_trace_write(&w, &ev);
 *
 * Numeric fields are present only when their bit is set in `has`; string
 * fields are present when non-NULL and non-empty.  In CSV an absent field
 * is empty; in JSON Lines it is omitted, and the keys of an object come in
 * the order of the CSV header.  Strings that are not valid UTF-8 get each
 * bad byte replaced by U+FFFD in JSON Lines (CSV keeps bytes as they are).
 * `value` is written as an integer when it is one, else with 17
 * significant digits.
 *
 * Functions return 0 or a negative errno of the stream (-ENOSPC, -EPIPE;
 * -EIO when unknown); the writer does not own
 * `fp`, and the caller checks the stream when closing it as usual.
 */
#ifndef PROF_TRACE_WRITE_H
#define PROF_TRACE_WRITE_H

#include <stdint.h>
#include <stdio.h>

#include "prof/trace.h"

enum prof_trace_format {
	PROF_TRACE_CSV,
	PROF_TRACE_JSONL
};

/* Bits of prof_event.has: which numeric fields are present. */
#define PROF_EV_PID		0x01
#define PROF_EV_TID		0x02
#define PROF_EV_START		0x04
#define PROF_EV_END		0x08
#define PROF_EV_DEVICE		0x10
#define PROF_EV_STREAM		0x20
#define PROF_EV_CORRELATION	0x40
#define PROF_EV_VALUE		0x80

struct prof_event {
	enum prof_kind kind;
	unsigned has;
	int64_t pid, tid;
	int64_t start_ns, end_ns;
	const char *name;
	enum prof_category category;	/* PROF_CAT_NONE: empty */
	const char *domain;
	int64_t device, stream, correlation;
	double value;
	const char *detail;
};

#define PROF_EVENT_INIT { PROF_KIND_META, 0, 0, 0, 0, 0, NULL, PROF_CAT_NONE, \
	NULL, 0, 0, 0, 0.0, NULL }

struct prof_trace_sort;

struct prof_trace_writer {
	FILE *fp;
	enum prof_trace_format format;
	/* When set, event rows (not meta, process or thread rows) go to this
	 * sorter (prof/trace_sort.h) instead of `fp`. */
	struct prof_trace_sort *sort;
};

/* Parse "csv" or "jsonl"; -EINVAL for anything else. */
int prof_trace_format_parse(const char *s, enum prof_trace_format *out);

/* Start a trace on `fp`; for CSV this writes the header row. */
int prof_trace_writer_init(struct prof_trace_writer *w, FILE *fp,
			   enum prof_trace_format format);
int prof_trace_write(struct prof_trace_writer *w, const struct prof_event *ev);

#endif
