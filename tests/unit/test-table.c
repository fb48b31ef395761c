/*
 * The output layer: UTF-8 repair and the JSON escaper (lib/core/utf8.h),
 * and the table writer (lib/core/table.h) in every format, with every
 * column type, quoting, and empty tables.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/table.h"
#include "core/utf8.h"
#include "test.h"

static char *render(const struct core_table *t, enum core_format f, int *ret)
{
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);

	*ret = core_table_write(fp, t, f);
	fclose(fp);
	return out;
}

static void check(const struct core_table *t, enum core_format f, const char *want,
		  const char *what)
{
	int ret;
	char *got = render(t, f, &ret);

	TEST_EQ_LONG(ret, 0, what);
	TEST_EQ_STR(got, want, what);
	free(got);
}

static char *json_of(const char *s, size_t len)
{
	char *out = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&out, &n);

	core_utf8_write_json(fp, s, len);
	fclose(fp);
	return out;
}

static void test_utf8(void)
{
	/* What Python's bytes.decode('utf-8', 'replace') gives. */
	static const struct { const char *in; size_t len; const char *want; } cases[] = {
		{ "plain", 5, "\"plain\"" },
		{ "caf\xc3\xa9", 5, "\"caf\xc3\xa9\"" },
		{ "\xf0\x9f\x98\x80", 4, "\"\xf0\x9f\x98\x80\"" },
		{ "a\xff" "b", 3, "\"a\xef\xbf\xbd" "b\"" },
		{ "\xe2\x82", 2, "\"\xef\xbf\xbd\"" },			/* truncated: one */
		{ "\xe2\x82x", 3, "\"\xef\xbf\xbdx\"" },
		{ "\xc0\xaf", 2, "\"\xef\xbf\xbd\xef\xbf\xbd\"" },	/* overlong: two */
		{ "\xed\xa0\x80", 3, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" }, /* surrogate */
		{ "\xf4\x90\x80\x80", 4, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "\x80\x80", 2, "\"\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "q\"b\\", 4, "\"q\\\"b\\\\\"" },
		{ "\n\t\r\b\f\x01\x1f\x7f", 8, "\"\\n\\t\\r\\b\\f\\u0001\\u001f\x7f\"" },
		{ "nul\0in", 6, "\"nul\\u0000in\"" },
	};
	size_t i, n;
	char *s;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s = json_of(cases[i].in, cases[i].len);
		TEST_EQ_STR(s, cases[i].want, "core_utf8_write_json: escapes and repairs");
		free(s);
	}
	TEST_OK(core_utf8_valid("caf\xc3\xa9", 5), "core_utf8_valid: valid");
	TEST_OK(!core_utf8_valid("caf\xc3", 4), "core_utf8_valid: truncated");
	TEST_EQ_LONG(core_utf8_next("\xe2\x82\xac", 3, &n), 0x20ac, "core_utf8_next: euro sign");
	TEST_EQ_LONG(n, 3, "core_utf8_next: its length");
	s = core_utf8_repair("a\xffz", 3, &n);
	TEST_EQ_STR(s, "a\xef\xbf\xbdz", "core_utf8_repair");
	TEST_EQ_LONG(n, 5, "core_utf8_repair: length");
	free(s);
}

/* Random strings of ASCII, controls, quotes, valid sequences of every
 * length and invalid bytes, so that the 8-byte fast paths meet every kind
 * of byte at every offset. */
static size_t random_text(char *out, size_t max, uint64_t *seed)
{
	static const char *const pieces[] = { "a", "Z", "0", " ", "\"", "\\", "\n", "\x01",
		"\x1f", "\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xff",
		"\xe2\x82", "\xc0\xaf", "\xed\xa0\x80", "\x80" };
	size_t n = 0, len = (size_t)(*seed % 48), k;

	while (n < len) {
		const char *p;

		*seed ^= *seed << 13;
		*seed ^= *seed >> 7;
		*seed ^= *seed << 17;
		/* Mostly plain ASCII, as real text is. */
		p = pieces[*seed % 4 ? *seed % 4 : (*seed >> 8) % (sizeof(pieces) / sizeof(pieces[0]))];
		k = strlen(p);
		if (n + k > max)
			break;
		memcpy(out + n, p, k);
		n += k;
	}
	return n;
}

