/* The trace reader and the breakdown sweep, driven directly. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "prof/breakdown.h"
#include "prof/report.h"
#include "prof/report_scan.h"
#include "prof/trace_read.h"
#include "test.h"

#define HDR "kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail\n"

struct ctx {
	struct prof_breakdown *bd;
	int restarts;
};

static int on_event(void *c, const struct prof_trace_reader *r, const struct prof_ev *ev)
{
	return prof_breakdown_add(((struct ctx *)c)->bd, r, ev);
}

static int on_restart(void *c)
{
	struct ctx *x = c;

	x->restarts++;
	prof_breakdown_free(x->bd);
	return prof_breakdown_new(&x->bd, INT64_MIN, INT64_MAX);
}

/* Scan `text` (a regular file when `file`, else a pipe-like stream). */
static struct prof_breakdown *scan(const char *text, size_t chunk, int *restarts,
				   struct prof_scan_stats *st)
{
	struct ctx c = { NULL, 0 };
	struct prof_scan_sink sink = { on_event, on_restart, &c };
	struct prof_trace_reader *r;
	struct core_error err = CORE_ERROR_INIT;
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/t.csv", test_tmpdir());
	fp = fopen(path, "w+");
	fputs(text, fp);
	rewind(fp);
	prof_breakdown_new(&c.bd, INT64_MIN, INT64_MAX);
	if (prof_report_scan(fp, "t.csv", 0, chunk, &sink, &r, st, &err) < 0) {
		TEST_OK(0, "scan: %s", err.msg);
		fclose(fp);
		return c.bd;
	}
	prof_breakdown_finish(c.bd, r);
	prof_trace_reader_free(r);
	fclose(fp);
	*restarts = c.restarts;
	return c.bd;
}

static int64_t slot_of(const struct prof_breakdown *bd, int64_t pid, const char *key, int slot)
{
	size_t i, k;

	for (i = 0; i < bd->nprocs; i++)
		for (k = 0; k < bd->nkeys && bd->procs[i].pid == pid; k++)
			if (k < bd->procs[i].nkeys && !strcmp(bd->keys[k], key))
				return bd->procs[i].op[k][slot];
	return -1;
}

static void test_nesting(void)
{
	/* Ordered: outer 0-100, inner 20-60 (python 0-50), nothing else. */
	const char *t = HDR
		"op,1,1,0,100,outer,,,,,,0,\n"
		"cpu,1,1,0,50,,python,,,,,,\n"
		"op,1,1,20,60,inner,,,,,,1,\n";
	struct prof_scan_stats st;
	int restarts = -1;
	struct prof_breakdown *bd = scan(t, 16, &restarts, &st);

	TEST_EQ_LONG(restarts, 0, "ordered input: no restart");
	TEST_EQ_LONG(st.sorted, 1, "ordered input: streamed");
	TEST_EQ_LONG(slot_of(bd, 1, "outer", PROF_SLOT_CPU_PYTHON), 20, "outer python 0-20");
	TEST_EQ_LONG(slot_of(bd, 1, "outer", PROF_SLOT_CPU_NATIVE), 40, "outer native 60-100");
	TEST_EQ_LONG(slot_of(bd, 1, "inner", PROF_SLOT_CPU_PYTHON), 30, "inner python 20-50");
	TEST_EQ_LONG(slot_of(bd, 1, "inner", PROF_SLOT_CPU_NATIVE), 10, "inner native 50-60");
	TEST_EQ_LONG(bd->procs[0].wall, 100, "wall time");
	prof_breakdown_free(bd);
}

static void test_same_start(void)
{
	/* Two ops starting together: the shorter one is inner, whatever the row order. */
	const char *t = HDR
		"op,1,1,0,40,inner,,,,,,1,\n"
		"op,1,1,0,100,outer,,,,,,0,\n";
	struct prof_scan_stats st;
	int restarts = -1;
	struct prof_breakdown *bd = scan(t, 16, &restarts, &st);

	TEST_EQ_LONG(restarts, 1, "inner first: out of order, one restart");
	TEST_EQ_LONG(st.sorted, 0, "sorted in the second pass");
	TEST_EQ_LONG(slot_of(bd, 1, "inner", PROF_SLOT_CPU_NATIVE), 40, "inner owns 0-40");
	TEST_EQ_LONG(slot_of(bd, 1, "outer", PROF_SLOT_CPU_NATIVE), 60, "outer owns 40-100");
	prof_breakdown_free(bd);
}

