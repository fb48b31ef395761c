#include "prof/trace_sort.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/grow.h"
#include "prof/report_scan.h"

#define CHUNK_DEFAULT (64u << 20)
#define NO_STR UINT32_MAX

/* A row as stored: this header, then its strings, each NUL-terminated,
 * padded to 8 bytes. */
struct rec {
	int64_t start, end;	/* the reader's view: end = start for instants */
	double depth;		/* the reader's value: 0 when absent */
	uint64_t seq;
	int64_t pid, tid, start_ns, end_ns, device, stream, correlation;
	double value;
	uint32_t kind, has, cat;
	uint32_t len[3];	/* name, domain, detail; NO_STR: NULL */
};

struct run {
	FILE *fp;
	struct rec *r;		/* the head: header and strings */
	size_t cap;
};

struct prof_trace_sort {
	size_t chunk;
	struct core_buf buf;	/* the chunk's records */
	size_t *idx;		/* offsets of the records in buf */
	size_t n, cap;
	uint64_t seq;
	struct run *runs;
	size_t nruns, capruns;
};

static size_t rec_size(const struct rec *r)
{
	size_t n = sizeof(*r);
	int i;

	for (i = 0; i < 3; i++)
		if (r->len[i] != NO_STR)
			n += r->len[i] + 1;
	return (n + 7) & ~(size_t)7;
}

