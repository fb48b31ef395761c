/* CSV reading and writing: round trips, RFC 4180 corner cases, errors. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "test.h"

/* Read all of `text`; returns rows as "a|b|c;line" joined by '\n'. */
static char *read_all(const char *text, size_t len, int flags, int *ret,
		      struct core_error *err)
{
	FILE *in = fmemopen((void *)text, len, "r");
	struct core_csv_reader *r;
	struct core_csv_row row;
	char *out = NULL;
	size_t outlen = 0;
	FILE *o = open_memstream(&out, &outlen);
	size_t i;

	core_csv_reader_new(&r, in, "t.csv", flags, err);
	while ((*ret = core_csv_read(r, &row, err)) > 0) {
		for (i = 0; i < row.n; i++)
			fprintf(o, "%s[%s]", i ? "|" : "", row.field[i]);
		fprintf(o, ";%ld\n", row.line);
	}
	core_csv_reader_free(r);
	fclose(o);
	fclose(in);
	return out;
}

static void check_read(const char *text, const char *want, const char *what)
{
	struct core_error err = CORE_ERROR_INIT;
	int ret;
	char *got = read_all(text, strlen(text), 0, &ret, &err);

	TEST_EQ_LONG(ret, 0, what);
	TEST_EQ_STR(got, want, what);
	free(got);
}

static void check_error(const char *text, long line, const char *what)
{
	struct core_error err = CORE_ERROR_INIT;
	int ret;
	char *got = read_all(text, strlen(text), CORE_CSV_SAME_WIDTH, &ret, &err);

	TEST_EQ_LONG(ret, -EBADMSG, what);
	TEST_EQ_LONG(err.line, line, what);
	TEST_OK(strstr(err.msg, "line ") && strstr(err.msg, "'t.csv'"),
		"%s: message names line and file: %s", what, err.msg);
	free(got);
}

static void test_reading(void)
{
	check_read("a,b,c\n1,2,3\n", "[a]|[b]|[c];1\n[1]|[2]|[3];2\n", "plain rows");
	check_read("a,b\r\n1,2\r\n", "[a]|[b];1\n[1]|[2];2\n", "CRLF line ends");
	check_read("a,b", "[a]|[b];1\n", "no final newline");
	check_read("\"x,y\",\"say \"\"hi\"\"\"\n", "[x,y]|[say \"hi\"];1\n",
		   "quoted comma and doubled quotes");
	check_read("\"two\nlines\",z\nnext,row\n",
		   "[two\nlines]|[z];1\n[next]|[row];3\n", "embedded newline counts lines");
	check_read("\"cr\r\nlf\",1\r\n2,3\r\n", "[cr\r\nlf]|[1];1\n[2]|[3];3\n",
		   "embedded CRLF");
	check_read("a\n\n\nb\n", "[a];1\n[b];4\n", "blank lines are skipped but counted");
	check_read(" a , b \n", "[ a ]|[ b ];1\n", "spaces are data");
	check_read(",,\n", "[]|[]|[];1\n", "empty fields");
	check_read("\"\"\n", "[];1\n", "one quoted empty field");
	check_read("", "", "empty input");
}

static void test_errors(void)
{
	check_error("a,b\n1,2\nx\"y,3\n", 3, "stray quote in an unquoted field");
	check_error("a,b\n\"open,2\n3,4\n", 2, "unterminated quote at end of input");
	check_error("a,b\n1,2\n\"q\"x,2\n", 3, "text after a closing quote");
	check_error("a,b\n1,2\n3\n", 3, "short record with SAME_WIDTH");
}

static void test_round_trip(void)
{
	static const char *nasty[] = {
		"plain", "", "comma,inside", "quote\"inside", "\"\"", "line\nbreak",
		"cr\rin", "crlf\r\nin", " lead", "trail ", "tab\tin", "ünïcödé", ",\",\n",
	};
	size_t n = sizeof(nasty) / sizeof(nasty[0]), i;
	struct core_error err = CORE_ERROR_INIT;
	struct core_csv_reader *r;
	struct core_csv_row row;
	char *buf = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&buf, &len);
	FILE *in;
	int rows = 0, ok = 1;

	/* Each nasty value alone on a row, and all of them on one row. */
	for (i = 0; i < n; i++)
		core_csv_write_row(o, &nasty[i], 1);
	core_csv_write_row(o, nasty, n);
	fclose(o);
	in = fmemopen(buf, len, "r");
	core_csv_reader_new(&r, in, "rt.csv", 0, &err);
	while (core_csv_read(r, &row, &err) > 0) {
		if (rows < (int)n) {
			/* An empty single field is written as an empty line. */
			if (!nasty[rows][0])
				rows++;
			if (row.n != 1 || strcmp(row.field[0], nasty[rows]))
				ok = 0;
		} else {
			if (row.n != n)
				ok = 0;
			for (i = 0; ok && i < n; i++)
				if (strcmp(row.field[i], nasty[i]))
					ok = 0;
		}
		rows++;
	}
	TEST_OK(ok, "nasty values survive a write/read round trip");
	TEST_EQ_LONG(rows, n + 1, "round trip row count");
	core_csv_reader_free(r);
	fclose(in);
	free(buf);
}

/* Records that straddle the 64 KiB read chunks, and many lines. */
static void test_large(void)
{
	struct core_error err = CORE_ERROR_INIT;
	struct core_csv_reader *r;
	struct core_csv_row row;
	char *buf = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&buf, &len);
	FILE *in;
	long i, rows = 0, lines_ok = 1, values_ok = 1;
	char big[70000];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (i = 0; i < 200000; i++) {
		fprintf(o, "%ld,\"multi\nline %ld\",end\n", i, i);
		if (i == 1000)
			fprintf(o, "big,%s,end\n", big);
	}
	fclose(o);
	in = fmemopen(buf, len, "r");
	core_csv_reader_new(&r, in, "big.csv", CORE_CSV_SAME_WIDTH, &err);
	while (core_csv_read(r, &row, &err) > 0) {
		long expect_line = rows <= 1001 ? 1 + 2 * rows : 2 * rows;

		if (row.line != expect_line)
			lines_ok = 0;
		if (rows == 1001) {
			if (row.len[1] != sizeof(big) - 1)
				values_ok = 0;
		} else {
			long v = rows > 1001 ? rows - 1 : rows;

			if (atol(row.field[0]) != v || strcmp(row.field[2], "end"))
				values_ok = 0;
		}
		rows++;
	}
	TEST_EQ_LONG(rows, 200001, "all records of a 10 MB stream are read");
	TEST_OK(lines_ok, "line numbers stay right across read chunks");
	TEST_OK(values_ok, "values stay right across read chunks");
	TEST_EQ_LONG(err.code, 0, "no error on a large stream");
	core_csv_reader_free(r);
	fclose(in);
	free(buf);
}

static void test_find(void)
{
	char *f[] = { "ts", "kind", "name" };
	size_t l[] = { 2, 4, 4 };
	struct core_csv_row row = { 3, f, l, 1 };

	TEST_EQ_LONG(core_csv_row_find(&row, "kind"), 1, "row_find finds a column");
	TEST_EQ_LONG(core_csv_row_find(&row, "nope"), -1, "row_find misses");
}

int main(void)
{
	test_reading();
	test_errors();
	test_round_trip();
	test_large();
	test_find();
	return test_done();
}