static void test_runs(void)
{
	/* Many runs of 2 events must merge to the same answer as one. */
	char t[8192];
	size_t n = strlen(strcpy(t, HDR));
	int i, restarts;
	struct prof_scan_stats st;
	struct prof_breakdown *bd;

	for (i = 9; i >= 0; i--)
		n += (size_t)snprintf(t + n, sizeof(t) - n, "op,1,1,%d,%d,k%d,,,,,,0,\n"
				      "gpu,1,,%d,%d,g,kernel,,0,1,,,\n", i * 100, i * 100 + 50, i % 2,
				      i * 100 + 25, i * 100 + 75);
	bd = scan(t, 2, &restarts, &st);
	TEST_EQ_LONG(st.runs, 10, "ten runs of two");
	TEST_EQ_LONG(slot_of(bd, 1, "k0", PROF_SLOT_CPU_NATIVE), 125, "k0: 5 x 25 ns CPU");
	TEST_EQ_LONG(slot_of(bd, 1, "k0", PROF_SLOT_BOTH_NATIVE), 125, "k0: 5 x 25 ns CPU+GPU");
	TEST_EQ_LONG(slot_of(bd, 1, "[unannotated]", PROF_SLOT_CPU_NATIVE), 9 * 25, "gaps");
	TEST_EQ_LONG(slot_of(bd, 1, "[unannotated]", PROF_SLOT_BOTH_NATIVE), 10 * 25, "GPU tails");
	TEST_EQ_LONG(bd->gpus[0].busy, 500, "GPU busy: 10 x 50 ns");
	prof_breakdown_free(bd);
}

static void test_reader(void)
{
	const char *t = HDR
		"op,7,8,5,9,\"x,\"\"y\"\"\",,dom,,,,2,\n"
		"gpu,7,,1,2,k,memcpy,,3,4,5,,\n"
		"counter,7,8,3,,c,,,,,,2.5,\n";
	FILE *fp = fmemopen((void *)t, strlen(t), "r");
	struct prof_trace_reader *r;
	struct prof_ev ev;
	struct core_error err = CORE_ERROR_INIT;

	prof_trace_reader_new(&r, fp, "t", PROF_READ_ALL_NAMES, &err);
	TEST_EQ_LONG(prof_trace_read(r, &ev, &err), 1, "op row");
	TEST_EQ_STR(prof_trace_str(r, ev.name), "x,\"y\"", "quoted name");
	TEST_EQ_STR(prof_trace_str(r, ev.domain), "dom", "domain");
	TEST_OK(ev.pid == 7 && ev.tid == 8 && ev.start == 5 && ev.end == 9 && ev.value == 2 &&
		ev.line == 2, "op fields");
	TEST_EQ_LONG(prof_trace_read(r, &ev, &err), 1, "gpu row");
	TEST_OK(ev.kind == PROF_KIND_GPU && ev.cat == PROF_CAT_MEMCPY && ev.device == 3 &&
		ev.stream == 4 && ev.line == 3, "gpu fields");
	TEST_EQ_LONG(prof_trace_read(r, &ev, &err), 1, "counter row");
	TEST_OK(ev.end == ev.start && ev.value == 2.5, "counter: instant with a value");
	TEST_EQ_LONG(prof_trace_read(r, &ev, &err), 0, "end");
	TEST_EQ_STR(prof_trace_format(r), "csv", "format detected");
	prof_trace_reader_free(r);
	fclose(fp);
}

/* Read `t` (CSV or JSON Lines); the events' fields as "pid tid start end value name;" */
static char *read_events(const char *t, uint64_t *malformed)
{
	FILE *fp = fmemopen((void *)t, strlen(t), "r");
	struct prof_trace_reader *r;
	struct prof_ev ev;
	struct core_error err = CORE_ERROR_INIT;
	static char out[4096];
	size_t len = 0;

	out[0] = '\0';
	prof_trace_reader_new(&r, fp, "t", 0, &err);
	while (prof_trace_read(r, &ev, &err) > 0 && len < sizeof(out) - 200)
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%lld %lld %lld %lld %g %s;",
					(long long)ev.pid, (long long)ev.tid, (long long)ev.start,
					(long long)ev.end, ev.value, prof_trace_str(r, ev.name));
	*malformed = prof_trace_problems(r)->count[PROF_PROB_MALFORMED];
	prof_trace_reader_free(r);
	fclose(fp);
	return out;
}

/*
 * Numbers and names that repeat those of the row before are read from
 * what the reader kept of it: the values must be those of the text.
 */
