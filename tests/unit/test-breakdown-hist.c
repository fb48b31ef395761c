/* Call-duration histograms (lib/prof/breakdown_hist.h). */
#include <stdint.h>
#include <stdlib.h>

#include "prof/breakdown_hist.h"
#include "test.h"

static void test_exact_small(void)
{
	struct prof_hist h = PROF_HIST_INIT;
	int64_t v;

	/* 1..100 ns: every value has a bucket of its own. */
	for (v = 100; v >= 1; v--)
		prof_hist_add(&h, v);
	TEST_EQ_LONG(h.calls, 100, "calls");
	TEST_EQ_LONG(h.sum, 5050, "sum");
	TEST_EQ_LONG(h.max, 100, "max");
	TEST_EQ_LONG(prof_hist_percentile(&h, 50), 50, "p50 by nearest rank");
	TEST_EQ_LONG(prof_hist_percentile(&h, 95), 95, "p95 by nearest rank");
	TEST_EQ_LONG(prof_hist_percentile(&h, 100), 100, "p100 is the max");
	TEST_EQ_LONG(prof_hist_percentile(&h, 0.001), 1, "the smallest rank is 1");
	prof_hist_release(&h);
}

static void test_equal_values_exact(void)
{
	struct prof_hist h = PROF_HIST_INIT;
	int i;

	/* Large values, equal within a bucket: the bucket mean is exact. */
	for (i = 0; i < 90; i++)
		prof_hist_add(&h, 123456789);
	for (i = 0; i < 10; i++)
		prof_hist_add(&h, 987654321012LL);
	TEST_EQ_LONG(prof_hist_percentile(&h, 50), 123456789, "p50 exact");
	TEST_EQ_LONG(prof_hist_percentile(&h, 90), 123456789, "p90 exact");
	TEST_EQ_LONG(prof_hist_percentile(&h, 95), 987654321012LL, "p95 exact");
	TEST_EQ_LONG(h.max, 987654321012LL, "max");
	prof_hist_release(&h);
}

static void test_relative_error(void)
{
	struct prof_hist h = PROF_HIST_INIT;
	uint64_t x = 12345;
	int64_t vals[1000], p, want;
	int i, j, worst = 0;

	/* Spread over 6 decades: each percentile within 0.8% of the exact one. */
	for (i = 0; i < 1000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		vals[i] = (int64_t)(1000 + (x >> 33) % 1000000000);
		prof_hist_add(&h, vals[i]);
	}
	for (i = 1; i < 1000; i++)
		for (j = i; j > 0 && vals[j - 1] > vals[j]; j--) {
			int64_t t = vals[j];

			vals[j] = vals[j - 1];
			vals[j - 1] = t;
		}
	for (i = 1; i <= 100; i++) {
		p = prof_hist_percentile(&h, i);
		want = vals[(i * 1000 + 99) / 100 - 1];
		if (llabs(p - want) * 125 > want)
			worst = i;
	}
	TEST_EQ_LONG(worst, 0, "every percentile within 0.8%");
	TEST_OK(h.n < 128 * 22, "buckets for 6 decades: %u", h.n);
	prof_hist_release(&h);
}

static void test_merge(void)
{
	struct prof_hist a = PROF_HIST_INIT, b = PROF_HIST_INIT, all = PROF_HIST_INIT;
	int64_t v;

	for (v = 1; v <= 50; v++)
		prof_hist_add(&a, v * 1000);
	for (v = 51; v <= 100; v++)
		prof_hist_add(&b, v * 1000);
	prof_hist_merge(&all, &b);
	prof_hist_merge(&all, &a);
	prof_hist_merge(&all, &(struct prof_hist)PROF_HIST_INIT);
	TEST_EQ_LONG(all.calls, 100, "merged calls");
	TEST_EQ_LONG(all.sum, 5050000, "merged sum");
	TEST_EQ_LONG(all.max, 100000, "merged max");
	TEST_EQ_LONG(prof_hist_percentile(&all, 50), 50000, "merged p50");
	TEST_EQ_LONG(prof_hist_percentile(&(struct prof_hist)PROF_HIST_INIT, 50), 0, "empty: 0");
	prof_hist_release(&a);
	prof_hist_release(&b);
	prof_hist_release(&all);
}

int main(void)
{
	test_exact_small();
	test_equal_values_exact();
	test_relative_error();
	test_merge();
	return test_done();
}
