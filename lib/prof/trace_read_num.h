/*
 * Decimal integers of trace fields, for the trace reader (trace_read.c):
 * read a word at a time, and values that repeat the last row's taken from
 * what was kept of it.  Internal: static inline, so that the reader's hot
 * path has no call per field.
 *
 * The caller promises that every field of up to 20 bytes has 8 readable
 * bytes from its start (the bytes after the field are ignored).
 *
 *	struct prof_num_cache c = PROF_NUM_CACHE_INIT;
 *	if (prof_num_i64(s, len, &v) < 0) ...          // any integer
 *	if (prof_num_ts(&c, s, len, &v) < 0) ...       // a timestamp
 *	if (prof_num_id(&c, 0, s, len, &v) < 0) ...    // a pid (0) or tid (1)
 *
 * All three accept what prof_num_i64 accepts: an optional '-', then 1 to 19
 * ASCII digits, with a value in int64_t; they return 0, or -1 for
 * anything else.
 */
#ifndef PROF_TRACE_READ_NUM_H
#define PROF_TRACE_READ_NUM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PROF_NUM_LE 1	/* the first byte of a word is its lowest */
#else
#define PROF_NUM_LE 0
#endif

#define PROF_NUM_ZEROS 0x3030303030303030ull	/* eight '0' */

struct prof_num_cache {
	/* The first 11 digits of the last 19-digit timestamp, as two words
	 * (bytes 0-7 and 3-10), and their value: the timestamps of a trace
	 * share them, so that most take the last 8 digits only. */
	uint64_t ts_w0, ts_w1, ts_hi;
	/* The last pid and tid fields of up to 8 bytes, and their values. */
	struct { uint64_t w; size_t len; int64_t v; } ids[2];
};

#define PROF_NUM_CACHE_INIT { 0, 0, 0, { { 0, 0, 0 }, { 0, 0, 0 } } }

/*
 * The len (1 to 8) bytes at s as the low bytes of a word, the rest zero,
 * on little-endian machines (reads s[0..7]); 0 elsewhere.
 */
static inline uint64_t prof_num_word(const char *s, size_t len)
{
	uint64_t w = 0;

	if (PROF_NUM_LE) {
		memcpy(&w, s, 8);
		w &= ~(uint64_t)0 >> (64 - 8 * len);
	}
	return w;
}

/* Eight ASCII digits in v (first digit in the low byte), or -1. */
static inline int64_t prof_num_digits8(uint64_t v)
{
	const uint64_t hi = 0xF0F0F0F0F0F0F0F0ull;

	if (((v & hi) ^ PROF_NUM_ZEROS) | (((v + 0x0606060606060606ull) & hi) ^ PROF_NUM_ZEROS))
		return -1;
	v -= PROF_NUM_ZEROS;
	v = v * 10 + (v >> 8);
	v = ((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32)) +
	     ((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32))) >> 32;
	return (int64_t)v;
}

/* The n (1 to 8) ASCII digits at s as a number, or -1; reads s[0..7]. */
static inline int64_t prof_num_digits(const char *s, size_t n)
{
#if PROF_NUM_LE
	unsigned pad = 8 * (8 - (unsigned)n);
	uint64_t v;

	/* Shift the digits to the top and fill the bytes below with '0'. */
	memcpy(&v, s, 8);
	return prof_num_digits8(v << pad | (PROF_NUM_ZEROS & ~(~0ull << pad)));
#else
	int64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (d > 9)
			return -1;
		v = v * 10 + d;
	}
	return v;
#endif
}

static inline __attribute__((always_inline)) int prof_num_i64(const char *s, size_t len,
							      int64_t *out)
{
	size_t i = 0, n;
	uint64_t v;
	int64_t d;
	int neg = 0;

	if (len && s[0] == '-') {
		neg = 1;
		i = 1;
	}
	n = len - i;
	if (n == 1 && (unsigned)(s[i] - '0') <= 9) {
		*out = neg ? '0' - s[i] : s[i] - '0';
		return 0;
	}
	if (n == 0 || n > 19)
		return -1;
	/* The first digits (1 to 8), then the rest 8 at a time. */
	d = prof_num_digits(s + i, ((n - 1) & 7) + 1);
	if (d < 0)
		return -1;
	v = (uint64_t)d;
	for (i += ((n - 1) & 7) + 1; i < len; i += 8) {
		if ((d = prof_num_digits(s + i, 8)) < 0)
			return -1;
		v = v * 100000000u + (uint64_t)d;
	}
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* A timestamp, its leading digits taken from the last one where they match. */
static inline __attribute__((always_inline)) int prof_num_ts(struct prof_num_cache *c,
							     const char *s, size_t len,
							     int64_t *out)
{
	uint64_t a, b, v;
	int64_t d;

	if (len != 19)
		return prof_num_i64(s, len, out);
	memcpy(&a, s, 8);
	memcpy(&b, s + 3, 8);
	if (a == c->ts_w0 && b == c->ts_w1) {
		if ((d = prof_num_digits(s + 11, 8)) < 0 ||
		    (v = c->ts_hi + (uint64_t)d) > (uint64_t)INT64_MAX)
			return -1;
		*out = (int64_t)v;
		return 0;
	}
	if (prof_num_i64(s, len, out) < 0)
		return -1;
	if (*s != '-') {
		c->ts_w0 = a;
		c->ts_w1 = b;
		c->ts_hi = (uint64_t)*out / 100000000 * 100000000;
	}
	return 0;
}

/* A pid (k 0) or tid (k 1): the last value when the field is the last one. */
static inline __attribute__((always_inline)) int prof_num_id(struct prof_num_cache *c, int k,
							     const char *s, size_t len,
							     int64_t *out)
{
	int short_field = PROF_NUM_LE && len - 1 < 8;
	uint64_t w = short_field ? prof_num_word(s, len) : 0;

	if (short_field && w == c->ids[k].w && len == c->ids[k].len) {
		*out = c->ids[k].v;
		return 0;
	}
	if (prof_num_i64(s, len, out) < 0)
		return -1;
	if (short_field) {
		c->ids[k].w = w;
		c->ids[k].len = len;
		c->ids[k].v = *out;
	}
	return 0;
}

#endif