static void test_numbers(void)
{
	const char *t = HDR
		"op,7,8,1700000000123456789,1700000000123456799,ab,,,,,,0,\n"
		"op,70,8,1700000000123456800,1700000000223456801,abc,,,,,,-5,\n"
		"op,7,08,1700000000223456802,1700000000223456803,ab,,,,,,9,\n"
		"op,7,8,17000000002234568x4,1700000000223456805,ab,,,,,,,\n"
		"op,7,8,9223372036854775806,9223372036854775807,abcdefgh,,,,,,,\n"
		"op,7,8,9223372036854775807,9223372036899999999,abcdefgh,,,,,,,\n"
		"op,12345678,123456789,-123456789012345678,-123456789012345677,abcdefghi,,,,,,,\n"
		"op,12345678,123456789,-123456789012345679,-123456789012345670,abcdefgh,,,,,,x,\n"
		"op,12345678,123456789,-123456789012345679,-123456789012345670,abcdefgh,,,,,,12,\n"
		"op,1234567,12345678,1,22,ab,,,,,,,\n";
	const char *j =
		"{\"kind\":\"op\",\"pid\":\"7\",\"tid\":\"8\",\"start_ns\":\"5\",\"end_ns\":9,\"name\":\"n\",\"value\":\"-3\"}\n"
		"{\"kind\":\"op\",\"pid\":\"7x\",\"tid\":8,\"start_ns\":5,\"end_ns\":9,\"name\":\"n\"}\n"
		"{\"kind\":\"op\",\"pid\":7,\"tid\":8,\"start_ns\":\"1700000000123456789\",\"end_ns\":\"1700000000123456790\",\"name\":\"n\"}\n";
	uint64_t bad;

	TEST_EQ_STR(read_events(t, &bad),
		    "7 8 1700000000123456789 1700000000123456799 0 ab;"
		    "70 8 1700000000123456800 1700000000223456801 -5 abc;"
		    "7 8 1700000000223456802 1700000000223456803 9 ab;"
		    "7 8 9223372036854775806 9223372036854775807 0 abcdefgh;"
		    "12345678 123456789 -123456789012345678 -123456789012345677 0 abcdefghi;"
		    "12345678 123456789 -123456789012345679 -123456789012345670 12 abcdefgh;"
		    "1234567 12345678 1 22 0 ab;",
		    "CSV: repeated numbers and names read right");
	TEST_EQ_LONG(bad, 3, "CSV: a bad digit, a timestamp past INT64_MAX and a bad value are malformed");
	TEST_EQ_STR(read_events(j, &bad),
		    "7 8 5 9 -3 n;7 8 1700000000123456789 1700000000123456790 0 n;",
		    "JSON Lines: numbers in strings");
	TEST_EQ_LONG(bad, 1, "JSON Lines: a bad pid is malformed");
}

static void test_duration(void)
{
	int64_t ns = 0;

	TEST_OK(prof_report_parse_duration("1.5s", &ns) == 0 && ns == 1500000000, "1.5s");
	TEST_OK(prof_report_parse_duration("200ms", &ns) == 0 && ns == 200000000, "200ms");
	TEST_OK(prof_report_parse_duration("30us", &ns) == 0 && ns == 30000, "30us");
	TEST_OK(prof_report_parse_duration("7ns", &ns) == 0 && ns == 7, "7ns");
	TEST_OK(prof_report_parse_duration("2", &ns) == 0 && ns == 2000000000, "bare seconds");
	TEST_EQ_LONG(prof_report_parse_duration("-1s", &ns), -EINVAL, "negative");
	TEST_EQ_LONG(prof_report_parse_duration("1h", &ns), -EINVAL, "unknown unit");
	TEST_EQ_LONG(prof_report_parse_duration("", &ns), -EINVAL, "empty");
}

static void test_human(void)
{
	char b[32];

	core_fmt_human_ns(b, sizeof(b), 999);
	TEST_EQ_STR(b, "999 ns", "ns");
	core_fmt_human_ns(b, sizeof(b), 1234567);
	TEST_EQ_STR(b, "1.23 ms", "ms");
	core_fmt_human_ns(b, sizeof(b), 98765432100);
	TEST_EQ_STR(b, "98.8 s", "s");
	core_fmt_duration(b, sizeof(b), 1234567, "us", 3);
	TEST_EQ_STR(b, "1234.567", "exact us");
}

int main(void)
{
	test_nesting();
	test_same_start();
	test_runs();
	test_reader();
	test_numbers();
	test_duration();
	test_human();
	return test_done();
}
