#include "prof/trace_read.h"
#include "prof/trace_read_num.h"
#include "core/csv.h"
#include "core/grow.h"
#include "core/json.h"
#include "core/map.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define HEAD_CHUNK 4096

enum col {
	COL_KIND, COL_PID, COL_TID, COL_START, COL_END, COL_NAME, COL_CATEGORY,
	COL_DOMAIN, COL_DEVICE, COL_STREAM, COL_CORRELATION, COL_VALUE,
	COL_DETAIL, NCOL
};

static const char *const col_names[NCOL] = {
	"kind", "pid", "tid", "start_ns", "end_ns", "name", "category",
	"domain", "device", "stream", "correlation", "value", "detail",
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

static const char *const problem_names[PROF_PROB_COUNT] = {
	"malformed", "unknown kind", "end before start", "unmatched range",
	"truncated",
};

const char *prof_problem_name(enum prof_problem p)
{
	return (unsigned)p < PROF_PROB_COUNT ? problem_names[p] : "";
}

/* String table: id 0 is "", id i > 0 is the map's entry i - 1. */

static uint32_t strtab_intern(struct core_map *st, const char *s, size_t len)
{
	struct core_map_entry *e;

	if (!len || core_map_put(st, s, len, &e) < 0)
		return 0;
	return (uint32_t)(e - st->entries) + 1;
}

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

const char *prof_trace_str(const struct prof_trace_reader *r, uint32_t id)
{
	return id && id <= r->st.n ? r->st.entries[id - 1].key : "";
}

uint32_t prof_trace_intern(struct prof_trace_reader *r, const char *s, size_t len)
{
	return strtab_intern(&r->st, s, len);
}

const struct prof_problems *prof_trace_problems(const struct prof_trace_reader *r)
{
	return &r->prob;
}

size_t prof_trace_processes(const struct prof_trace_reader *r,
			    const struct prof_process **list)
{
	*list = r->procs;
	return r->nprocs;
}

size_t prof_trace_threads(const struct prof_trace_reader *r,
			  const struct prof_thread **list)
{
	*list = r->threads;
	return r->nthreads;
}

const char *prof_trace_meta(const struct prof_trace_reader *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nmeta; i++)
		if (!strcmp(r->meta[i].key, key))
			return r->meta[i].value;
	return NULL;
}

/*
 * Count a problem; returns 1 to skip the row, or -EBADMSG (with err set)
 * under PROF_READ_STRICT.  `msg` is the whole message, line included.
 */
static int problem_msg(struct prof_trace_reader *r, enum prof_problem p, long line,
		       struct core_error *err, const char *msg)
{
	if (!r->prob.count[p]++)
		snprintf(r->prob.first[p], sizeof(r->prob.first[p]), "%s", msg);
	if (r->flags & PROF_READ_STRICT) {
		core_error_set(err, -EBADMSG, "%s", msg);
		if (err)
			err->line = line;
		return -EBADMSG;
	}
	return 1;
}

/* The same, with "'name': line N: " before the formatted text. */
__attribute__((format(printf, 5, 6)))
static int problem(struct prof_trace_reader *r, enum prof_problem p, long line,
		   struct core_error *err, const char *fmt, ...)
{
	char msg[256], full[CORE_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(full, sizeof(full), "'%.200s': line %ld: %s", r->name, line, msg);
	return problem_msg(r, p, line, err, full);
}

static inline __attribute__((always_inline)) int parse_kind(const char *s, size_t len)
{
	switch (len) {
	case 2:
		return !memcmp(s, "op", 2) ? PROF_KIND_OP : -1;
	case 3:
		return !memcmp(s, "cpu", 3) ? PROF_KIND_CPU :
		       !memcmp(s, "gpu", 3) ? PROF_KIND_GPU : -1;
	default:
		return len ? prof_kind_parse(s) : -1;
	}
}

/* Compared by length first: memcmp of a constant size is a compare. */
static int parse_cat(const char *s, size_t len)
{
	switch (len) {
	case 4:
		return !memcmp(s, "wait", 4) ? PROF_CAT_WAIT : -1;
	case 6:
		return !memcmp(s, "python", 6) ? PROF_CAT_PYTHON :
		       !memcmp(s, "native", 6) ? PROF_CAT_NATIVE :
		       !memcmp(s, "system", 6) ? PROF_CAT_SYSTEM :
		       !memcmp(s, "kernel", 6) ? PROF_CAT_KERNEL :
		       !memcmp(s, "memcpy", 6) ? PROF_CAT_MEMCPY :
		       !memcmp(s, "memset", 6) ? PROF_CAT_MEMSET : -1;
	case 7:
		return !memcmp(s, "backend", 7) ? PROF_CAT_BACKEND : -1;
	case 8:
		return !memcmp(s, "cuda_api", 8) ? PROF_CAT_CUDA_API :
		       !memcmp(s, "runnable", 8) ? PROF_CAT_RUNNABLE : -1;
	case 9:
		return !memcmp(s, "simulator", 9) ? PROF_CAT_SIMULATOR : -1;
	default:
		return -1;
	}
}

static struct prof_process *process_find(struct prof_trace_reader *r, int64_t pid);

/* Rows of a process come in runs: its entry of the row before first. */
static inline __attribute__((always_inline)) struct prof_process *
process_get(struct prof_trace_reader *r, int64_t pid)
{
	if (r->lastproc < r->nprocs && r->procs[r->lastproc].pid == pid)
		return &r->procs[r->lastproc];
	return process_find(r, pid);
}

static struct prof_process *process_find(struct prof_trace_reader *r, int64_t pid)
{
	size_t i;