static int rec_cmp(const struct rec *a, const struct rec *b)
{
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

static int idx_cmp(const void *x, const void *y, void *base)
{
	return rec_cmp((const struct rec *)((char *)base + *(const size_t *)x),
		       (const struct rec *)((char *)base + *(const size_t *)y));
}

int prof_trace_sort_new(struct prof_trace_sort **out, size_t chunk_bytes)
{
	struct prof_trace_sort *s = calloc(1, sizeof(*s));

	*out = s;
	if (!s)
		return -ENOMEM;
	s->chunk = chunk_bytes ? chunk_bytes : CHUNK_DEFAULT;
	return 0;
}

static void sort_chunk(struct prof_trace_sort *s)
{
	if (s->n)	/* no rows: idx is still NULL, which qsort_r may not get */
		qsort_r(s->idx, s->n, sizeof(*s->idx), idx_cmp, s->buf.data);
}

/* Sort the chunk and write it to a temporary file as a run. */
static int spill(struct prof_trace_sort *s)
{
	FILE *fp;
	size_t i;

	if (CORE_GROW(s->runs, s->capruns, s->nruns + 1) < 0)
		return -ENOMEM;
	sort_chunk(s);
	if (!(fp = prof_report_tmpfile()))
		return -errno;
	for (i = 0; i < s->n; i++) {
		const struct rec *r = (const struct rec *)(s->buf.data + s->idx[i]);

		if (fwrite(r, rec_size(r), 1, fp) != 1)
			break;
	}
	if (i < s->n || fflush(fp) != 0) {
		int e = errno ? errno : EIO;

		fclose(fp);
		return -e;
	}
	rewind(fp);
	s->runs[s->nruns++] = (struct run){ fp, NULL, 0 };
	s->buf.off = s->buf.len = 0;
	s->n = 0;
	return 0;
}

int prof_trace_sort_add(struct prof_trace_sort *s, const struct prof_event *ev)
{
	const char *str[3] = { ev->name, ev->domain, ev->detail };
	struct rec r;
	size_t size, at;
	char *p;
	int i, ret;

	memset(&r, 0, sizeof(r));
	r.start = (ev->has & PROF_EV_START) ? ev->start_ns : 0;
	r.end = (ev->has & PROF_EV_END) ? ev->end_ns : r.start;
	r.depth = (ev->has & PROF_EV_VALUE) && isfinite(ev->value) ? ev->value : 0;
	r.seq = s->seq;
	r.pid = ev->pid;
	r.tid = ev->tid;
	r.start_ns = ev->start_ns;
	r.end_ns = ev->end_ns;
	r.device = ev->device;
	r.stream = ev->stream;
	r.correlation = ev->correlation;
	r.value = ev->value;
	r.kind = ev->kind;
	r.has = ev->has;
	r.cat = ev->category;
	for (i = 0; i < 3; i++) {
		size_t len = str[i] ? strlen(str[i]) : 0;

		if (len >= NO_STR)
			return -EINVAL;
		r.len[i] = str[i] ? (uint32_t)len : NO_STR;
	}
	size = rec_size(&r);
	if (s->n && core_buf_pending(&s->buf) + size > s->chunk && (ret = spill(s)) < 0)
		return ret;
	if (CORE_GROW(s->idx, s->cap, s->n + 1) < 0 || core_buf_reserve(&s->buf, size) < 0)
		return -ENOMEM;
	at = s->buf.len;
	p = s->buf.data + at;
	memset(p, 0, size);
	memcpy(p, &r, sizeof(r));
	p += sizeof(r);
	for (i = 0; i < 3; i++)
		if (str[i]) {
			memcpy(p, str[i], r.len[i]);
			p += r.len[i] + 1;
		}
	s->buf.len += size;
	s->idx[s->n++] = at;
	s->seq++;
	return 0;
}

static int write_rec(struct prof_trace_writer *w, const struct rec *r)
{
	struct prof_event ev = PROF_EVENT_INIT;
	const char *p = (const char *)(r + 1), *str[3];
	int i;

	for (i = 0; i < 3; i++) {
		str[i] = r->len[i] == NO_STR ? NULL : p;
		if (str[i])
			p += r->len[i] + 1;
	}
	ev.kind = (enum prof_kind)r->kind;
	ev.has = r->has;
	ev.pid = r->pid;
	ev.tid = r->tid;
	ev.start_ns = r->start_ns;
	ev.end_ns = r->end_ns;
	ev.name = str[0];
	ev.category = (enum prof_category)r->cat;
	ev.domain = str[1];
	ev.device = r->device;
	ev.stream = r->stream;
	ev.correlation = r->correlation;
	ev.value = r->value;
	ev.detail = str[2];
	return prof_trace_write(w, &ev);
}

/* The next record of a run into its head: 1, 0 at its end, or -errno. */
static int run_next(struct run *u)
{
	struct rec h;
	size_t size;

	if (fread(&h, sizeof(h), 1, u->fp) != 1)
		return ferror(u->fp) ? -EIO : 0;
	size = rec_size(&h);
	if (CORE_GROW(u->r, u->cap, size / sizeof(*u->r) + 1) < 0)
		return -ENOMEM;
	memcpy(u->r, &h, sizeof(h));
	if (size > sizeof(h) && fread(u->r + 1, size - sizeof(h), 1, u->fp) != 1)
		return -EIO;
	return 1;
}

static void sift_down(struct run *runs, size_t *heap, size_t nh, size_t j)
{
	size_t c, t;

	while ((c = 2 * j + 1) < nh) {
		if (c + 1 < nh && rec_cmp(runs[heap[c + 1]].r, runs[heap[c]].r) < 0)
			c++;
		if (rec_cmp(runs[heap[c]].r, runs[heap[j]].r) >= 0)
			break;
		t = heap[c];
		heap[c] = heap[j];
		heap[j] = t;
		j = c;
	}
}

static int merge_runs(struct prof_trace_sort *s, struct prof_trace_writer *w,
		      struct core_error *err)
{
	size_t *heap = malloc(s->nruns * sizeof(*heap)), nh = 0, i;
	int ret = 0;

	if (!heap)
		return core_error_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < s->nruns; i++) {
		if ((ret = run_next(&s->runs[i])) < 0)
			goto ioerr;
		if (ret)
			heap[nh++] = i;
	}
	for (i = nh / 2; i-- > 0;)
		sift_down(s->runs, heap, nh, i);
	while (nh) {
		struct run *u = &s->runs[heap[0]];

		if ((ret = write_rec(w, u->r)) < 0) {
			core_error_errno(err, -ret, "writing the trace failed");
			goto out;
		}
		if ((ret = run_next(u)) < 0)
			goto ioerr;
		if (!ret)
			heap[0] = heap[--nh];
		sift_down(s->runs, heap, nh, 0);
	}
	ret = 0;
	goto out;
ioerr:
	if (ret == -ENOMEM)
		core_error_set(err, ret, "out of memory");
	else
		core_error_errno(err, -ret, "reading a temporary file of the trace's rows");
out:
	free(heap);
	return ret;
}

int prof_trace_sort_finish(struct prof_trace_sort *s, struct prof_trace_writer *w,
			   struct core_error *err)
{
	size_t i;
	int ret;

	if (s->nruns) {
		if (s->n && (ret = spill(s)) < 0)
			return core_error_errno(err, -ret, "writing a temporary file of the trace's rows");
		return merge_runs(s, w, err);
	}
	sort_chunk(s);
	for (i = 0; i < s->n; i++)
		if ((ret = write_rec(w, (const struct rec *)(s->buf.data + s->idx[i]))) < 0)
			return core_error_errno(err, -ret, "writing the trace failed");
	return 0;
}

size_t prof_trace_sort_rows(const struct prof_trace_sort *s)
{
	return (size_t)s->seq;
}

size_t prof_trace_sort_runs(const struct prof_trace_sort *s)
{
	return s->nruns;
}

void prof_trace_sort_free(struct prof_trace_sort *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nruns; i++) {
		fclose(s->runs[i].fp);
		free(s->runs[i].r);
	}
	free(s->runs);
	free(s->idx);
	core_buf_release(&s->buf);
	free(s);
}