/* The escaper as it was, a character at a time: the oracle. */
static char *json_of_slow(const char *s, size_t len)
{
	char *out = NULL;
	size_t n = 0, i = 0, k;
	FILE *fp = open_memstream(&out, &n);

	putc('"', fp);
	while (i < len) {
		unsigned char c = (unsigned char)s[i];

		k = 1;
		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n' || c == '\t' || c == '\r' || c == '\b' || c == '\f')
			fprintf(fp, "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' :
				c == '\b' ? 'b' : 'f');
		else if (c < 0x20)
			fprintf(fp, "\\u%04x", c);
		else if (core_utf8_next(s + i, len - i, &k) < 0)
			fputs(CORE_UTF8_REPLACEMENT, fp);
		else
			fwrite(s + i, 1, k, fp);
		i += k;
	}
	putc('"', fp);
	fclose(fp);
	return out;
}

static void test_utf8_random(void)
{
	uint64_t seed = 88172645463325252ULL;
	char text[64];
	size_t i, j, n, len;
	int bad = 0, wrong = 0;

	for (i = 0; i < 20000; i++) {
		int valid = 1;
		char *a, *b;

		len = random_text(text, sizeof(text), &seed);
		for (j = 0; j < len; j += n)
			if (core_utf8_next(text + j, len - j, &n) < 0) {
				valid = 0;
				break;
			}
		bad += core_utf8_valid(text, len) != valid;
		a = json_of(text, len);
		b = json_of_slow(text, len);
		wrong += strcmp(a, b) != 0;
		free(a);
		free(b);
	}
	TEST_EQ_LONG(bad, 0, "core_utf8_valid: as core_utf8_next says, 20,000 random strings");
	TEST_EQ_LONG(wrong, 0, "core_utf8_write_json: as a character at a time, 20,000 random strings");
}

static void test_fmt(void)
{
	char b[64];

	core_fmt_duration(b, sizeof(b), 1234567, "us", 3);
	TEST_EQ_STR(b, "1234.567", "core_fmt_duration: us exact");
	core_fmt_duration(b, sizeof(b), -1500, "us", 3);
	TEST_EQ_STR(b, "-1.500", "core_fmt_duration: negative");
	core_fmt_duration(b, sizeof(b), 19987654321LL, "s", 3);
	TEST_EQ_STR(b, "19.988", "core_fmt_duration: s rounded");
	core_fmt_duration(b, sizeof(b), 1500000000, "s", 0);
	TEST_EQ_STR(b, "2", "core_fmt_duration: rounds half away from zero");
	core_fmt_duration(b, sizeof(b), 42, "ns", 2);
	TEST_EQ_STR(b, "42.00", "core_fmt_duration: ns with decimals");
	core_fmt_duration(b, sizeof(b), 42, "ns", 0);
	TEST_EQ_STR(b, "42", "core_fmt_duration: ns");
	core_fmt_duration(b, sizeof(b), 5, "ms", 9);
	TEST_EQ_STR(b, "0.000005000", "core_fmt_duration: padded");
	core_fmt_human_ns(b, sizeof(b), 999);
	TEST_EQ_STR(b, "999 ns", "core_fmt_human_ns: ns");
	core_fmt_human_ns(b, sizeof(b), 1234567);
	TEST_EQ_STR(b, "1.23 ms", "core_fmt_human_ns: ms");
	core_fmt_human_ns(b, sizeof(b), 98765432100LL);
	TEST_EQ_STR(b, "98.8 s", "core_fmt_human_ns: s");
	core_fmt_human_bytes(b, sizeof(b), 392);
	TEST_EQ_STR(b, "392 B", "core_fmt_human_bytes: B");
	core_fmt_human_bytes(b, sizeof(b), 2048);
	TEST_EQ_STR(b, "2.00 KiB", "core_fmt_human_bytes: KiB");
	core_fmt_human_bytes(b, sizeof(b), 3u << 20);
	TEST_EQ_STR(b, "3.00 MiB", "core_fmt_human_bytes: MiB");
}

