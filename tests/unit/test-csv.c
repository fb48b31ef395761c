/* CSV reading and writing: round trips, RFC 4180 corner cases, errors. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "test.h"
#include "../feed.h"

/*
 * Read all of `text` (from a FILE when step is 0, else `step` bytes per
 * read, with EAGAINs); returns rows as "[a]|[b]|[c];line" joined by '\n',
 * "!" after the line for a torn record, and "E<line>" for each error
 * (reading goes on after it).  *ret: the last return code.
 */
static char *read_step(const char *text, size_t len, int flags, size_t step,
		       int *ret, struct core_error *err)
{
	FILE *in = step ? NULL : fmemopen((void *)text, len, "r");
	struct feed f = { text, len, 0, step, 0 };
	struct core_csv_reader *r;
	struct core_csv_row row;
	char *out = NULL;
	size_t outlen = 0;
	FILE *o = open_memstream(&out, &outlen);
	size_t i;
	int last = 0;

	if (step)
		core_csv_reader_new_fn(&r, feed_read, &f, "t.csv", flags, err);
	else
		core_csv_reader_new(&r, in, "t.csv", flags, err);
	while ((*ret = core_csv_read(r, &row, err)) != 0) {
		if (*ret == -EAGAIN)
			continue;
		if (*ret < 0) {
			fprintf(o, "E%ld\n", err->line);
			last = *ret;
			if (*ret != -EBADMSG)
				break;
			continue;
		}
		for (i = 0; i < row.n; i++) {
			fprintf(o, "%s[", i ? "|" : "");
			fwrite(row.field[i], 1, row.len[i], o);
			fputc(']', o);
			if (row.field[i][row.len[i]] != '\0')
				fputs("<no NUL>", o);
		}
		fprintf(o, ";%ld%s\n", row.line, row.torn ? "!" : "");
	}
	if (last)
		*ret = last;
	core_csv_reader_free(r);
	fclose(o);
	if (in)
		fclose(in);
	return out;
}

static char *read_all(const char *text, size_t len, int flags, int *ret,
		      struct core_error *err)
{
	return read_step(text, len, flags, 0, ret, err);
}

static void check_read(const char *text, const char *want, const char *what)
{
	struct core_error err = CORE_ERROR_INIT;
	int ret;
	char *got = read_all(text, strlen(text), 0, &ret, &err);

	TEST_EQ_LONG(ret, 0, what);
	TEST_EQ_STR(got, want, what);
	free(got);
	/* The same, a byte or three at a time, with EAGAINs between. */
	got = read_step(text, strlen(text), 0, 1, &ret, &err);
	TEST_EQ_STR(got, want, what);
	free(got);
	got = read_step(text, strlen(text), 0, 3, &ret, &err);
	TEST_EQ_STR(got, want, what);
	free(got);
}

/*
 * Records of many short fields: every byte of a 32-byte stretch may end a
 * field, and the field arrays grow while a stretch is split.
 */
static void check_dense(void)
{
	const char *tail = ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,";
	char text[1024], want[4096];
	size_t t = 0, w = 0, i;

	for (i = 0; i < 300; i++)
		t += (size_t)snprintf(text + t, sizeof(text) - t, "%s", i % 7 ? "," : ",x");
	t += (size_t)snprintf(text + t, sizeof(text) - t, ",\"q,\"%s\n", tail);
	for (i = 0; i <= 300; i++)
		w += (size_t)snprintf(want + w, sizeof(want) - w, "%s[%s]", i ? "|" : "",
				      i && i % 7 == 1 ? "x" : "");
	w += (size_t)snprintf(want + w, sizeof(want) - w, "|[q,]");
	for (i = 0; i < strlen(tail); i++)
		w += (size_t)snprintf(want + w, sizeof(want) - w, "|[]");
	snprintf(want + w, sizeof(want) - w, ";1\n");
	check_read(text, want, "hundreds of short fields, then a quoted one and more commas");
}

