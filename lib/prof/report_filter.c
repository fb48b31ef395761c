#include "prof/report_filter.h"

#include <errno.h>
#include <stdlib.h>

#include "core/grow.h"

void prof_window_init(struct prof_window *w, int64_t from, int64_t to)
{
	w->from = from;
	w->to = to;
	prof_window_reset(w);
}

void prof_window_reset(struct prof_window *w)
{
	w->lo = INT64_MIN;
	w->hi = INT64_MAX;
	w->t0 = 0;
	w->started = 0;
}

int prof_window_clip(struct prof_window *w, const struct prof_ev *ev, int64_t *a, int64_t *b)
{
	if (!w->started) {
		w->started = 1;
		w->t0 = ev->start;
		if (w->from != INT64_MIN)
			w->lo = ev->start + w->from;
		if (w->to != INT64_MAX)
			w->hi = ev->start + w->to;
	}
	*a = ev->start < w->lo ? w->lo : ev->start;
	*b = ev->end > w->hi ? w->hi : ev->end;
	return !(*b < *a || (*b == *a && (ev->start < w->lo || ev->start >= w->hi)));
}

int prof_pidset_add(struct prof_pidset *s, int64_t pid)
{
	if (CORE_GROW(s->v, s->cap, s->n + 1) < 0)
		return -ENOMEM;
	s->v[s->n++] = pid;
	return 0;
}

int prof_pidset_has(const struct prof_pidset *s, int64_t pid)
{
	size_t i;

	if (!s->n)
		return 1;
	for (i = 0; i < s->n; i++)
		if (s->v[i] == pid)
			return 1;
	return 0;
}

void prof_pidset_release(struct prof_pidset *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}