static void test_formats(void)
{
	static const struct core_col cols[] = {
		{ .name = "name", .type = CORE_COL_STRING },
		{ .name = "n", .type = CORE_COL_INT },
		{ .name = "pct", .type = CORE_COL_FLOAT, .decimals = 2, .unit = "%" },
		{ .name = "time_us", .type = CORE_COL_DURATION, .unit = "us", .decimals = 3, .title = "time" },
		{ .name = "size", .type = CORE_COL_BYTES },
	};
	struct core_table t;

	core_table_init(&t, cols, 5, 0);
	check(&t, CORE_FORMAT_CSV, "name,n,pct,time_us,size\n", "empty: csv is the header");
	check(&t, CORE_FORMAT_JSON, "[]\n", "empty: json is []");
	check(&t, CORE_FORMAT_JSONL, "", "empty: jsonl is nothing");
	check(&t, CORE_FORMAT_TABLE, "name  n  pct  time  size\n", "empty: table is the titles");

	core_table_add_row(&t, 0);
	core_table_set_str(&t, 0, "a,b \"c\"\nd");
	core_table_set_int(&t, 1, -12);
	core_table_set_float(&t, 2, 12.345);
	core_table_set_ns(&t, 3, 1234567);
	core_table_set_bytes(&t, 4, 2048);
	core_table_add_row(&t, 0);
	core_table_set_strn(&t, 0, "x\xffy", 3);
	core_table_set_float(&t, 2, NAN);
	core_table_add_row(&t, CORE_ROW_TABLE_ONLY);
	core_table_set_str(&t, 0, "total");
	core_table_set_ns(&t, 3, 2000);

	check(&t, CORE_FORMAT_CSV,
	      "name,n,pct,time_us,size\n"
	      "\"a,b \"\"c\"\"\nd\",-12,12.35,1234.567,2048\n"
	      "x\xffy,,,,\n", "csv: quoting, bytes kept, unset cells empty");
	check(&t, CORE_FORMAT_JSON,
	      "[{\"name\":\"a,b \\\"c\\\"\\nd\",\"n\":-12,\"pct\":12.35,\"time_us\":1234.567,\"size\":2048},"
	      "{\"name\":\"x\xef\xbf\xbdy\",\"n\":null,\"pct\":null,\"time_us\":null,\"size\":null}]\n",
	      "json: escaped, repaired, NaN is null, total left out");
	check(&t, CORE_FORMAT_JSONL,
	      "{\"name\":\"a,b \\\"c\\\"\\nd\",\"n\":-12,\"pct\":12.35,\"time_us\":1234.567,\"size\":2048}\n"
	      "{\"name\":\"x\xef\xbf\xbdy\",\"n\":null,\"pct\":null,\"time_us\":null,\"size\":null}\n",
	      "jsonl: one object per line");
	check(&t, CORE_FORMAT_TABLE,
	      "name         n      pct     time      size\n"
	      "a,b \"c\"\xef\xbf\xbd" "d  -12  12.35 %  1.23 ms  2.00 KiB\n"
	      "x\xef\xbf\xbdy\n"
	      "total                    2.00 us\n",
	      "table: aligned, units, no control characters, no trailing spaces");
	TEST_EQ_LONG(core_table_set_int(&t, 0, 1), -EINVAL, "set_int on a string column");
	TEST_EQ_LONG(core_table_set_str(&t, 1, "x"), -EINVAL, "set_str on a number column");
	TEST_EQ_LONG(core_table_set_str(&t, 9, "x"), -EINVAL, "set_str past the last column");
	core_table_release(&t);
	TEST_EQ_LONG(core_table_set_str(&t, 0, "x"), -EINVAL, "set_str with no row");
}

