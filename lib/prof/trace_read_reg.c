/* The trace reader's registries (see trace_read_int.h): strings, new
 * processes and problems, and the accessors of all it registered. */
#include "prof/trace_read_int.h"
#include "core/grow.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const problem_names[PROF_PROB_COUNT] = {
	"malformed", "unknown kind", "end before start", "unmatched range",
	"truncated",
};

const char *prof_problem_name(enum prof_problem p)
{
	return (unsigned)p < PROF_PROB_COUNT ? problem_names[p] : "";
}

uint32_t prof_trace_strtab_intern(struct core_map *st, const char *s, size_t len)
{
	struct core_map_entry *e;

	if (!len || core_map_put(st, s, len, &e) < 0)
		return 0;
	return (uint32_t)(e - st->entries) + 1;
}

const char *prof_trace_str(const struct prof_trace_reader *r, uint32_t id)
{
	return id && id <= r->st.n ? r->st.entries[id - 1].key : "";
}

uint32_t prof_trace_intern(struct prof_trace_reader *r, const char *s, size_t len)
{
	return prof_trace_strtab_intern(&r->st, s, len);
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
int prof_trace_problem_msg(struct prof_trace_reader *r, enum prof_problem p, long line,
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
int prof_trace_problem(struct prof_trace_reader *r, enum prof_problem p, long line,
		       struct core_error *err, const char *fmt, ...)
{
	char msg[256], full[CORE_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(full, sizeof(full), "'%.200s': line %ld: %s", r->name, line, msg);
	return prof_trace_problem_msg(r, p, line, err, full);
}

struct prof_process *prof_trace_process_find(struct prof_trace_reader *r, int64_t pid)
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

uint32_t prof_trace_intern_new(struct prof_trace_reader *r, enum col c, uint64_t w)
{
	uint32_t id = prof_trace_strtab_intern(&r->st, r->fld[c], r->fldlen[c]);

	r->last_id[c] = id;
	r->last_w[c] = w;
	return id;
}
