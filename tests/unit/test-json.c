/* JSON documents and JSON Lines: parsing, errors with line numbers, writing. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "test.h"
#include "../feed.h"

static void test_document(void)
{
	struct core_error err = CORE_ERROR_INIT;
	json_t *v = core_json_load_string("{\"a\": [1, 2],\n \"b\": \"x\"}", "doc", &err);

	TEST_OK(v && json_integer_value(json_array_get(json_object_get(v, "a"), 1)) == 2,
		"a document parses");
	json_decref(v);

	v = core_json_load_string("{\n\"a\": 1,\n\"b\": }\n", "bad.json", &err);
	TEST_OK(v == NULL, "a malformed document fails");
	TEST_EQ_LONG(err.code, -EBADMSG, "malformed document code");
	TEST_EQ_LONG(err.line, 3, "malformed document line");
	TEST_OK(strncmp(err.msg, "line 3: invalid JSON in 'bad.json'", 34) == 0,
		"message: %s", err.msg);

	v = core_json_load_string("{\"a\": 1, \"a\": 2}", "dup.json", &err);
	TEST_OK(v == NULL, "duplicate keys are rejected");
}

static void test_file(void)
{
	struct core_error err = CORE_ERROR_INIT;
	char path[512];
	json_t *v = json_pack("{s:i, s:s}", "n", 42, "s", "q\"uote");
	json_t *back;

	snprintf(path, sizeof(path), "%s/out.json", test_tmpdir());
	TEST_EQ_LONG(core_json_save_file(path, v, 0, &err), 0, "save a document");
	TEST_EQ_LONG(core_json_save_file(path, v, 0, &err), -EEXIST,
		     "saving over an existing file needs FORCE");
	back = core_json_load_file(path, &err);
	TEST_OK(back && json_equal(v, back), "saved document loads back equal");
	json_decref(back);
	json_decref(v);
	back = core_json_load_file("/nonexistent/x.json", &err);
	TEST_OK(!back && err.code == -ENOENT && strstr(err.msg, "No such file"),
		"a missing file names the system error: %s", err.msg);
}

/*
 * Read all values of `text` (from a FILE when step is 0, else `step` bytes
 * per read); returns "line:value" per value, "line!" after a torn one, and
 * "E<line>" per error (reading goes on).  *ret: the last error, or 0.
 */
static char *read_step(const char *text, size_t step, size_t max, int *ret,
		       struct core_error *err)
{
	FILE *in = step ? NULL : fmemopen((void *)text, strlen(text), "r");
	struct feed f = { text, strlen(text), 0, step, 0 };
	struct core_jsonl_reader *r;
	char *out = NULL, *s;
	size_t outlen = 0;
	FILE *o = open_memstream(&out, &outlen);
	json_t *v;
	int last = 0;

	if (step)
		core_jsonl_reader_new_fn(&r, feed_read, &f, "t.jsonl", err);
	else
		core_jsonl_reader_new(&r, in, "t.jsonl", err);
	if (max)
		core_jsonl_set_max(r, max);
	while ((*ret = core_jsonl_read(r, &v, err)) != 0) {
		if (*ret == -EAGAIN)
			continue;
		if (*ret < 0) {
			fprintf(o, "E%ld\n", err->line);
			last = *ret;
			if (*ret != -EBADMSG && *ret != -EMSGSIZE)
				break;
			continue;
		}
		s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		fprintf(o, "%ld:%s%s\n", core_jsonl_line(r), s, core_jsonl_torn(r) ? "!" : "");
		free(s);
		json_decref(v);
	}
	*ret = last;
	core_jsonl_reader_free(r);
	fclose(o);
	if (in)
		fclose(in);
	return out;
}

static void check_lines(const char *text, size_t max, const char *want, const char *what)
{
	struct core_error err = CORE_ERROR_INIT;
	static const size_t steps[] = { 0, 1, 7 };
	size_t i;
	int ret;

	for (i = 0; i < 3; i++) {
		char *got = read_step(text, steps[i], max, &ret, &err);

		if (!TEST_OK(got && !strcmp(got, want), "%s (%zu bytes per read)", what, steps[i]))
			fprintf(stderr, "# got:\n%s# want:\n%s", got, want);
		free(got);
	}
}

