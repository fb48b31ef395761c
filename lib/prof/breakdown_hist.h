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

#include <stdint.h>

struct prof_hist {
	uint64_t calls;
	int64_t sum, max;	/* of the values added */
	uint64_t *count;	/* count[i], sum[i]: bucket lo + i */
	uint64_t *bsum;
	uint32_t lo, n;
};

#define PROF_HIST_INIT { 0, 0, 0, NULL, NULL, 0, 0 }

/* Add one value (negative values count as 0). */
int prof_hist_add(struct prof_hist *h, int64_t v);
/* Add every value of `from` to `h`. */
int prof_hist_merge(struct prof_hist *h, const struct prof_hist *from);
/* The percentile p (0 < p <= 100) of the values; 0 when there are none. */
int64_t prof_hist_percentile(const struct prof_hist *h, double p);
void prof_hist_release(struct prof_hist *h);

#endif
