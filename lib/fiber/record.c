#include "fiber/record.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "core/utf8.h"

char *fiber_base64(const char *s, size_t len, size_t *outlen)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *u = (const unsigned char *)s;
	size_t n = (len + 2) / 3 * 4, i, o = 0;
	char *out = malloc(n + 1);

	if (!out)
		return NULL;
	for (i = 0; i + 2 < len; i += 3) {
		uint32_t v = (uint32_t)u[i] << 16 | (uint32_t)u[i + 1] << 8 | u[i + 2];

		out[o++] = tab[v >> 18];
		out[o++] = tab[(v >> 12) & 63];
		out[o++] = tab[(v >> 6) & 63];
		out[o++] = tab[v & 63];
	}
	if (i < len) {
		uint32_t v = (uint32_t)u[i] << 16 | (i + 1 < len ? (uint32_t)u[i + 1] << 8 : 0);

		out[o++] = tab[v >> 18];
		out[o++] = tab[(v >> 12) & 63];
		out[o++] = i + 1 < len ? tab[(v >> 6) & 63] : '=';
		out[o++] = '=';
	}
	out[o] = '\0';
	if (outlen)
		*outlen = o;
	return out;
}

/* A JSON string of bytes that may not be UTF-8 (messages): bad bytes become U+FFFD. */
static json_t *repaired_string(const char *s, size_t len)
{
	json_t *v = json_stringn(s, len);
	char *r;
	size_t n;

	if (v || !(r = core_utf8_repair(s, len, &n)))
		return v;
	v = json_stringn(r, n);
	free(r);
	return v;
}

/* How a record's JSON is written: compact ASCII, durations to 10 digits. */
#define RECORD_DUMP (JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(10))

static int append_dump(struct core_buf *b, const json_t *v)
{
	char *t = json_dumps(v, RECORD_DUMP | JSON_ENCODE_ANY);
	int ret = t ? core_buf_append(b, t, strlen(t)) : -ENOMEM;

	free(t);
	return ret;
}

/* The result as JSON text and the name of its encoding.  A text result is
 * escaped here, not by jansson, which goes a character at a time: results
 * can be megabytes (rlkit.pool's). */
static int append_result(struct core_buf *b, const struct fiber_record *r, const char **enc)
{
	json_t *v;
	char *t;
	size_t n;
	int ret;

	if (!r->text_only && (v = core_jsonl_decode(r->result, r->len, NULL))) {
		*enc = "json";
		ret = append_dump(b, v);
		json_decref(v);
		return ret;
	}
	if (core_utf8_valid(r->result, r->len)) {
		*enc = "text";
		return core_utf8_append_json_ascii(b, r->result, r->len);
	}
	*enc = "base64";
	if (!(t = fiber_base64(r->result, r->len, &n)))
		return -ENOMEM;
	ret = core_utf8_append_json_ascii(b, t, n);
	free(t);
	return ret;
}

char *fiber_record_make(const struct fiber_record *r)
{
	struct core_buf b = CORE_BUF_INIT;
	json_t *rest = json_object();
	const char *enc = NULL;
	char *text = NULL;
	int ret;

	/* id, status and result first, then the rest as jansson writes it. */
	ret = rest ? 0 : -ENOMEM;
	if (!ret)
		ret = core_buf_append(&b, "{\"id\":", 6);
	if (!ret)
		ret = append_dump(&b, r->id);
	if (!ret)
		ret = core_buf_append(&b, ",\"status\":", 10);
	if (!ret)
		ret = core_utf8_append_json_ascii(&b, r->status, strlen(r->status));
	if (!ret)
		ret = core_buf_append(&b, ",\"result\":", 10);
	if (!ret)
		ret = r->result ? append_result(&b, r, &enc) : core_buf_append(&b, "null", 4);
	if (!ret) {
		if (r->error)
			json_object_set_new(rest, "error", repaired_string(r->error, strlen(r->error)));
		if (r->line > 0)
			json_object_set_new(rest, "line", json_integer(r->line));
		json_object_set_new(rest, "worker", r->worker >= 0 ? json_integer(r->worker) : json_null());
		json_object_set_new(rest, "host", r->host && r->host[0] ?
				    repaired_string(r->host, strlen(r->host)) : json_null());
		json_object_set_new(rest, "attempts", json_integer(r->attempts));
		json_object_set_new(rest, "duration",
				    json_real((double)(long long)(r->duration * 1e6 + 0.5) / 1e6));
		json_object_set_new(rest, "encoding", enc ? json_string(enc) : json_null());
		text = json_dumps(rest, RECORD_DUMP);
		/* "{...}": its members follow ours. */
		ret = text ? core_buf_append(&b, ",", 1) : -ENOMEM;
		if (!ret)
			ret = core_buf_append(&b, text + 1, strlen(text + 1) + 1);
		free(text);
	}
	json_decref(rest);
	if (ret < 0) {
		core_buf_release(&b);
		return NULL;
	}
	return b.data;	/* nothing was consumed: the record starts at data */
}