static void test_lines(void)
{
	struct core_error err = CORE_ERROR_INIT;
	char *got, big[300];
	int ret;

	check_lines("{\"a\":1}\n\n  \n[2]\n\"s\"", 0,
		    "1:{\"a\":1}\n4:[2]\n5:\"s\"!\n",
		    "blank lines skipped and counted; the last line needs no LF");
	check_lines("{\"a\":1}\r\n \t\r\n3\r\n", 0, "1:{\"a\":1}\n3:3\n",
		    "CRLF lines; CR and tabs are blank");
	check_lines("{\"k\":1,\"k\":2}\n", 0, "1:{\"k\":2}\n", "a repeated key keeps its last value");
	check_lines("1\n{\"b\":\n3\n{\"c\"", 0, "1:1\nE2\n3:3\nE4\n",
		    "bad lines are errors with their numbers, and reading goes on");

	got = read_step("{\"a\":1}\n{\"b\":\n", 0, 0, &ret, &err);
	TEST_EQ_LONG(ret, -EBADMSG, "a broken line fails");
	TEST_EQ_LONG(err.line, 2, "broken line number");
	TEST_OK(strstr(err.msg, "'t.jsonl': line 2: invalid JSON") != NULL, "message: %s", err.msg);
	free(got);

	got = read_step("{\"a\":1}\n{\"b\":", 0, 0, &ret, &err);
	TEST_OK(ret == -EBADMSG && strstr(err.msg, "line 2: truncated JSON"),
		"a torn last line that does not parse is truncated: %s", err.msg);
	free(got);

	/* The size bound, below and above the read chunk. */
	memset(big, 'x', sizeof(big));
	memcpy(big, "[\"", 2);
	memcpy(big + 20, "\"]\n[1]\n", 8);
	check_lines(big, 10, "E1\n2:[1]\n", "a line over the bound is an error, then reading goes on");
	check_lines(big, 22, "1:[\"xxxxxxxxxxxxxxxxxx\"]\n2:[1]\n", "a line at the bound is read");
	{
		size_t n = 200000;
		char *huge = malloc(n + 8);

		memset(huge, ' ', n);
		memcpy(huge + n, "\n[7]\n", 6);
		check_lines(huge, 1000, "E1\n2:[7]\n", "a 200 kB line over a 1000-byte bound");
		got = read_step(huge, 0, 0, &ret, &err);
		TEST_EQ_STR(got, "2:[7]\n", "a 200 kB blank line within the default bound");
		free(got);
		free(huge);
	}
}

static void test_line_api(void)
{
	static const char text[] = "a\n\nbc\r\nd";
	struct core_error err = CORE_ERROR_INIT;
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	struct core_jsonl_reader *r;
	char *line;
	size_t len;
	long offs[4], nums[4];
	int n = 0, torn = 0, ret;

	core_jsonl_reader_new(&r, in, "t", &err);
	while (n < 4 && (ret = core_jsonl_read_line(r, &line, &len, &err)) > 0) {
		offs[n] = (long)core_jsonl_offset(r);
		nums[n++] = core_jsonl_line(r);
		torn = core_jsonl_torn(r);
		TEST_EQ_LONG(strlen(line), len, "lines are NUL-terminated");
	}
	TEST_EQ_LONG(n, 4, "read_line returns blank lines too");
	TEST_OK(offs[0] == 2 && offs[1] == 3 && offs[2] == 7 && offs[3] == 8,
		"offsets after each line: %ld %ld %ld %ld", offs[0], offs[1], offs[2], offs[3]);
	TEST_OK(nums[0] == 1 && nums[3] == 4 && torn, "numbers, and the last line is torn");
	core_jsonl_reader_free(r);
	fclose(in);
}

static void test_write(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&buf, &len);
	json_t *v = json_pack("{s:i, s:[i,i]}", "z", 1, "a", 2, 3);

	core_json_write(o, v, 0);
	core_json_write(o, v, 0);
	fclose(o);
	TEST_EQ_STR(buf, "{\"z\":1,\"a\":[2,3]}\n{\"z\":1,\"a\":[2,3]}\n",
		    "compact writing keeps key order, one value per line");
	free(buf);
	json_decref(v);
}