	for (i = 0; i < r->nprocs; i++)
		if (r->procs[i].pid == pid) {
			r->lastproc = i;
			return &r->procs[i];
		}
	if (CORE_GROW(r->procs, r->capprocs, r->nprocs + 1) < 0)
		return NULL;
	r->procs[r->nprocs] = (struct prof_process){ pid, INT64_MIN, INT64_MAX, -1, 0, 0 };
	r->lastproc = r->nprocs;
	return &r->procs[r->nprocs++];
}

#define F(c) r->fld[c], r->fldlen[c]

/* Whether the n bytes at a and b are equal: names are short, no call. */
static inline int same(const char *a, const char *b, size_t n)
{
	uint64_t x, y;

	for (; n >= 8; n -= 8, a += 8, b += 8) {
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return 0;
	}
	while (n--)
		if (*a++ != *b++)
			return 0;
	return 1;
}

static uint32_t intern_new(struct prof_trace_reader *r, enum col c, uint64_t w);

/* Rows of a thread repeat their names: the column's last string first. */
static inline __attribute__((always_inline)) uint32_t intern(struct prof_trace_reader *r, enum col c)
{
	uint32_t id = r->last_id[c];
	size_t len = r->fldlen[c];
	uint64_t w = 0;

	/* A short field: compared as a word. */
	if (PROF_NUM_LE && len - 1 < 8) {
		w = prof_num_word(r->fld[c], len);
		if (id && w == r->last_w[c] && r->st.entries[id - 1].len == len)
			return id;
	} else if (id && r->st.entries[id - 1].len == len &&
		   same(r->st.entries[id - 1].key, r->fld[c], len)) {
		return id;
	}
	return intern_new(r, c, w);
}

static uint32_t intern_new(struct prof_trace_reader *r, enum col c, uint64_t w)
{
	uint32_t id = strtab_intern(&r->st, r->fld[c], r->fldlen[c]);

	r->last_id[c] = id;
	r->last_w[c] = w;
	return id;
}

/* An optional integer field: 0 when present and good, 1 when empty, -1 bad. */
static inline __attribute__((always_inline)) int opt_i64(struct prof_trace_reader *r, enum col c, int64_t *out)
{
	if (!r->fldlen[c])
		return 1;
	return prof_num_i64(F(c), out);
}

/* The same for a timestamp. */
static inline __attribute__((always_inline)) int opt_ts(struct prof_trace_reader *r, enum col c, int64_t *out)
{
	if (!r->fldlen[c])
		return 1;
	return prof_num_ts(&r->nums, F(c), out);
}

/*
 * Turn the fields in r->fld into an event.  Returns 1 with an event, 0 for
 * a descriptive row (meta, process, thread) or a skipped one, <0 on error.
 */
static inline __attribute__((always_inline)) int
convert(struct prof_trace_reader *r, long line, struct prof_ev *ev,
	struct core_error *err)
{
	int kind = parse_kind(F(COL_KIND)), ret, hasend;
	struct prof_process *pr;
	int64_t v;

#define BAD(cls, ...) do { ret = problem(r, cls, line, err, __VA_ARGS__); \
		return ret < 0 ? ret : 0; } while (0)
	if (kind < 0)
		BAD(PROF_PROB_UNKNOWN_KIND, "unknown kind '%.*s'", (int)r->fldlen[COL_KIND], r->fld[COL_KIND]);
	if (kind == PROF_KIND_META) {
		struct meta *m;

		if (CORE_GROW(r->meta, r->capmeta, r->nmeta + 1) < 0)
			return -ENOMEM;
		m = &r->meta[r->nmeta];
		if (!(m->key = strndup(F(COL_NAME))) || !(m->value = strndup(F(COL_DETAIL)))) {
			free(m->key);
			return -ENOMEM;
		}
		r->nmeta++;
		return 0;
	}
	/* Field by field, as a memset of the whole costs more. */
	ev->start = ev->end = 0;
	ev->tid = 0;
	ev->line = line;
	ev->value = 0;
	ev->stream = ev->correlation = -1;
	ev->name = ev->domain = ev->detail = 0;
	ev->device = -1;
	ev->kind = (uint8_t)kind;
	ev->cat = PROF_CAT_NONE;
	ev->unclosed = 0;
	memset(ev->reserved, 0, sizeof(ev->reserved));
	if (prof_num_id(&r->nums, 0, F(COL_PID), &ev->pid) < 0)
		BAD(PROF_PROB_MALFORMED, "bad pid '%.*s'", (int)r->fldlen[COL_PID], r->fld[COL_PID]);
	if ((ret = r->fldlen[COL_TID] ? prof_num_id(&r->nums, 1, F(COL_TID), &ev->tid) : 1) < 0)
		BAD(PROF_PROB_MALFORMED, "bad tid '%.*s'", (int)r->fldlen[COL_TID], r->fld[COL_TID]);
	if (ret == 1 && kind != PROF_KIND_GPU && kind != PROF_KIND_PROCESS &&
	    kind != PROF_KIND_WARNING && kind != PROF_KIND_COUNTER)
		BAD(PROF_PROB_MALFORMED, "%s row without tid", prof_kind_name(kind));
	if (!(pr = process_get(r, ev->pid)))
		return -ENOMEM;
	if ((ret = opt_ts(r, COL_START, &ev->start)) < 0)
		BAD(PROF_PROB_MALFORMED, "bad start_ns '%.*s'", (int)r->fldlen[COL_START], r->fld[COL_START]);
	if (ret == 1 && kind != PROF_KIND_PROCESS && kind != PROF_KIND_THREAD)
		BAD(PROF_PROB_MALFORMED, "%s row without start_ns", prof_kind_name(kind));
	if ((hasend = opt_ts(r, COL_END, &ev->end)) < 0)
		BAD(PROF_PROB_MALFORMED, "bad end_ns '%.*s'", (int)r->fldlen[COL_END], r->fld[COL_END]);
	hasend = !hasend;
	if (!hasend && (kind == PROF_KIND_OP || kind == PROF_KIND_PHASE ||
			kind == PROF_KIND_CPU || kind == PROF_KIND_GPU))
		BAD(PROF_PROB_UNMATCHED, "%s '%.*s' has a start but no end_ns", prof_kind_name(kind),
		    (int)r->fldlen[COL_NAME], r->fld[COL_NAME]);
	if (!hasend)
		ev->end = ev->start;
	if (ret != 1 && hasend && ev->end < ev->start)
		BAD(PROF_PROB_END_BEFORE_START, "end_ns %lld is before start_ns %lld",
		    (long long)ev->end, (long long)ev->start);
	if (r->fldlen[COL_VALUE]) {
		char *endp;

		if (prof_num_i64(F(COL_VALUE), &v) == 0) {
			ev->value = (double)v;
		} else {
			char tmp[64];

			if (r->fldlen[COL_VALUE] >= sizeof(tmp))
				BAD(PROF_PROB_MALFORMED, "bad value");
			memcpy(tmp, F(COL_VALUE));
			tmp[r->fldlen[COL_VALUE]] = '\0';
			ev->value = strtod(tmp, &endp);
			if (*endp || endp == tmp || !isfinite(ev->value))
				BAD(PROF_PROB_MALFORMED, "bad value '%s'", tmp);
		}
	}
	switch (kind) {
	case PROF_KIND_PROCESS:
		if (ret != 1)
			pr->start = ev->start;
		if (hasend)
			pr->end = ev->end;
		if (r->fldlen[COL_VALUE])
			pr->parent = (int64_t)ev->value;
		pr->name = intern(r, COL_NAME);
		pr->detail = intern(r, COL_DETAIL);
		return 0;
	case PROF_KIND_THREAD:
		if (CORE_GROW(r->threads, r->capthreads, r->nthreads + 1) < 0)
			return -ENOMEM;
		r->threads[r->nthreads++] = (struct prof_thread){ ev->pid, ev->tid, intern(r, COL_NAME) };
		return 0;
	case PROF_KIND_CPU:
		ev->cat = (uint8_t)parse_cat(F(COL_CATEGORY));
		if (ev->cat != PROF_CAT_PYTHON && ev->cat != PROF_CAT_SIMULATOR &&
		    ev->cat != PROF_CAT_BACKEND && ev->cat != PROF_CAT_CUDA_API &&
		    ev->cat != PROF_CAT_WAIT && ev->cat != PROF_CAT_NATIVE &&
		    ev->cat != PROF_CAT_SYSTEM && ev->cat != PROF_CAT_RUNNABLE)
			BAD(PROF_PROB_MALFORMED, "bad category '%.*s' for a cpu row",
			    (int)r->fldlen[COL_CATEGORY], r->fld[COL_CATEGORY]);
		break;
	case PROF_KIND_SAMPLE:
		ev->cat = (uint8_t)parse_cat(F(COL_CATEGORY));
		if (ev->cat != PROF_CAT_PYTHON && ev->cat != PROF_CAT_SIMULATOR &&
		    ev->cat != PROF_CAT_BACKEND && ev->cat != PROF_CAT_CUDA_API &&
		    ev->cat != PROF_CAT_NATIVE)
			BAD(PROF_PROB_MALFORMED, "bad category '%.*s' for a sample row",
			    (int)r->fldlen[COL_CATEGORY], r->fld[COL_CATEGORY]);
		ev->name = intern(r, COL_NAME);
		break;
	case PROF_KIND_GPU:
		ev->cat = (uint8_t)parse_cat(F(COL_CATEGORY));
		if (ev->cat != PROF_CAT_KERNEL && ev->cat != PROF_CAT_MEMCPY &&
		    ev->cat != PROF_CAT_MEMSET)
			BAD(PROF_PROB_MALFORMED, "bad category '%.*s' for a gpu row",
			    (int)r->fldlen[COL_CATEGORY], r->fld[COL_CATEGORY]);
		if (opt_i64(r, COL_DEVICE, &v) == 0 && v >= 0 && v < INT32_MAX)
			ev->device = (int32_t)v;
		else if (r->fldlen[COL_DEVICE])
			BAD(PROF_PROB_MALFORMED, "bad device '%.*s'", (int)r->fldlen[COL_DEVICE], r->fld[COL_DEVICE]);
		if (opt_i64(r, COL_STREAM, &ev->stream) < 0)
			BAD(PROF_PROB_MALFORMED, "bad stream '%.*s'", (int)r->fldlen[COL_STREAM], r->fld[COL_STREAM]);
		break;
	case PROF_KIND_OP:
	case PROF_KIND_PHASE:
		ev->name = intern(r, COL_NAME);
		if (!r->fldlen[COL_NAME])
			BAD(PROF_PROB_MALFORMED, "%s row without a name", prof_kind_name(kind));
		if (r->fldlen[COL_DETAIL] == 8 && !memcmp(r->fld[COL_DETAIL], "unclosed", 8)) {
			ev->unclosed = 1;
			ret = problem(r, PROF_PROB_UNMATCHED, line, err, "%s '%.*s' was never closed",
				      prof_kind_name(kind), (int)r->fldlen[COL_NAME], r->fld[COL_NAME]);
			if (ret < 0)
				return ret;
		}
		break;
	case PROF_KIND_WARNING:
		if (!r->prob.recorder_warnings++)
			snprintf(r->prob.first_warning, sizeof(r->prob.first_warning),
				 "'%.200s': line %ld: %.200s", r->name, line,
				 r->fld[COL_DETAIL]);
		break;
	default:
		break;
	}
	if ((kind == PROF_KIND_CPU || kind == PROF_KIND_GPU) &&
	    opt_i64(r, COL_CORRELATION, &ev->correlation) < 0)
		BAD(PROF_PROB_MALFORMED, "bad correlation '%.*s'",
		    (int)r->fldlen[COL_CORRELATION], r->fld[COL_CORRELATION]);
	if (r->flags & PROF_READ_ALL_NAMES) {
		if (!ev->name)
			ev->name = intern(r, COL_NAME);
		ev->domain = intern(r, COL_DOMAIN);
		ev->detail = intern(r, COL_DETAIL);
	}
	return 1;
#undef BAD
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
			ret = problem_msg(r, row.torn ? PROF_PROB_TRUNCATED : PROF_PROB_MALFORMED,
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
			ret = problem(r, torn ? PROF_PROB_TRUNCATED : PROF_PROB_MALFORMED,
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
			ret = problem(r, PROF_PROB_TRUNCATED, line, err,
				      "the input ends inside a record");
		else if (ret == -EBADMSG || ret == -EMSGSIZE)
			ret = problem_msg(r, PROF_PROB_MALFORMED, line, err, jerr.msg);
		else if (ret > 0 && !json_is_object(r->json))
			ret = problem(r, PROF_PROB_MALFORMED, line, err, "not a JSON object");
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
				ret = problem(r, PROF_PROB_MALFORMED, line, err, "bad value for '%s'",
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
