#include "fiber/record.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* The result as a JSON value and the name of its encoding. */
static json_t *result_value(const struct fiber_record *r, const char **enc)
{
	json_t *v = NULL;
	char *b;
	size_t n;

	if (!r->text_only && (v = core_jsonl_decode(r->result, r->len, NULL))) {
		*enc = "json";
		return v;
	}
	if (core_utf8_valid(r->result, r->len) && (v = json_stringn(r->result, r->len))) {
		*enc = "text";
		return v;
	}
	*enc = "base64";
	b = fiber_base64(r->result, r->len, &n);
	if (!b)
		return NULL;
	v = json_stringn(b, n);
	free(b);
	return v;
}

char *fiber_record_make(const struct fiber_record *r)
{
	json_t *rec = json_object(), *res = NULL;
	const char *enc = NULL;
	char *text;

	if (!rec)
		return NULL;
	if (r->result && !(res = result_value(r, &enc))) {
		json_decref(rec);
		return NULL;
	}
	json_object_set(rec, "id", (json_t *)r->id);
	json_object_set_new(rec, "status", json_string(r->status));
	json_object_set_new(rec, "result", res ? res : json_null());
	if (r->error)
		json_object_set_new(rec, "error", repaired_string(r->error, strlen(r->error)));
	if (r->line > 0)
		json_object_set_new(rec, "line", json_integer(r->line));
	json_object_set_new(rec, "worker", r->worker >= 0 ? json_integer(r->worker) : json_null());
	json_object_set_new(rec, "host", r->host && r->host[0] ?
			    repaired_string(r->host, strlen(r->host)) : json_null());
	json_object_set_new(rec, "attempts", json_integer(r->attempts));
	json_object_set_new(rec, "duration",
			    json_real((double)(long long)(r->duration * 1e6 + 0.5) / 1e6));
	json_object_set_new(rec, "encoding", enc ? json_string(enc) : json_null());
	text = json_dumps(rec, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(10));
	json_decref(rec);
	return text;
}