/* A long line is handed over, not copied; the lines around it are intact. */
static void test_take(void)
{
	struct core_error err = CORE_ERROR_INIT;
	size_t big = (size_t)3 << 20, n = big + 16, len, i;
	char *text = malloc(n), *line, *got;
	struct core_jsonl_reader *r;
	FILE *in;
	int ok = 1;

	memcpy(text, "short\n", 6);
	memset(text + 6, 'x', big);
	memcpy(text + 6 + big, "\nafter\nend", 10);
	in = fmemopen(text, 6 + big + 10, "r");
	core_jsonl_reader_new(&r, in, "t", &err);
	TEST_EQ_LONG(core_jsonl_read_line(r, &line, &len, &err), 1, "short line");
	got = core_jsonl_take_text(r, &len);
	TEST_OK(got && len == 5 && strcmp(got, "short") == 0, "a short line is copied");
	free(got);
	TEST_EQ_LONG(core_jsonl_read_line(r, &line, &len, &err), 1, "long line");
	got = core_jsonl_take_text(r, &len);
	TEST_EQ_LONG(len, big, "its length");
	for (i = 0; got && i < big; i++)
		ok &= got[i] == 'x';
	TEST_OK(got && ok && got[big] == '\0', "the long line, NUL-terminated");
	free(got);
	TEST_EQ_LONG(core_jsonl_read_line(r, &line, &len, &err), 1, "the line after it");
	TEST_EQ_STR(line, "after", "read from the reader's new buffer");
	TEST_EQ_LONG(core_jsonl_offset(r), 6 + big + 7, "offsets go on");
	TEST_EQ_LONG(core_jsonl_read_line(r, &line, &len, &err), 1, "last line");
	TEST_EQ_STR(line, "end", "torn last line");
	TEST_EQ_LONG(core_jsonl_read_line(r, &line, &len, &err), 0, "the end");
	core_jsonl_reader_free(r);
	fclose(in);
	free(text);
}

/* The id scan accepts what the decoder accepts, and finds the same member. */
static void test_scan(void)
{
	static const char *const lines[] = {
		"{\"id\": 7, \"x\": [1, 2.5e3, -0, true, false, null, {\"a\": \"\\u00e9\\ud83d\\ude00\"}]}",
		"{\"x\": 1, \"id\": \"a\", \"id\": \"b\"}", "{\"a\": {\"id\": 1}}", "[1, {\"id\": 2}]",
		"\"text\"", "12", " {} ", "{\"s\": \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"}",
		"{\"s\": \"\\u0000\"}", "{\"id\": 1,}", "{\"id\" 1}", "[1 2]", "01", "1.", "1e", "-",
		"tru", "nul", "{\"s\": \"\x01\"}", "{\"s\": \"\\x\"}", "{\"s\": \"\\ud800\"}",
		"{\"s\": \"\\udc00\"}", "{\"s\": \"\xc0\xaf\"}", "{\"s\": \"\xed\xa0\x80\"}",
		"{\"s\": \"\xf4\x90\x80\x80\"}", "{\"s\": \"\xe2\x82\"}", "{\"\\u0000\": 1}",
		"{\"id\": 1} x", "{\"a\": 1", "[", "1e999", "123456789012345678901234",
		"{\"\\u0069d\": 5}", "{\"id\": [1, 2]}",
	};
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		const char *m;
		size_t mlen;
		int got = core_jsonl_scan_member(lines[i], strlen(lines[i]), "id", &m, &mlen);
		json_t *v = core_jsonl_decode(lines[i], strlen(lines[i]), NULL);
		json_t *id = json_is_object(v) ? json_object_get(v, "id") : NULL;

		if (got < 0) {
			/* Refused: invalid, or a form the decoder must judge. */
			TEST_OK(!v || strstr(lines[i], "\\u0069") || strstr(lines[i], "5678901"),
				"the scan refuses only what it must: %s", lines[i]);
		} else {
			json_t *mv = m ? core_jsonl_decode(m, mlen, NULL) : NULL;

			TEST_OK(v && got == json_is_object(v), "the scan accepts a valid line: %s", lines[i]);
			TEST_OK((!mv && !id) || json_equal(mv, id), "the same id: %s", lines[i]);
			json_decref(mv);
		}
		json_decref(v);
	}
}

int main(void)
{
	test_document();
	test_take();
	test_file();
	test_lines();
	test_line_api();
	test_write();
	test_scan();
	return test_done();
}