static void test_reading(void)
{
	check_read("a,b,c\n1,2,3\n", "[a]|[b]|[c];1\n[1]|[2]|[3];2\n", "plain rows");
	check_read("a,b\r\n1,2\r\n", "[a]|[b];1\n[1]|[2];2\n", "CRLF line ends");
	check_read("a,b", "[a]|[b];1!\n", "no final newline: the record is torn");
	check_read("a,\"b\"", "[a]|[b];1!\n", "no final newline after a quoted field");
	check_read("\"x,y\",\"say \"\"hi\"\"\"\n", "[x,y]|[say \"hi\"];1\n",
		   "quoted comma and doubled quotes");
	check_read("\"two\nlines\",z\nnext,row\n",
		   "[two\nlines]|[z];1\n[next]|[row];3\n", "embedded newline counts lines");
	check_read("\"a\n\nb\",\"c\nd\"\ne\n", "[a\n\nb]|[c\nd];1\n[e];5\n",
		   "newlines in two fields of one record");
	check_read("\"cr\r\nlf\",1\r\n2,3\r\n", "[cr\r\nlf]|[1];1\n[2]|[3];3\n",
		   "embedded CRLF");
	check_read("a\rb,c\r\n\"d\re\",f\rg\n", "[a\rb]|[c];1\n[d\re]|[f\rg];2\n",
		   "a bare CR is data, quoted or not, and ends no line");
	check_read("a\r\r\nb\n", "[a\r];1\n[b];2\n", "only the CR just before LF is a line end");
	check_read("\"q\"\r\nx\n", "[q];1\n[x];2\n", "CRLF after a closing quote");
	check_read("a\n\n\r\nb\n", "[a];1\n[b];4\n", "blank lines are skipped but counted");
	check_read("\"\"\n\n\"\",\n", "[];1\n[]|[];3\n", "a quoted empty field is no blank line");
	check_read(" a , b \n", "[ a ]|[ b ];1\n", "spaces are data");
	check_read(",,\n", "[]|[]|[];1\n", "empty fields");
	check_read("a,\n,b\n,\n", "[a]|[];1\n[]|[b];2\n[]|[];3\n", "empty first and last fields");
	check_read("\"\"\n", "[];1\n", "one quoted empty field");
	check_read("\"\"\"\"\n", "[\"];1\n", "a field that is one quote");
	check_read("\xef\xbb\xbf" "a,b\n", "[a]|[b];1\n", "a byte order mark is not data");
	check_read("a,\xef\xbb\xbf\n", "[a]|[\xef\xbb\xbf];1\n", "only at the very start");
	check_read("", "", "empty input");
	check_read("\n\n", "", "only blank lines");
	check_dense();
}

static void check_error(const char *text, long line, const char *what)
{
	struct core_error err = CORE_ERROR_INIT;
	int ret;
	char *got = read_all(text, strlen(text), CORE_CSV_SAME_WIDTH, &ret, &err);

	TEST_EQ_LONG(ret, -EBADMSG, what);
	TEST_EQ_LONG(err.line, line, what);
	TEST_OK(strstr(err.msg, "'t.csv': line ") != NULL,
		"%s: message names file and line: %s", what, err.msg);
	free(got);
}

