#include "core/utf8.h"

#include <errno.h>
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

int core_utf8_valid(const char *s, size_t len)
{
	size_t i = 0, n;

	while (i < len) {
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

int core_utf8_write_json(FILE *fp, const char *s, size_t len)
{
	size_t i = 0, n;

	putc('"', fp);
	while (i < len) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			putc('\\', fp);
			putc(c, fp);
			n = 1;
		} else if (c < 0x20) {
			static const char short_esc[] = "btn\0fr";

			if (c >= '\b' && c <= '\r' && short_esc[c - '\b'])
				fprintf(fp, "\\%c", short_esc[c - '\b']);
			else
				fprintf(fp, "\\u%04x", c);
			n = 1;
		} else if (core_utf8_next(s + i, len - i, &n) < 0) {
			fputs(CORE_UTF8_REPLACEMENT, fp);
		} else {
			fwrite(s + i, 1, n, fp);
		}
		i += n;
	}
	putc('"', fp);
	return ferror(fp) ? -EIO : 0;
}
