/*
 * prof_calib_compute: a source's cost per event is the median over the
 * repeats, so that one run slowed by a busy host does not move it; the
 * mean and spread beside it show the noise.  The file keeps all three.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prof/calib.h"
#include "test.h"

/* Five repeats, 1000 annotation events each, 500 ns per event but for
 * one run that a busy host made 300 ms slower. */
static void fill(struct prof_calib *cal)
{
	static const int64_t base[] = { 100000000, 101000000, 99000000, 100000000, 100500000 };
	static const int64_t on[] = { 100500000, 101500000, 399500000, 100500000, 101000000 };

	cal->argv = calloc(2, sizeof(*cal->argv));
	cal->argv[0] = strdup("train");
	for (int i = 0; i < 5; i++) {
		prof_calib_runs_add(&cal->base, base[i], base[i], 0);
		prof_calib_runs_add(&cal->runs[PROF_CALIB_ANNOTATIONS], on[i], on[i], 1000);
		prof_calib_runs_add(&cal->runs[PROF_CALIB_CPU_SAMPLING], on[i] + 1000000,
				    on[i] + 1000000, i == 4 ? 0 : 2000);
	}
}

static void test_median(void)
{
	struct prof_calib cal = PROF_CALIB_INIT;
	const struct prof_calib_cost *a = &cal.cost[PROF_CALIB_ANNOTATIONS];
	const struct prof_calib_cost *s = &cal.cost[PROF_CALIB_CPU_SAMPLING];

	fill(&cal);
	prof_calib_compute(&cal);
	TEST_OK(a->measured && a->samples == 5 && fabs(a->ns - 500) < 1e-9,
		"compute: the cost is the median of the repeats (%.1f ns per event)", a->ns);
	TEST_OK(fabs(a->mean - 60500) < 1e-6 && a->spread > 100000,
		"compute: the mean and spread show the slow run (mean %.1f, spread %.1f)", a->mean,
		a->spread);
	/* Over the annotations-only runs; the repeat without events left out:
	 * 4 costs of 500 ns, an even count, so the mean of the middle two. */
	TEST_OK(s->measured && s->samples == 4 && fabs(s->ns - 500) < 1e-9,
		"compute: an even count of repeats takes the middle two's mean (%.1f)", s->ns);
	TEST_OK(!cal.cost[PROF_CALIB_PYTHON_HOOK].measured,
		"compute: a source without runs is not measured");
	prof_calib_release(&cal);
}

/* Costs of 400, 500, 600, 500 and 450 ns per event over 1000 events:
 * median 500, absolute deviations 100, 0, 100, 0, 50, whose median is 50. */
static void test_uncertainty(void)
{
	static const int64_t extra[] = { 400000, 500000, 600000, 500000, 450000 };
	struct prof_calib cal = PROF_CALIB_INIT;
	double want = 1.2533 * 1.4826 * 50 / sqrt(5);

	for (int i = 0; i < 5; i++) {
		prof_calib_runs_add(&cal.base, 100000000, 100000000, 0);
		prof_calib_runs_add(&cal.runs[PROF_CALIB_ANNOTATIONS], 100000000 + extra[i],
				    100000000 + extra[i], 1000);
		/* The sampler costs exactly 200 ns per event in every repeat. */
		prof_calib_runs_add(&cal.runs[PROF_CALIB_CPU_SAMPLING], 100000000 + extra[i] + 400000,
				    100000000 + extra[i] + 400000, 2000);
		/* The hook is noisy, but not a default source. */
		prof_calib_runs_add(&cal.runs[PROF_CALIB_PYTHON_HOOK], 100000000 + extra[i] * (i + 1),
				    100000000 + extra[i] * (i + 1), 1000);
	}
	prof_calib_compute(&cal);
	TEST_OK(fabs(prof_calib_uncertainty(&cal, PROF_CALIB_ANNOTATIONS) - want) < 1e-6,
		"uncertainty: 1.2533 x 1.4826 x the median absolute deviation / sqrt(n) (%.3f, want %.3f)",
		prof_calib_uncertainty(&cal, PROF_CALIB_ANNOTATIONS), want);
	TEST_OK(prof_calib_uncertainty(&cal, PROF_CALIB_CPU_SAMPLING) == 0 &&
		prof_calib_events_median(&cal, PROF_CALIB_CPU_SAMPLING) == 2000,
		"uncertainty: none for a source whose repeats agree; its median event count");
	TEST_OK(fabs(prof_calib_default_uncertainty(&cal) - want * 1000) < 1e-3,
		"uncertainty: a default run's, over the annotations and the sampler only (%.1f ns)",
		prof_calib_default_uncertainty(&cal));
	prof_calib_release(&cal);
}

static void test_json(void)
{
	struct prof_calib cal = PROF_CALIB_INIT, back = PROF_CALIB_INIT;
	struct core_error err = CORE_ERROR_INIT;
	json_t *j, *src;
	int ret;

	fill(&cal);
	prof_calib_compute(&cal);
	j = prof_calib_to_json(&cal);
	src = json_object_get(json_object_get(j, "sources"), "annotations");
	TEST_OK(src && json_real_value(json_object_get(src, "ns_per_event")) == 500 &&
		json_real_value(json_object_get(src, "mean_ns_per_event")) == cal.cost[0].mean,
		"json: ns_per_event is the median, mean_ns_per_event the mean");
	ret = prof_calib_from_json(&back, j, "cal.json", &err);
	TEST_OK(ret == 0, "json: read back (%s)", err.msg);
	TEST_OK(back.cost[0].ns == 500 && back.cost[0].mean == cal.cost[0].mean &&
		back.cost[0].spread == cal.cost[0].spread, "json: read back the same");
	/* A file without mean_ns_per_event: the mean is the cost. */
	json_object_del(src, "mean_ns_per_event");
	prof_calib_release(&back);
	back = (struct prof_calib)PROF_CALIB_INIT;
	ret = prof_calib_from_json(&back, j, "cal.json", &err);
	TEST_OK(ret == 0 && back.cost[0].ns == 500 && back.cost[0].mean == 500,
		"json: a file without the mean reads with the mean equal to the cost");
	json_decref(j);
	prof_calib_release(&back);
	prof_calib_release(&cal);
}

int main(void)
{
	test_median();
	test_uncertainty();
	test_json();
	return test_done();
}