static void test_record_and_sections(void)
{
	static const struct core_col cols[] = {
		{ .name = "process", .type = CORE_COL_STRING, .flags = CORE_COL_NO_TABLE },
		{ .name = "operation", .type = CORE_COL_STRING, .max_width = 4 },
		{ .name = "fps", .type = CORE_COL_FLOAT, .decimals = 0 },
	};
	struct core_table t;

	core_table_init(&t, cols, 3, CORE_TABLE_RECORD);
	check(&t, CORE_FORMAT_JSON, "null\n", "record: none gives null");
	core_table_add_row(&t, 0);
	core_table_set_str(&t, 0, "1");
	core_table_set_str(&t, 1, "step");
	core_table_set_float(&t, 2, 3839.4);
	check(&t, CORE_FORMAT_JSON, "{\"process\":\"1\",\"operation\":\"step\",\"fps\":3839}\n",
	      "record: json is one object");
	core_table_release(&t);

	core_table_init(&t, cols, 3, 0);
	core_table_section(&t, "process 1 (a\nb)");
	core_table_add_row(&t, 0);
	core_table_set_str(&t, 1, "stepping");
	core_table_set_int(&t, 2, 5);
	core_table_section(&t, "process 2");
	core_table_add_row(&t, 0);
	core_table_set_str(&t, 1, "\xe2\x82\xac\xe2\x82\xac");
	core_table_set_int(&t, 2, 50);
	check(&t, CORE_FORMAT_TABLE,
	      "process 1 (a\xef\xbf\xbd" "b)\n"
	      "  operation  fps\n"
	      "  step         5\n"
	      "\n"
	      "process 2\n"
	      "  operation  fps\n"
	      "  \xe2\x82\xac\xe2\x82\xac          50\n",
	      "table: sections, hidden columns, cut strings, UTF-8 widths");
	check(&t, CORE_FORMAT_CSV, "process,operation,fps\n,stepping,5\n,\xe2\x82\xac\xe2\x82\xac,50\n",
	      "csv: sections ignored, strings not cut");
	core_table_release(&t);
}

static void test_group(void)
{
	static const struct core_col cols[] = {
		{ .name = "op", .type = CORE_COL_STRING, .flags = CORE_COL_GROUP },
		{ .name = "n", .type = CORE_COL_INT },
	};
	static const char *const ops[] = { "a", "a", "b", "a" };
	struct core_table t;
	size_t i;

	core_table_init(&t, cols, 2, 0);
	for (i = 0; i < 4; i++) {
		if (i == 3)
			core_table_section(&t, "next");
		core_table_add_row(&t, 0);
		core_table_set_str(&t, 0, ops[i]);
		core_table_set_int(&t, 1, (int64_t)i);
	}
	check(&t, CORE_FORMAT_TABLE,
	      "  op  n\n  a   0\n      1\n  b   2\n\nnext\n  op  n\n  a   3\n",
	      "CORE_COL_GROUP: blank under the same value, shown again in a new section");
	check(&t, CORE_FORMAT_CSV, "op,n\na,0\na,1\nb,2\na,3\n", "CORE_COL_GROUP: every value in CSV");
	core_table_release(&t);
}

static void test_format_names(void)
{
	TEST_EQ_LONG(core_format_parse("jsonl", CORE_FORMATS_ALL), CORE_FORMAT_JSONL, "parse jsonl");
	TEST_EQ_LONG(core_format_parse("jsonl", CORE_FORMATS_ALL & ~CORE_FORMAT_BIT(CORE_FORMAT_JSONL)),
		     -EINVAL, "parse: a format left out of the set");
	TEST_EQ_LONG(core_format_parse("pdf", CORE_FORMATS_ALL), -EINVAL, "parse: unknown");
	TEST_EQ_STR(core_format_name(CORE_FORMAT_CSV), "csv", "name");
	TEST_EQ_LONG(core_format_default("out.csv"), CORE_FORMAT_CSV, "default: a file gets csv");
}

int main(void)
{
	test_utf8();
	test_utf8_random();
	test_fmt();
	test_formats();
	test_record_and_sections();
	test_group();
	test_format_names();
	return test_done();
}
