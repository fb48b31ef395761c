/* lib/fiber internals: result records and their encodings (json, text,
 * base64), base64 itself, the -k spill file, and RESULT frames with a kind. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/utf8.h"
#include "fiber/record.h"
#include "fiber/spill.h"
#include "fiber/wire.h"
#include "test.h"

static void test_base64(void)
{
	static const char *const want[] = { "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy" };
	size_t i, n;

	for (i = 0; i < 7; i++) {
		char *b = fiber_base64("foobar", i, &n);

		TEST_EQ_STR(b, want[i], "RFC 4648 vector");
		TEST_EQ_LONG(n, strlen(want[i]), "its length");
		free(b);
	}
	{
		char *b = fiber_base64("\xff\x00\xfe", 3, NULL);

		TEST_EQ_STR(b, "/wD+", "binary bytes, NUL included");
		free(b);
	}
}

static char *make(const char *res, size_t len, int text_only, const char *status)
{
	json_t *id = json_integer(7);
	struct fiber_record r = { 0 };
	char *s;

	r.id = id;
	r.status = status;
	r.result = res;
	r.len = len;
	r.text_only = text_only;
	r.worker = 1;
	r.host = "h";
	r.attempts = 1;
	s = fiber_record_make(&r);
	json_decref(id);
	return s;
}

static void test_records(void)
{
	char *s;

	s = make("{\"a\":1}", 7, 0, "ok");
	TEST_EQ_STR(s, "{\"id\":7,\"status\":\"ok\",\"result\":{\"a\":1},\"worker\":1,\"host\":\"h\","
		    "\"attempts\":1,\"duration\":0.0,\"encoding\":\"json\"}", "a JSON result stays JSON");
	free(s);
	s = make("{\"a\":1}", 7, 1, "ok");
	TEST_OK(strstr(s, "\"result\":\"{\\\"a\\\":1}\"") && strstr(s, "\"encoding\":\"text\""),
		"--lines: text, never decoded: %s", s);
	free(s);
	s = make("a\xff" "b", 3, 0, "ok");
	TEST_OK(strstr(s, "\"result\":\"Yf9i\"") && strstr(s, "\"encoding\":\"base64\""),
		"not UTF-8: base64, no byte altered: %s", s);
	free(s);
	s = make("a\0b", 3, 1, "ok");
	TEST_OK(strstr(s, "\"result\":\"a\\u0000b\"") && strstr(s, "\"encoding\":\"text\""),
		"NUL is UTF-8: text: %s", s);
	free(s);
	s = make(NULL, 0, 0, "failed");
	TEST_OK(strstr(s, "\"result\":null") && strstr(s, "\"encoding\":null"), "no result: null: %s", s);
	free(s);
}

/* The escaper of text results against jansson's, whose records they
 * were: random valid and invalid UTF-8 (invalid: as repaired). */
static void test_text_like_jansson(void)
{
	static const char *const pieces[] = { "a", "Zz", "0123456", " ", "\"", "\\", "/", "\n",
		"\x01", "\x1f", "\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xef\xbf\xbf",
		"\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf", "\xff", "\xe2\x82", "\xed\xa0\x80",
		"\x80", "" };
	uint64_t seed = 2463534242ULL;
	int wrong = 0, i;

	for (i = 0; i < 20000; i++) {
		struct core_buf b = CORE_BUF_INIT;
		char text[128], *fixed, *want;
		size_t n = 0, k, fn;
		json_t *v;

		while (n < 100) {
			const char *p;

			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			p = pieces[seed % 3 ? seed % 3 : (seed >> 8) % (sizeof(pieces) / sizeof(pieces[0]))];
			if (!*p)
				break;
			k = strlen(p);
			memcpy(text + n, p, k);
			n += k;
		}
		fixed = core_utf8_repair(text, n, &fn);
		v = json_stringn(fixed, fn);
		want = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_ENSURE_ASCII);
		if (core_utf8_append_json_ascii(&b, text, n) < 0 || core_buf_append(&b, "", 1) < 0 ||
		    strcmp(b.data, want) != 0) {
			if (!wrong++)
				fprintf(stderr, "# got  %s\n# want %s\n", b.data, want);
		}
		free(want);
		json_decref(v);
		free(fixed);
		core_buf_release(&b);
	}
	TEST_EQ_LONG(wrong, 0, "text results escaped as jansson escapes them, 20,000 random strings");
}

static void test_big_text_record(void)
{
	size_t len = 3 << 20, i;
	char *res = malloc(len), *s, *want;
	json_t *v, *got;

	for (i = 0; i < len; i++)
		res[i] = "ABCxyz+/=09\"\\\n"[i % 14];
	s = make(res, len, 1, "ok");
	got = json_loads(s, 0, NULL);
	v = json_object_get(got, "result");
	TEST_OK(v && json_string_length(v) == len && memcmp(json_string_value(v), res, len) == 0,
		"a 3 MiB text result comes back byte for byte");
	want = json_dumps(got, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(10));
	TEST_OK(want && strcmp(s, want) == 0, "the record is what jansson would write");
	free(want);
	json_decref(got);
	free(s);
	free(res);
}

static void test_spill(void)
{
	struct fiber_spill sp = FIBER_SPILL_INIT;
	struct core_error err = CORE_ERROR_INIT;
	uint64_t a, b;
	char *r = NULL;

	TEST_EQ_LONG(fiber_spill_put(&sp, "first", 5, &a, &err), 0, "put");
	TEST_EQ_LONG(fiber_spill_put(&sp, "second", 6, &b, &err), 0, "put");
	TEST_EQ_LONG(sp.waiting, 2, "two waiting");
	TEST_EQ_LONG(fiber_spill_get(&sp, b, 6, &r, &err), 0, "get, out of order");
	TEST_EQ_STR(r, "second", "what was put");
	free(r);
	TEST_EQ_LONG(fiber_spill_get(&sp, a, 5, &r, &err), 0, "get");
	TEST_EQ_STR(r, "first", "what was put");
	free(r);
	TEST_EQ_LONG(fiber_spill_put(&sp, "third", 5, &a, &err), 0, "put after all were read");
	TEST_EQ_LONG(a, 0, "the file starts over");
	fiber_spill_release(&sp);
}

static void test_result_frames(void)
{
	struct core_buf b = CORE_BUF_INIT;
	struct fiber_frame f;

	TEST_EQ_LONG(fiber_frame_put2(&b, FIBER_RESULT, 42, "o", 1, "x\0y", 3), 0, "put2");
	TEST_EQ_LONG(fiber_frame_put(&b, FIBER_READY, 0, NULL, 0), 0, "READY");
	TEST_EQ_LONG(fiber_frame_next(&b, 100, &f), 1, "a whole frame");
	TEST_OK(f.type == FIBER_RESULT && f.seq == 42 && f.len == 4 && memcmp(f.body, "ox\0y", 4) == 0,
		"kind then the bytes, NUL kept");
	TEST_EQ_LONG(fiber_frame_next(&b, 100, &f), 1, "READY is a known type");
	TEST_EQ_LONG(f.type, FIBER_READY, "READY");
	core_buf_release(&b);
}

int main(void)
{
	test_base64();
	test_records();
	test_text_like_jansson();
	test_big_text_record();
	test_spill();
	test_result_frames();
	return test_done();
}
