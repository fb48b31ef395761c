/*
 * The trace reader: its sources, format detection, and the CSV and JSON
 * Lines records (see trace_read_int.h for its other parts).
 */
#include "prof/trace_read_int.h"
#include "prof/trace_read_conv.h"
#include "core/grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HEAD_CHUNK 4096

static const char *const col_names[NCOL] = {
	"kind", "pid", "tid", "start_ns", "end_ns", "name", "category",
	"domain", "device", "stream", "correlation", "value", "detail",
};

/* Input: the sources, one after the other, copied to `tee` if asked. */

static ssize_t raw_read(struct prof_trace_reader *r, char *buf, size_t n)
{
	while (r->cur < 2) {
		FILE *fp = r->src[r->cur];
		size_t k = fp ? fread(buf, 1, n, fp) : 0;

		if (k) {
			if (r->tee && r->cur == 1 && fwrite(buf, 1, k, r->tee) != k) {
				r->tee_errno = errno ? errno : EIO;
				return -r->tee_errno;
			}
			return (ssize_t)k;
		}
		if (fp && ferror(fp))
			return -(errno ? errno : EIO);
		r->cur++;
	}
	return 0;
}

/* What the parsers read: the bytes read to tell the format, then the rest. */
static ssize_t src_read(void *ctx, char *buf, size_t n)
{
	struct prof_trace_reader *r = ctx;

	if (r->headpos < r->headlen) {
		size_t k = r->headlen - r->headpos < n ? r->headlen - r->headpos : n;

		memcpy(buf, r->head + r->headpos, k);
		r->headpos += k;
		return (ssize_t)k;
	}
	return raw_read(r, buf, n);
}

/* Read until the first byte that is not white space: '{' means JSON Lines. */
static int detect(struct prof_trace_reader *r, struct core_error *err)
{
	size_t i = 0;
	ssize_t k;

	for (;;) {
		for (; i < r->headlen; i++)
			if (r->head[i] != ' ' && r->head[i] != '\t' && r->head[i] != '\r' &&
			    r->head[i] != '\n') {
				r->format = r->head[i] == '{' ? 2 : 1;
				return 0;
			}
		if (CORE_GROW(r->head, r->headcap, r->headlen + HEAD_CHUNK) < 0)
			return core_error_set(err, -ENOMEM, "out of memory reading '%s'", r->name);
		k = raw_read(r, r->head + r->headlen, r->headcap - r->headlen);
		if (k < 0)
			return core_error_errno(err, (int)-k, r->tee_errno ?
						"copying '%s' to a temporary file" : "reading '%s'",
						r->name);
		if (k == 0)
			return core_error_set(err, -EBADMSG, "'%s': empty input, not an rlprof trace",
					      r->name);
		r->headlen += (size_t)k;
	}
}

int prof_trace_reader_new2(struct prof_trace_reader **out, FILE *first,
			   FILE *fp, const char *name, int flags,
			   struct core_error *err)
{
	struct prof_trace_reader *r = calloc(1, sizeof(*r));
	int i;

	*out = NULL;
	if (!r || !(r->name = strdup(name))) {
		prof_trace_reader_free(r);
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	r->src[0] = first;
	r->src[1] = fp;
	r->flags = flags;
	r->lastproc = (size_t)-1;
	r->fld = r->own;
	r->fldlen = r->ownlen;
	for (i = 0; i < NCOL; i++)
		r->col[i] = -1;
	*out = r;
	return 0;
}

int prof_trace_reader_new(struct prof_trace_reader **out, FILE *fp,
			  const char *name, int flags, struct core_error *err)
{
	return prof_trace_reader_new2(out, NULL, fp, name, flags, err);
}

void prof_trace_reader_tee(struct prof_trace_reader *r, FILE *tee)
{
	r->tee = tee;
}

void prof_trace_reader_free(struct prof_trace_reader *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nmeta; i++) {
		free(r->meta[i].key);
		free(r->meta[i].value);
	}
	free(r->meta);
	json_decref(r->json);
	core_map_release(&r->st, NULL);
	free(r->procs);
	free(r->threads);
	core_csv_reader_free(r->csv);
	core_jsonl_reader_free(r->jsonl);
	free(r->head);
	free(r->name);
	free(r);
}

const char *prof_trace_format(const struct prof_trace_reader *r)
{
	return r->format == 1 ? "csv" : r->format == 2 ? "jsonl" : "";
}

const char *prof_trace_name(const struct prof_trace_reader *r)
{
	return r->name;
}
static int read_header(struct prof_trace_reader *r, struct core_error *err)
{
	struct core_csv_row row;
	int ret, c;
	size_t i;

	ret = core_csv_read(r->csv, &row, err);
	if (ret <= 0)
		return ret;
	for (i = 0; i < row.n; i++)
		for (c = 0; c < NCOL; c++)
			if (!strcmp(row.field[i], col_names[c]) && r->col[c] < 0)
				r->col[c] = (int)i;
	r->ncols = row.n;
	for (c = 0, r->direct = 1; c < NCOL; c++)
		r->direct &= r->col[c] == c;
	if (r->col[COL_KIND] < 0 || r->col[COL_PID] < 0 || r->col[COL_START] < 0 ||
	    r->col[COL_END] < 0)
		return core_error_set(err, -EBADMSG,
				      "'%s': line %ld: not an rlprof trace (the header row lacks kind, pid, start_ns or end_ns)",
				      r->name, row.line);
	return 1;
}

