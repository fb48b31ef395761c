/*
 * CSV reading speed, one parser per run, on one file:
 *
 *	csv-read PARSER FILE      prints: rows,bytes,cpu_seconds
 *
 * PARSER is core (core_csv_read, the toolkit's reader), trace
 * (prof_trace_read: that reader plus turning rows into events), or, when
 * built with -DHAVE_LIBCSV, libcsv (csv_parse with callbacks that only
 * count: the least that any reader built on libcsv costs).  The time is
 * the CPU time of the process, the best of three passes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/csv.h"
#include "prof/trace_read.h"
#ifdef HAVE_LIBCSV
#include <csv.h>
#endif

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

#ifdef HAVE_LIBCSV
static long nrows;

static void on_field(void *s, size_t len, void *ctx)
{
	(void)s;
	(void)len;
	(void)ctx;
}

static void on_row(int c, void *ctx)
{
	(void)c;
	(void)ctx;
	nrows++;
}

static long read_libcsv(FILE *fp)
{
	static char buf[1 << 20];
	struct csv_parser p;
	size_t n;

	nrows = 0;
	if (csv_init(&p, CSV_STRICT | CSV_REPALL_NL) != 0)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		if (csv_parse(&p, buf, n, on_field, on_row, NULL) != n)
			return -1;
	csv_fini(&p, on_field, on_row, NULL);
	csv_free(&p);
	return nrows;
}
#endif

static long read_core(FILE *fp)
{
	struct core_error err = CORE_ERROR_INIT;
	struct core_csv_reader *r;
	struct core_csv_row row;
	long rows = 0;
	int ret;

	if (core_csv_reader_new(&r, fp, "bench", 0, &err) < 0)
		return -1;
	while ((ret = core_csv_read(r, &row, &err)) > 0)
		rows++;
	core_csv_reader_free(r);
	return ret < 0 ? -1 : rows;
}

static long read_trace(FILE *fp)
{
	struct core_error err = CORE_ERROR_INIT;
	struct prof_trace_reader *r;
	struct prof_ev ev;
	long rows = 0;
	int ret;

	if (prof_trace_reader_new(&r, fp, "bench", 0, &err) < 0)
		return -1;
	while ((ret = prof_trace_read(r, &ev, &err)) > 0)
		rows++;
	prof_trace_reader_free(r);
	return ret < 0 ? -1 : rows;
}

int main(int argc, char **argv)
{
	long (*fn)(FILE *) = NULL, rows = 0, bytes = 0;
	double best = 0;
	int pass;

	if (argc != 3) {
		fprintf(stderr, "usage: csv-read core|trace|libcsv FILE\n");
		return 2;
	}
	if (!strcmp(argv[1], "core"))
		fn = read_core;
	else if (!strcmp(argv[1], "trace"))
		fn = read_trace;
#ifdef HAVE_LIBCSV
	else if (!strcmp(argv[1], "libcsv"))
		fn = read_libcsv;
#endif
	if (!fn) {
		fprintf(stderr, "csv-read: unknown parser '%s'\n", argv[1]);
		return 2;
	}
	for (pass = 0; pass < 3; pass++) {
		FILE *fp = fopen(argv[2], "r");
		double t0;

		if (!fp) {
			perror(argv[2]);
			return 1;
		}
		t0 = cpu_now();
		rows = fn(fp);
		t0 = cpu_now() - t0;
		bytes = ftell(fp);
		fclose(fp);
		if (rows < 0) {
			fprintf(stderr, "csv-read: %s could not read '%s'\n", argv[1], argv[2]);
			return 1;
		}
		if (!pass || t0 < best)
			best = t0;
	}
	printf("%ld,%ld,%.3f\n", rows, bytes, best);
	return 0;
}
