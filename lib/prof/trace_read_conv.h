/*
 * Schema conversion of the trace reader (see trace_read_int.h): the fields
 * of one record, CSV or JSON Lines alike, to a struct prof_ev, with the
 * checks of rlprof-trace(5).  Included by trace_read.c alone, whose record
 * loops it is inlined into (a call per row costs more than most rows).
 */
#ifndef PROF_TRACE_READ_CONV_H
#define PROF_TRACE_READ_CONV_H

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "prof/trace_read_int.h"

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
static inline int parse_cat(const char *s, size_t len)
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

/* Rows of a process come in runs: its entry of the row before first. */
static inline __attribute__((always_inline)) struct prof_process *
process_get(struct prof_trace_reader *r, int64_t pid)
{
	if (r->lastproc < r->nprocs && r->procs[r->lastproc].pid == pid)
		return &r->procs[r->lastproc];
	return prof_trace_process_find(r, pid);
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
	return prof_trace_intern_new(r, c, w);
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

#define BAD(cls, ...) do { ret = prof_trace_problem(r, cls, line, err, __VA_ARGS__); \
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
			ret = prof_trace_problem(r, PROF_PROB_UNMATCHED, line, err, "%s '%.*s' was never closed",
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

#endif
