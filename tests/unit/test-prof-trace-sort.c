/*
 * Trace sorter: rows come out in the report's order (prof_ev_cmp), with
 * ties in the order they were added, whether they fit in memory or were
 * spilled as sorted runs; strings survive the round trip; meta, process
 * and thread rows bypass it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/splitmix.h"
#include "prof/breakdown.h"
#include "prof/trace_read.h"
#include "prof/trace_sort.h"
#include "test.h"

#define N 5000

/* Sort N random rows with chunks of `chunk` bytes; check what comes out. */
static void round_trip(size_t chunk, int want_runs, const char *what)
{
	struct prof_trace_sort *s;
	struct prof_trace_writer w;
	struct prof_trace_reader *r = NULL;
	struct core_error err = CORE_ERROR_INIT;
	struct prof_ev ev, prev;
	uint64_t seed = 42;
	char *out = NULL, name[64];
	size_t len = 0, n = 0, bad_order = 0, bad_name = 0, bad_add = 0, i;
	FILE *fp = open_memstream(&out, &len);
	long prev_seq = -1;
	int ret;

	TEST_OK(prof_trace_sort_new(&s, chunk) == 0, "%s: new", what);
	prof_trace_writer_init(&w, fp, PROF_TRACE_CSV);
	w.sort = s;
	for (i = 0; i < N; i++) {
		struct prof_event e = PROF_EVENT_INIT;
		uint64_t x = core_splitmix64(&seed);

		e.kind = i % 3 ? PROF_KIND_OP : PROF_KIND_MARK;
		e.has = PROF_EV_PID | PROF_EV_TID | PROF_EV_START | PROF_EV_VALUE;
		e.pid = 7;
		e.tid = 7;
		/* Few distinct starts, ends and depths: many ties. */
		e.start_ns = 1000 + (int64_t)(x % 50);
		if (e.kind == PROF_KIND_OP) {
			e.has |= PROF_EV_END;
			e.end_ns = e.start_ns + (int64_t)((x >> 8) % 4);
		}
		e.value = (double)((x >> 16) % 3);
		snprintf(name, sizeof(name), "row, \"%zu\"\n", i);
		e.name = name;
		e.detail = i % 2 ? "d" : NULL;
		if (prof_trace_write(&w, &e) != 0)
			bad_add++;
		if (i == N / 2) {
			struct prof_event m = PROF_EVENT_INIT;

			m.kind = PROF_KIND_META;
			m.name = "k";
			m.detail = "v";
			prof_trace_write(&w, &m);
		}
	}
	w.sort = NULL;
	TEST_EQ_LONG(bad_add, 0, "rows that could not be added");
	TEST_EQ_LONG(prof_trace_sort_rows(s), N, "rows added");
	TEST_OK(want_runs ? prof_trace_sort_runs(s) > 1 : prof_trace_sort_runs(s) == 0,
		"%s: %zu runs", what, prof_trace_sort_runs(s));
	ret = prof_trace_sort_finish(s, &w, &err);
	TEST_EQ_LONG(ret, 0, "finish");
	prof_trace_sort_free(s);
	fclose(fp);
	/* The meta row went straight to the output, before the events. */
	TEST_OK(strstr(out, "meta,,,,,k,") && strstr(out, "meta,,,,,k,") < strstr(out, "op,"),
		"%s: meta row first", what);
	fp = fmemopen(out, len, "r");
	TEST_OK(prof_trace_reader_new(&r, fp, "t", PROF_READ_STRICT | PROF_READ_ALL_NAMES, &err) == 0,
		"%s: reader", what);
	while ((ret = prof_trace_read(r, &ev, &err)) > 0) {
		const char *nm = prof_trace_str(r, ev.name);
		long seq = strtol(nm + 6, NULL, 10);

		if (n && prof_ev_cmp(&prev, &ev) > 0)
			bad_order++;
		/* Rows with equal keys keep the order they were added in. */
		if (n && prev.start == ev.start && prev.end == ev.end && prev.value == ev.value &&
		    seq < prev_seq)
			bad_order++;
		if (strncmp(nm, "row, \"", 6) || nm[strlen(nm) - 1] != '\n')
			bad_name++;
		prev = ev;
		prev_seq = seq;
		n++;
	}
	TEST_EQ_LONG(ret, 0, "read to the end");
	TEST_EQ_LONG(n, N, "every row came out");
	TEST_EQ_LONG(bad_order, 0, "rows out of order");
	TEST_EQ_LONG(bad_name, 0, "names changed");
	prof_trace_reader_free(r);
	fclose(fp);
	free(out);
}

int main(void)
{
	round_trip(0, 0, "in memory");
	round_trip(4096, 1, "spilled runs");
	return test_done();
}
