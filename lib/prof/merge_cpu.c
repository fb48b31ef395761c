#include "prof/merge_cpu.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum prof_category prof_seg_category(int c)
{
	static const enum prof_category cats[PROF_SEG_NCAT] = {
		PROF_CAT_PYTHON, PROF_CAT_SIMULATOR, PROF_CAT_BACKEND,
		PROF_CAT_CUDA_API, PROF_CAT_NATIVE, PROF_CAT_SYSTEM,
	};

	return c >= 0 && c < PROF_SEG_NCAT ? cats[c] : PROF_CAT_NATIVE;
}

/* The map key: pid, tid, then the operation's name (no NUL). */
static size_t make_key(char *buf, size_t cap, int64_t pid, int64_t tid, const char *key,
		       int whole_thread)
{
	size_t n = whole_thread ? 0 : strlen(key);

	if (n > cap - 17)
		n = cap - 17;
	memcpy(buf, &pid, 8);
	memcpy(buf + 8, &tid, 8);
	buf[16] = (char)whole_thread;
	memcpy(buf + 17, key, n);
	return 17 + n;
}

static int add_one(struct prof_cpufrac *f, const char *k, size_t len, const int64_t *w)
{
	struct core_map_entry *e;
	int ret = core_map_put(&f->map, k, len, &e), i;
	int64_t *v;

	if (ret < 0)
		return ret;
	/* Sampled ns per category, then ns given per category, then all given. */
	if (ret == 1 && !(e->value.p = calloc(2 * PROF_SEG_NCAT + 1, sizeof(int64_t))))
		return -ENOMEM;
	v = e->value.p;
	for (i = 0; i < PROF_SEG_NCAT; i++)
		v[i] += w[i];
	return 0;
}

int prof_cpufrac_add(struct prof_cpufrac *f, int64_t pid, const char *key,
		     const struct prof_spool_seg *seg)
{
	char k[512];
	int ret;

	ret = add_one(f, k, make_key(k, sizeof(k), pid, seg->tid, key, 0), seg->w);
	if (!ret)
		ret = add_one(f, k, make_key(k, sizeof(k), pid, seg->tid, key, 1), seg->w);
	return ret;
}

static int64_t sum(const int64_t *w)
{
	int64_t s = 0;
	int i;

	for (i = 0; i < PROF_SEG_NCAT; i++)
		s += w[i];
	return s;
}

void prof_cpufrac_split(const struct prof_cpufrac *f, int64_t pid, const char *key,
			const struct prof_spool_seg *seg, int64_t out[PROF_SEG_NCAT])
{
	const int64_t *w = seg->w;
	int64_t total = sum(w), given = 0;
	double rest[PROF_SEG_NCAT];
	int i, big = PROF_SEG_NATIVE;

	memset(out, 0, PROF_SEG_NCAT * sizeof(*out));
	if (total <= 0 || total < seg->cpu / 2) {
		char k[512];
		const struct core_map_entry *e;
		int whole;

		for (whole = 0; whole < 2; whole++) {
			e = core_map_find(&f->map, k, make_key(k, sizeof(k), pid, seg->tid, key, whole));
			if (e && sum(e->value.p) > 0) {
				/*
				 * Too few samples of its own: the whole segment
				 * goes to one category of its operation, the one
				 * furthest behind its share, so that over the
				 * operation the categories get their shares (to
				 * one segment), and rows of a thread that keeps
				 * one category join up.
				 */
				int64_t *v = e->value.p, *gave = v + PROF_SEG_NCAT;
				double all, best = -1e300;

				total = sum(v);
				gave[PROF_SEG_NCAT] += seg->cpu;
				all = (double)gave[PROF_SEG_NCAT];
				for (i = 0; i < PROF_SEG_NCAT; i++) {
					double behind = all * (double)v[i] / (double)total - (double)gave[i];

					if (v[i] > 0 && behind > best) {
						best = behind;
						big = i;
					}
				}
				gave[big] += seg->cpu;
				out[big] = seg->cpu;
				return;
			}
		}
	}
	if (total <= 0) {
		out[PROF_SEG_NATIVE] = seg->cpu;
		return;
	}
	/* Largest remainder: the parts sum to seg->cpu exactly. */
	for (i = 0; i < PROF_SEG_NCAT; i++) {
		double x = (double)seg->cpu * (double)w[i] / (double)total;

		out[i] = (int64_t)x;
		rest[i] = x - (double)out[i];
		given += out[i];
	}
	while (given < seg->cpu) {
		double r = -1;

		for (i = 0; i < PROF_SEG_NCAT; i++)
			if (w[i] > 0 && rest[i] > r) {
				r = rest[i];
				big = i;
			}
		out[big]++;
		rest[big] = -1;
		given++;
	}
}

static int write_row(struct prof_trace_writer *w, const struct prof_cpurow *r)
{
	struct prof_event ev = PROF_EVENT_INIT;

	ev.kind = PROF_KIND_CPU;
	ev.has = PROF_EV_PID | PROF_EV_TID | PROF_EV_START | PROF_EV_END;
	ev.pid = r->pid;
	ev.tid = r->tid;
	ev.start_ns = r->start;
	ev.end_ns = r->end;
	ev.category = r->cat;
	return prof_trace_write(w, &ev);
}

static int row(struct prof_cpufrac *f, struct prof_trace_writer *w, int64_t pid, int64_t tid,
	       int64_t a, int64_t b, enum prof_category cat)
{
	struct prof_cpurow *r = NULL;
	size_t i;
	int ret;

	if (b <= a)
		return 0;
	for (i = 0; i < f->npending; i++)
		if (f->pending[i].pid == pid && f->pending[i].tid == tid) {
			r = &f->pending[i];
			break;
		}
	if (r && r->cat == cat && r->end == a) {
		r->end = b;
		return 0;
	}
	if (r) {
		if ((ret = write_row(w, r)) < 0)
			return ret;
	} else {
		if (f->npending == f->cappending) {
			size_t cap = f->cappending ? 2 * f->cappending : 16;
			struct prof_cpurow *v = realloc(f->pending, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			f->pending = v;
			f->cappending = cap;
		}
		r = &f->pending[f->npending++];
	}
	*r = (struct prof_cpurow){ pid, tid, a, b, cat };
	return 0;
}

int prof_cpufrac_flush(struct prof_cpufrac *f, struct prof_trace_writer *w)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < f->npending; i++)
		if (!ret)
			ret = write_row(w, &f->pending[i]);
	f->npending = 0;
	return ret;
}

int prof_cpufrac_write(struct prof_cpufrac *f, struct prof_trace_writer *w,
		       int64_t pid, int64_t start, const char *key,
		       const struct prof_spool_seg *seg)
{
	int64_t part[PROF_SEG_NCAT], t = start;
	int i, ret;

	prof_cpufrac_split(f, pid, key, seg, part);
	for (i = 0; i < PROF_SEG_NCAT; i++) {
		if ((ret = row(f, w, pid, seg->tid, t, t + part[i], prof_seg_category(i))) < 0)
			return ret;
		t += part[i];
	}
	if ((ret = row(f, w, pid, seg->tid, t, t + seg->runnable, PROF_CAT_RUNNABLE)) < 0)
		return ret;
	t += seg->runnable;
	return row(f, w, pid, seg->tid, t, seg->end, PROF_CAT_WAIT);
}

void prof_cpufrac_release(struct prof_cpufrac *f)
{
	core_map_release(&f->map, free);
	free(f->pending);
	f->pending = NULL;
	f->npending = f->cappending = 0;
}