/* Inlined into prof_trace_read: one call per row less. */
static inline __attribute__((always_inline)) int
read_csv(struct prof_trace_reader *r, struct prof_ev *ev, struct core_error *err)
{
	struct core_error cerr;	/* read only after an error: no 512-byte clear per row */
	struct core_csv_row row;
	int ret, c, torn;

	for (;;) {
		ret = core_csv_read(r->csv, &row, &cerr);
		if (ret == -EBADMSG) {
			ret = prof_trace_problem_msg(r, row.torn ? PROF_PROB_TRUNCATED : PROF_PROB_MALFORMED,
					  cerr.line, err, cerr.msg);
			if (ret < 0)
				return ret;
			continue;
		}
		if (ret < 0 && err)
			*err = cerr;
		if (ret <= 0)
			return ret;
		if (row.n != r->ncols) {
			torn = row.torn && row.n < r->ncols;
			ret = prof_trace_problem(r, torn ? PROF_PROB_TRUNCATED : PROF_PROB_MALFORMED,
				      row.line, err, "%s: expected %zu fields, found %zu",
				      torn ? "the input ends inside a row" : "bad row",
				      r->ncols, row.n);
			if (ret < 0)
				return ret;
			continue;
		}
		if (r->direct) {
			r->fld = (const char *const *)row.field;
			r->fldlen = row.len;
		} else {
			for (c = 0; c < NCOL; c++) {
				int k = r->col[c];

				r->own[c] = k >= 0 ? row.field[k] : "";
				r->ownlen[c] = k >= 0 ? row.len[k] : 0;
			}
		}
		if ((ret = convert(r, row.line, ev, err)) != 0)
			return ret;
	}
}

static int read_jsonl(struct prof_trace_reader *r, struct prof_ev *ev, struct core_error *err)
{
	struct core_error jerr;
	long line;
	int ret, c;

	for (;;) {
		json_decref(r->json);
		r->json = NULL;
		ret = core_jsonl_read(r->jsonl, &r->json, &jerr);
		line = core_jsonl_line(r->jsonl);
		if (ret == -EBADMSG && core_jsonl_torn(r->jsonl))
			ret = prof_trace_problem(r, PROF_PROB_TRUNCATED, line, err,
				      "the input ends inside a record");
		else if (ret == -EBADMSG || ret == -EMSGSIZE)
			ret = prof_trace_problem_msg(r, PROF_PROB_MALFORMED, line, err, jerr.msg);
		else if (ret > 0 && !json_is_object(r->json))
			ret = prof_trace_problem(r, PROF_PROB_MALFORMED, line, err, "not a JSON object");
		else if (ret < 0 && err)
			*err = jerr;
		if (ret <= 0)
			return ret;
		if (!json_is_object(r->json))
			continue;
		for (c = 0; c < NCOL; c++) {
			json_t *v = json_object_get(r->json, col_names[c]);

			r->own[c] = "";
			r->ownlen[c] = 0;
			if (json_is_string(v)) {
				r->own[c] = json_string_value(v);
				r->ownlen[c] = json_string_length(v);
				/* A short one may be a number: 8 bytes must be readable. */
				if (r->ownlen[c] < sizeof(r->numbuf[c]) - 8) {
					memcpy(r->numbuf[c], r->own[c], r->ownlen[c]);
					r->numbuf[c][r->ownlen[c]] = '\0';
					r->own[c] = r->numbuf[c];
				}
			} else if (json_is_integer(v)) {
				r->ownlen[c] = (size_t)snprintf(r->numbuf[c], sizeof(r->numbuf[c]),
								"%lld", (long long)json_integer_value(v));
				r->own[c] = r->numbuf[c];
			} else if (json_is_real(v)) {
				r->ownlen[c] = (size_t)snprintf(r->numbuf[c], sizeof(r->numbuf[c]),
								"%.17g", json_real_value(v));
				r->own[c] = r->numbuf[c];
			} else if (v && !json_is_null(v)) {
				ret = prof_trace_problem(r, PROF_PROB_MALFORMED, line, err, "bad value for '%s'",
					      col_names[c]);
				if (ret < 0)
					return ret;
				goto next;
			}
		}
		if ((ret = convert(r, line, ev, err)) != 0)
			return ret;
next:		;
	}
}

int prof_trace_read(struct prof_trace_reader *r, struct prof_ev *ev,
		    struct core_error *err)
{
	int ret;

	if (!r->format) {
		if ((ret = detect(r, err)) < 0)
			return ret;
		if (r->format == 1) {
			ret = core_csv_reader_new_fn(&r->csv, src_read, r, r->name, 0, err);
			if (ret == 0)
				ret = read_header(r, err);
			if (ret == 0)
				ret = core_error_set(err, -EBADMSG, "'%s': empty input", r->name);
		} else {
			ret = core_jsonl_reader_new_fn(&r->jsonl, src_read, r, r->name, err);
		}
		if (ret < 0) {
			r->format = 3;	/* failed: every later call fails too */
			return ret;
		}
	}
	if (r->format == 3)
		return core_error_set(err, -EBADMSG, "'%s': not an rlprof trace", r->name);
	ret = r->format == 1 ? read_csv(r, ev, err) : read_jsonl(r, ev, err);
	if (ret >= 0)
		return ret;
	if (ret == -ENOMEM)
		core_error_set(err, -ENOMEM, "out of memory reading '%s'", r->name);
	else if (ret < 0 && r->tee_errno)
		core_error_errno(err, r->tee_errno, "copying '%s' to a temporary file", r->name);
	return ret;
}
