/* JSON documents and JSON Lines: parsing, errors with line numbers, writing. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "test.h"

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

static int read_lines(const char *text, long *lines, int *nvals,
		      struct core_error *err)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	struct core_jsonl_reader *r;
	json_t *v;
	int ret;

	*nvals = 0;
	core_jsonl_reader_new(&r, in, "t.jsonl", err);
	while ((ret = core_jsonl_read(r, &v, err)) > 0) {
		lines[(*nvals)++] = core_jsonl_line(r);
		json_decref(v);
	}
	core_jsonl_reader_free(r);
	fclose(in);
	return ret;
}

static void test_lines(void)
{
	struct core_error err = CORE_ERROR_INIT;
	long lines[8];
	int n, ret;

	ret = read_lines("{\"a\":1}\n\n  \n[2]\n\"s\"", lines, &n, &err);
	TEST_EQ_LONG(ret, 0, "JSON Lines read to the end");
	TEST_EQ_LONG(n, 3, "blank lines skipped");
	TEST_OK(lines[0] == 1 && lines[1] == 4 && lines[2] == 5,
		"values report their line numbers");

	ret = read_lines("{\"a\":1}\n{\"b\":\n", lines, &n, &err);
	TEST_EQ_LONG(ret, -EBADMSG, "a broken line fails");
	TEST_EQ_LONG(err.line, 2, "broken line number");
	TEST_OK(strstr(err.msg, "invalid JSON") != NULL, "message: %s", err.msg);

	ret = read_lines("{\"a\":1}\n{\"b\":", lines, &n, &err);
	TEST_OK(ret == -EBADMSG && strstr(err.msg, "truncated"),
		"a torn last line is called truncated: %s", err.msg);
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

int main(void)
{
	test_document();
	test_file();
	test_lines();
	test_write();
	return test_done();
}
