#include "prof/breakdown_hist.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int prof_hist_span(struct prof_hist *h, uint32_t a, uint32_t b)
{
	uint32_t lo = a, hi = b, n;
	uint64_t *c, *s;

	if (h->n) {
		if (a >= h->lo && b < h->lo + h->n)
			return 0;
		/* A margin, so that a widening range is not copied each time. */
		lo = a < h->lo ? (a > 64 ? a - 64 : 0) : h->lo;
		hi = b >= h->lo + h->n ? b + 64 : h->lo + h->n - 1;
	}
	n = hi - lo + 1;
	if (!(c = calloc(n, sizeof(*c))) || !(s = calloc(n, sizeof(*s)))) {
		free(c);
		return -ENOMEM;
	}
	if (h->n) {
		memcpy(c + (h->lo - lo), h->count, h->n * sizeof(*c));
		memcpy(s + (h->lo - lo), h->bsum, h->n * sizeof(*s));
	}
	free(h->count);
	free(h->bsum);
	h->count = c;
	h->bsum = s;
	h->lo = lo;
	h->n = n;
	return 0;
}

int prof_hist_merge(struct prof_hist *h, const struct prof_hist *from)
{
	uint32_t i;

	if (!from->n)
		return 0;
	if (prof_hist_span(h, from->lo, from->lo + from->n - 1) < 0)
		return -ENOMEM;
	for (i = 0; i < from->n; i++) {
		h->count[from->lo + i - h->lo] += from->count[i];
		h->bsum[from->lo + i - h->lo] += from->bsum[i];
	}
	h->calls += from->calls;
	h->sum += from->sum;
	if (from->max > h->max)
		h->max = from->max;
	return 0;
}

int64_t prof_hist_percentile(const struct prof_hist *h, double p)
{
	uint64_t rank, seen = 0;
	uint32_t i;

	if (!h->calls)
		return 0;
	rank = (uint64_t)ceil(p / 100.0 * (double)h->calls);
	if (rank < 1)
		rank = 1;
	if (rank > h->calls)
		rank = h->calls;
	for (i = 0; i < h->n; i++) {
		seen += h->count[i];
		if (seen >= rank)
			return (int64_t)((h->bsum[i] + h->count[i] / 2) / h->count[i]);
	}
	return h->max;
}

void prof_hist_release(struct prof_hist *h)
{
	free(h->count);
	free(h->bsum);
	memset(h, 0, sizeof(*h));
}
