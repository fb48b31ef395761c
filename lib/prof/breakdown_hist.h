/*
 * Durations of calls: count, sum, maximum and percentiles in memory that
 * does not grow with the number of calls.
 *
 * The percentiles come from a log-linear histogram: values below 256 ns
 * have a bucket each, larger ones share buckets 1/128 of an octave wide
 * (under 0.8% of the value).  Each bucket keeps the count and the sum of
 * its values, and a percentile is the mean of the values in the bucket
 * that holds it, rounded to the nanosecond: exact when the values in that
 * bucket are equal, within the bucket's width otherwise.  The percentile
 * p of n values is the value of rank ceil(p * n / 100) (nearest rank).
 * The buckets in use are a dense range, so memory is O(log(max / min))
 * per histogram: about 2 KiB per octave that the durations span.
 *
 *	struct prof_hist h = PROF_HIST_INIT;
 *	prof_hist_add(&h, ns);          // 0 or -ENOMEM
 *	prof_hist_merge(&all, &h);      // 0 or -ENOMEM
 *	p95 = prof_hist_percentile(&h, 95);
 *	prof_hist_release(&h);
 */
#ifndef PROF_BREAKDOWN_HIST_H
#define PROF_BREAKDOWN_HIST_H

#include <errno.h>
#include <stdint.h>

struct prof_hist {
	uint64_t calls;
	int64_t sum, max;	/* of the values added */
	uint64_t *count;	/* count[i], sum[i]: bucket lo + i */
	uint64_t *bsum;
	uint32_t lo, n;
};

#define PROF_HIST_INIT { 0, 0, 0, NULL, NULL, 0, 0 }

/* int prof_hist_add(struct prof_hist *h, int64_t v), below: add one value
 * (negative values count as 0); 0 or -ENOMEM. */
/* Add every value of `from` to `h`. */
int prof_hist_merge(struct prof_hist *h, const struct prof_hist *from);
/* The percentile p (0 < p <= 100) of the values; 0 when there are none. */
int64_t prof_hist_percentile(const struct prof_hist *h, double p);
void prof_hist_release(struct prof_hist *h);

/*
 * Inline, as the sweep adds a value per call.  prof_hist_span makes the
 * range of buckets hold [a, b] (0 or -ENOMEM).
 */
int prof_hist_span(struct prof_hist *h, uint32_t a, uint32_t b);

#define PROF_HIST_SUB 7	/* 2^PROF_HIST_SUB buckets per octave */

static inline uint32_t prof_hist_bucket(uint64_t v)
{
	int e;

	if (v < (2u << PROF_HIST_SUB))
		return (uint32_t)v;
	e = 63 - __builtin_clzll(v);
	return (uint32_t)((e - PROF_HIST_SUB) << PROF_HIST_SUB) +
	       (uint32_t)((v >> (e - PROF_HIST_SUB)) & ((1u << PROF_HIST_SUB) - 1));
}

static inline int prof_hist_add(struct prof_hist *h, int64_t v)
{
	uint32_t b;

	if (v < 0)
		v = 0;
	b = prof_hist_bucket((uint64_t)v);
	if ((!h->n || b < h->lo || b >= h->lo + h->n) && prof_hist_span(h, b, b) < 0)
		return -ENOMEM;
	h->count[b - h->lo]++;
	h->bsum[b - h->lo] += (uint64_t)v;
	h->calls++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
	return 0;
}

#endif
