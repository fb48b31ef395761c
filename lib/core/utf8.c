#include "core/utf8.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

long core_utf8_next(const char *str, size_t len, size_t *n)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t need, i;
	long cp;

	if (s[0] < 0x80) {
		*n = 1;
		return s[0];
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 1;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 2;
		cp = s[0] & 0x0f;
		if (s[0] == 0xe0)
			lo = 0xa0;	/* no overlong forms */
		else if (s[0] == 0xed)
			hi = 0x9f;	/* no surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 3;
		cp = s[0] & 0x07;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f;	/* nothing above U+10FFFF */
	} else {
		*n = 1;
		return -1;
	}
	/* The bounds apply to the second byte only; later ones are 80..BF. */
	for (i = 1; i <= need; i++) {
		if (i >= len || s[i] < lo || s[i] > hi) {
			*n = i;		/* the maximal subpart seen so far */
			return -1;
		}
		cp = cp << 6 | (s[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*n = need + 1;
	return cp;
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

static inline uint64_t load8(const char *s)
{
	uint64_t w;

	memcpy(&w, s, 8);
	return w;
}

int core_utf8_valid(const char *s, size_t len)
{
	size_t i = 0, n;

	while (i < len) {
		if (i + 8 <= len && !(load8(s + i) & HIGHS)) {
			i += 8;		/* ASCII */
			continue;
		}
		if (core_utf8_next(s + i, len - i, &n) < 0)
			return 0;
		i += n;
	}
	return 1;
}

char *core_utf8_repair(const char *s, size_t len, size_t *outlen)
{
	/* Each bad byte grows into at most 3 bytes. */
	char *out = malloc(3 * len + 1), *o = out;
	size_t i = 0, n;

	if (!out)
		return NULL;
	while (i < len) {
		if (core_utf8_next(s + i, len - i, &n) < 0) {
			memcpy(o, CORE_UTF8_REPLACEMENT, 3);
			o += 3;
		} else {
			memcpy(o, s + i, n);
			o += n;
		}
		i += n;
	}
	*o = '\0';
	if (outlen)
		*outlen = (size_t)(o - out);
	return out;
}

/* The length of what a JSON string holds as it is from s on: printable
 * ASCII but '"' and '\\', and unless ascii, valid UTF-8 sequences. */
static size_t json_plain(const char *s, size_t len, int ascii)
{
	size_t i = 0, n;

	while (i < len) {
		unsigned char c = (unsigned char)s[i];

		if (i + 8 <= len) {
			uint64_t w = load8(s + i), q = w ^ (ONES * '"'), b = w ^ (ONES * '\\');

			/* No byte below 0x20, '"', '\\' or from 0x80: all eight. */
			if (!((((w - ONES * 0x20) & ~w) | ((q - ONES) & ~q) | ((b - ONES) & ~b) | w) & HIGHS)) {
				i += 8;
				continue;
			}
		}
		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			i++;
			continue;
		}
		if (c < 0x80 || ascii || core_utf8_next(s + i, len - i, &n) < 0)
			break;
		i += n;
	}
	return i;
}

/* The escape of what starts at s, which json_plain stopped at: its text in
 * out, its length returned, and in *used how many bytes of s it stands for. */
static size_t json_escape(const char *s, size_t len, int ascii, char out[16], size_t *used)
{
	static const char short_esc[] = "btn\0fr";
	unsigned char c = (unsigned char)s[0];
	long cp;

	*used = 1;
	if (c == '"' || c == '\\' || (c >= '\b' && c <= '\r' && short_esc[c - '\b'])) {
		out[0] = '\\';
		out[1] = c == '"' || c == '\\' ? (char)c : short_esc[c - '\b'];
		return 2;
	}
	if (c < 0x20)
		return (size_t)snprintf(out, 16, ascii ? "\\u%04X" : "\\u%04x", c);
	cp = core_utf8_next(s, len, used);
	if (cp < 0 && !ascii) {
		memcpy(out, CORE_UTF8_REPLACEMENT, 3);
		return 3;
	}
	if (cp < 0)
		cp = 0xfffd;
	if (cp < 0x10000)
		return (size_t)snprintf(out, 16, "\\u%04lX", cp);
	cp -= 0x10000;	/* a UTF-16 surrogate pair */
	return (size_t)snprintf(out, 16, "\\u%04lX\\u%04lX", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
}

int core_utf8_write_json(FILE *fp, const char *s, size_t len)
{
	char esc[16];
	size_t i = 0, n, used;

	putc('"', fp);
	while (i < len) {
		n = json_plain(s + i, len - i, 0);
		fwrite(s + i, 1, n, fp);
		i += n;
		if (i < len) {
			n = json_escape(s + i, len - i, 0, esc, &used);
			fwrite(esc, 1, n, fp);
			i += used;
		}
	}
	putc('"', fp);
	return ferror(fp) ? -EIO : 0;
}

int core_utf8_append_json_ascii(struct core_buf *b, const char *s, size_t len)
{
	char esc[16];
	size_t i = 0, n, used;

	if (core_buf_reserve(b, len + 2) < 0 || core_buf_append(b, "\"", 1) < 0)
		return -ENOMEM;
	while (i < len) {
		n = json_plain(s + i, len - i, 1);
		if (core_buf_append(b, s + i, n) < 0)
			return -ENOMEM;
		i += n;
		if (i < len) {
			n = json_escape(s + i, len - i, 1, esc, &used);
			if (core_buf_append(b, esc, n) < 0)
				return -ENOMEM;
			i += used;
		}
	}
	return core_buf_append(b, "\"", 1);
}
