/* Trace writer: CSV and JSON Lines rows, quoting, escaping, numbers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof/trace_write.h"
#include "test.h"

/* Write one event (after the header for CSV) and return what came out. */
static char *write_one(enum prof_trace_format f, const struct prof_event *ev)
{
	struct prof_trace_writer w;
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);

	prof_trace_writer_init(&w, fp, f);
	if (ev)
		prof_trace_write(&w, ev);
	fclose(fp);
	return out;
}

static void check(enum prof_trace_format f, const struct prof_event *ev,
		  const char *want, const char *what)
{
	char *got = write_one(f, ev);
	const char *body = got;

	if (f == PROF_TRACE_CSV)
		body = strchr(got, '\n') + 1;
	TEST_EQ_STR(body, want, what);
	free(got);
}

int main(void)
{
	struct prof_event ev = PROF_EVENT_INIT;
	enum prof_trace_format f;
	char *s;

	s = write_one(PROF_TRACE_CSV, NULL);
	TEST_EQ_STR(s, PROF_TRACE_HEADER "\n", "csv: the header row");
	free(s);
	s = write_one(PROF_TRACE_JSONL, NULL);
	TEST_EQ_STR(s, "", "jsonl: no header");
	free(s);

	ev.kind = PROF_KIND_OP;
	ev.has = PROF_EV_PID | PROF_EV_TID | PROF_EV_START | PROF_EV_END | PROF_EV_VALUE;
	ev.pid = 12;
	ev.tid = 13;
	ev.start_ns = 1700000000000000001LL;
	ev.end_ns = 1700000000000000009LL;
	ev.name = "step";
	ev.domain = "train";
	ev.value = 2;
	check(PROF_TRACE_CSV, &ev, "op,12,13,1700000000000000001,1700000000000000009,step,,train,,,,2,\n",
	      "csv: op row, integers exact, empty fields empty");
	check(PROF_TRACE_JSONL, &ev,
	      "{\"kind\":\"op\",\"pid\":12,\"tid\":13,\"start_ns\":1700000000000000001,"
	      "\"end_ns\":1700000000000000009,\"name\":\"step\",\"domain\":\"train\",\"value\":2}\n",
	      "jsonl: op object, keys in header order, empty fields left out");

	ev.name = "a,b \"c\"";
	ev.domain = NULL;
	ev.detail = "unclosed";
	check(PROF_TRACE_CSV, &ev,
	      "op,12,13,1700000000000000001,1700000000000000009,\"a,b \"\"c\"\"\",,,,,,2,unclosed\n",
	      "csv: a name with a comma and quotes is quoted");

	memset(&ev, 0, sizeof(ev));
	ev.kind = PROF_KIND_COUNTER;
	ev.has = PROF_EV_PID | PROF_EV_VALUE;
	ev.pid = 1;
	ev.value = 0.1;
	ev.name = "q\"\\\n\x01\xff\xc3\xa9";
	check(PROF_TRACE_JSONL, &ev,
	      "{\"kind\":\"counter\",\"pid\":1,\"name\":\"q\\\"\\\\\\n\\u0001\xef\xbf\xbd\xc3\xa9\","
	      "\"value\":0.10000000000000001}\n",
	      "jsonl: escapes, bad UTF-8 replaced, good UTF-8 kept, 17 digits");
	ev.value = NAN;
	ev.name = "nan";
	check(PROF_TRACE_CSV, &ev, "counter,1,,,,nan,,,,,,,\n", "csv: a NaN value is left empty");
	check(PROF_TRACE_JSONL, &ev, "{\"kind\":\"counter\",\"pid\":1,\"name\":\"nan\"}\n",
	      "jsonl: a NaN value is left out");
	ev.value = -3e15;
	ev.name = NULL;
	check(PROF_TRACE_CSV, &ev, "counter,1,,,,,,,,,,-3000000000000000,\n",
	      "csv: a large integral value is written as an integer");

	memset(&ev, 0, sizeof(ev));
	ev.kind = PROF_KIND_CPU;
	ev.category = PROF_CAT_WAIT;
	check(PROF_TRACE_CSV, &ev, "cpu,,,,,,wait,,,,,,\n", "csv: category by name");
	ev.kind = PROF_KIND_GPU;
	ev.category = PROF_CAT_KERNEL;
	ev.has = PROF_EV_DEVICE | PROF_EV_STREAM | PROF_EV_CORRELATION;
	ev.device = 0;
	ev.stream = 7;
	ev.correlation = 99;
	check(PROF_TRACE_JSONL, &ev,
	      "{\"kind\":\"gpu\",\"category\":\"kernel\",\"device\":0,\"stream\":7,\"correlation\":99}\n",
	      "jsonl: gpu fields, a zero that is present is written");

	TEST_OK(prof_trace_format_parse("csv", &f) == 0 && f == PROF_TRACE_CSV, "format: csv");
	TEST_OK(prof_trace_format_parse("jsonl", &f) == 0 && f == PROF_TRACE_JSONL, "format: jsonl");
	TEST_OK(prof_trace_format_parse("json", &f) < 0, "format: json is not a trace format");
	return test_done();
}