static void test_errors(void)
{
	static const char bad[] = "a,b\nx\"y,1\nc,d\n\"q\"x\n\"e\nf\",g\n";
	struct core_error err = CORE_ERROR_INIT;
	char *got;
	int ret;

	check_error("a,b\n1,2\nx\"y,3\n", 3, "stray quote in an unquoted field");
	check_error("a,b\n\"open,2\n3,4\n", 2, "unterminated quote at end of input");
	check_error("a,b\n1,2\n\"q\"x,2\n", 3, "text after a closing quote");
	check_error("a,b\n1,2\n3\n", 3, "short record with SAME_WIDTH");
	check_error("a,b\n\"x\ny\nz\",q\"\n", 4, "the error's line counts the quoted newlines before it");
	check_error("a,b\n1,\"x\n\n\",\"y\nz", 4, "an unterminated quote names the line it opened on");

	/* After an error the reader goes on with the next line. */
	got = read_step(bad, strlen(bad), 0, 0, &ret, &err);
	TEST_EQ_STR(got, "[a]|[b];1\nE2\n[c]|[d];3\nE4\n[e\nf]|[g];5\n",
		    "reading goes on after a malformed line, line numbers right");
	free(got);
	got = read_step(bad, strlen(bad), 0, 1, &ret, &err);
	TEST_EQ_STR(got, "[a]|[b];1\nE2\n[c]|[d];3\nE4\n[e\nf]|[g];5\n",
		    "the same, a byte at a time");
	free(got);
	got = read_step("a\n\"b,c\nd\n", 9, 0, 2, &ret, &err);
	TEST_EQ_STR(got, "[a];1\nE2\n", "an unterminated quote swallows the rest");
	TEST_OK(strstr(err.msg, "the input ends inside a quoted field") != NULL, "%s", err.msg);
	free(got);
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

/* Records that straddle the read buffer, fields longer than it, many lines. */
static void test_large(void)
{
	struct core_error err = CORE_ERROR_INIT;
	struct core_csv_reader *r;
	struct core_csv_row row;
	char *buf = NULL;
	size_t len = 0, bigl = (3u << 20) + 7, i;
	FILE *o = open_memstream(&buf, &len);
	FILE *in;
	long k, rows = 0, lines_ok = 1, values_ok = 1;
	char *big = malloc(bigl + 1), *bigq = malloc(bigl + 1);

	for (i = 0; i < bigl; i++) {
		big[i] = (char)('a' + i % 26);
		bigq[i] = i % 1000 == 999 ? '\n' : i % 1000 == 500 ? '"' : (char)('a' + i % 26);
	}
	big[bigl] = bigq[bigl] = '\0';
	for (k = 0; k < 200000; k++) {
		fprintf(o, "%ld,\"multi\nline %ld\",end\n", k, k);
		if (k == 1000)
			fprintf(o, "big,%s,end\n", big);
		if (k == 150000) {
			fputs("bigq,", o);
			core_csv_write_field(o, bigq, bigl);
			fputs(",end\n", o);
		}
	}
	fclose(o);
	in = fmemopen(buf, len, "r");
	core_csv_reader_new(&r, in, "big.csv", CORE_CSV_SAME_WIDTH, &err);
	while (core_csv_read(r, &row, &err) > 0) {
		/* Rows before each big one, two lines each; bigq has 3145 newlines. */
		long expect_line = rows <= 1001 ? 1 + 2 * rows :
			rows <= 150002 ? 2 * rows : 2 * rows + (long)(bigl / 1000) - 1;

		if (row.line != expect_line && lines_ok) {
			lines_ok = 0;
			fprintf(stderr, "# row %ld: line %ld, expected %ld\n", rows, row.line, expect_line);
		}
		if (rows == 1001) {
			if (row.len[1] != bigl || memcmp(row.field[1], big, bigl))
				values_ok = 0;
		} else if (rows == 150002) {
			if (row.len[1] != bigl || memcmp(row.field[1], bigq, bigl) ||
			    strcmp(row.field[2], "end"))
				values_ok = 0;
		} else {
			long v = rows > 150002 ? rows - 2 : rows > 1001 ? rows - 1 : rows;

			if (atol(row.field[0]) != v || strcmp(row.field[2], "end"))
				values_ok = 0;
		}
		rows++;
	}
	TEST_EQ_LONG(rows, 200002, "all records of a 16 MB stream are read");
	TEST_OK(lines_ok, "line numbers stay right across read chunks");
	TEST_OK(values_ok, "3 MiB fields, plain and quoted, read whole across chunks");
	TEST_EQ_LONG(err.code, 0, "no error on a large stream");
	core_csv_reader_free(r);
	fclose(in);
	free(buf);
	free(big);
	free(bigq);
}

static void test_find(void)
{
	char *f[] = { "ts", "kind", "name" };
	size_t l[] = { 2, 4, 4 };
	struct core_csv_row row = { 3, f, l, 1, 0 };

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
