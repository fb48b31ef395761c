#include "core/json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/atomic.h"

static json_t *failed(const char *name, const json_error_t *je, long line,
		      struct core_error *err)
{
	core_error_set_line(err, -EBADMSG, line, "invalid JSON in '%s': %s",
			    name, je->text);
	return NULL;
}

json_t *core_json_load_file(const char *path, struct core_error *err)
{
	json_error_t je;
	json_t *v;
	FILE *fp;

	if (!strcmp(path, "-"))
		fp = stdin;
	else if (!(fp = fopen(path, "r"))) {
		core_error_errno(err, errno, "cannot open '%s'", path);
		return NULL;
	}
	v = json_loadf(fp, JSON_REJECT_DUPLICATES, &je);
	if (fp != stdin)
		fclose(fp);
	if (!v)
		return failed(path, &je, je.line > 0 ? je.line : 1, err);
	return v;
}

json_t *core_json_load_string(const char *s, const char *name,
			      struct core_error *err)
{
	json_error_t je;
	json_t *v = json_loads(s, JSON_REJECT_DUPLICATES, &je);

	if (!v)
		return failed(name ? name : "-", &je, je.line > 0 ? je.line : 1, err);
	return v;
}

int core_json_write(FILE *fp, const json_t *v, int pretty)
{
	size_t flags = JSON_PRESERVE_ORDER | JSON_ENCODE_ANY;

	flags |= pretty ? JSON_INDENT(2) : JSON_COMPACT;
	if (json_dumpf(v, fp, flags) != 0)
		return -EIO;
	return putc('\n', fp) == EOF ? -EIO : 0;
}

int core_json_save_file(const char *path, const json_t *v, int flags,
			struct core_error *err)
{
	struct core_atomic af = CORE_ATOMIC_INIT;
	int ret = core_atomic_open(&af, path, flags, err);

	if (ret < 0)
		return ret;
	if (core_json_write(af.fp, v, 1) < 0) {
		core_atomic_abort(&af);
		return core_error_errno(err, EIO, "writing '%s' failed", path);
	}
	return core_atomic_commit(&af, err);
}

#define JSONL_CHUNK ((size_t)64 << 10)

struct core_jsonl_reader {
	struct core_input in;
	char *name;
	size_t max;
	size_t scanned;		/* bytes after in.pos known to hold no LF */
	int skip;		/* drop the rest of an overlong line */
	long line;		/* number of the line last returned */
	int torn;
	char *text;		/* that line */
	size_t len;
	uint64_t offset;
};

json_t *core_jsonl_decode(const char *text, size_t len, json_error_t *je)
{
	return json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, je);
}

static int reader_new(struct core_jsonl_reader **out, FILE *fp, core_read_fn *fn,
		      void *ctx, const char *name, struct core_error *err)
{
	struct core_jsonl_reader *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r || !(r->name = strdup(name ? name : "-")) ||
	    core_input_init(&r->in, fp, fn, ctx, JSONL_CHUNK, SIZE_MAX / 4) < 0) {
		core_jsonl_reader_free(r);
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	r->max = CORE_JSONL_MAX_DEFAULT;
	*out = r;
	return 0;
}

int core_jsonl_reader_new(struct core_jsonl_reader **out, FILE *fp,
			  const char *name, struct core_error *err)
{
	return reader_new(out, fp, NULL, NULL, name, err);
}

int core_jsonl_reader_new_fn(struct core_jsonl_reader **out, core_read_fn *fn,
			     void *ctx, const char *name, struct core_error *err)
{
	return reader_new(out, NULL, fn, ctx, name, err);
}

void core_jsonl_set_max(struct core_jsonl_reader *r, size_t max)
{
	r->max = max;
}

__attribute__((format(printf, 4, 5)))
static int fail(struct core_jsonl_reader *r, struct core_error *err, int code,
		const char *fmt, ...)
{
	char msg[CORE_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	core_error_set(err, code, "'%s': line %ld: %s", r->name, r->line, msg);
	if (err)
		err->line = r->line;
	return code;
}

static int fill(struct core_jsonl_reader *r, struct core_error *err)
{
	int ret = core_input_fill(&r->in);

	if (ret >= 0 || ret == -EAGAIN)
		return ret;
	if (ret == -ENOMEM)
		return core_error_set(err, ret, "out of memory reading '%s'", r->name);
	return core_error_errno(err, -ret, "reading '%s'", r->name);
}

int core_jsonl_read_line(struct core_jsonl_reader *r, char **text, size_t *len,
			 struct core_error *err)
{
	struct core_input *in = &r->in;
	int ret;

	for (;;) {
		char *p = in->buf + in->pos;
		size_t avail = in->len - in->pos;
		char *nl = memchr(p + r->scanned, '\n', avail - r->scanned);

		if (r->skip) {
			/* Dropping the rest of an overlong line. */
			r->scanned = 0;
			in->pos = nl ? (size_t)(nl + 1 - in->buf) : in->len;
			r->offset = in->base + in->pos;
			r->skip = !nl && !in->eof;
			if (!nl && in->eof)
				return 0;
		} else if (nl || in->eof) {
			if (!avail)
				return 0;
			r->scanned = 0;
			r->line++;
			r->torn = !nl;
			if (!nl)
				nl = in->buf + in->len;	/* the slack has room for the NUL */
			*nl = '\0';
			r->text = p;
			r->len = (size_t)(nl - p);
			in->pos = r->torn ? in->len : (size_t)(nl + 1 - in->buf);
			r->offset = in->base + in->pos;
			if (r->len > r->max)
				return fail(r, err, -EMSGSIZE, "line longer than %zu bytes", r->max);
			*text = r->text;
			*len = r->len;
			return 1;
		} else if (avail > r->max) {
			/* Report it now, before buffering more of it. */
			r->line++;
			r->torn = 0;
			r->skip = 1;
			r->scanned = 0;
			in->pos = in->len;
			return fail(r, err, -EMSGSIZE, "line longer than %zu bytes", r->max);
		} else {
			r->scanned = avail;
		}
		if ((ret = fill(r, err)) < 0)
			return ret;
	}
}

/* The next line that is not blank (spaces, tabs, CR): 1, or 0 at the end, or < 0. */
static int read_filled_line(struct core_jsonl_reader *r, char **text, size_t *len,
			    struct core_error *err)
{
	size_t i;
	int ret;

	for (;;) {
		ret = core_jsonl_read_line(r, text, len, err);
		if (ret <= 0)
			return ret;
		for (i = 0; i < *len; i++)
			if ((*text)[i] != ' ' && (*text)[i] != '\t' && (*text)[i] != '\r')
				return ret;
	}
}

int core_jsonl_read(struct core_jsonl_reader *r, json_t **v,
		    struct core_error *err)
{
	json_error_t je;
	char *text;
	size_t len;
	int ret;

	*v = NULL;
	ret = read_filled_line(r, &text, &len, err);
	if (ret <= 0)
		return ret;
	*v = core_jsonl_decode(text, len, &je);
	if (!*v)
		return fail(r, err, -EBADMSG, "%s JSON: %s",
			    r->torn ? "truncated" : "invalid", je.text);
	return 1;
}

long core_jsonl_line(const struct core_jsonl_reader *r)
{
	return r->line;
}

int core_jsonl_torn(const struct core_jsonl_reader *r)
{
	return r->torn;
}

const char *core_jsonl_text(const struct core_jsonl_reader *r, size_t *len)
{
	*len = r->len;
	return r->text;
}

#define JSONL_TAKE_MIN ((size_t)1 << 20)

char *core_jsonl_take_text(struct core_jsonl_reader *r, size_t *len)
{
	struct core_input *in = &r->in;
	size_t rest = in->len - in->pos, cap = JSONL_CHUNK;
	char *line, *fresh;

	*len = r->len;
	if (r->len < JSONL_TAKE_MIN || r->len < in->cap / 2) {
		line = malloc(r->len + 1);
		if (line) {
			memcpy(line, r->text, r->len);
			line[r->len] = '\0';
		}
		return line;
	}
	/* The bytes after the line (one read's worth at most) go to a new buffer. */
	while (cap < rest)
		cap *= 2;
	fresh = calloc(1, cap + CORE_INPUT_SLACK);
	if (!fresh)
		return NULL;
	memcpy(fresh, in->buf + in->pos, rest);
	line = in->buf;
	memmove(line, r->text, r->len);
	line[r->len] = '\0';
	in->buf = fresh;
	in->base += in->pos;
	in->pos = 0;
	in->len = rest;
	in->cap = cap;
	r->text = NULL;
	r->len = 0;
	fresh = realloc(line, *len + 1);	/* gives the rest back */
	return fresh ? fresh : line;
}

uint64_t core_jsonl_offset(const struct core_jsonl_reader *r)
{
	return r->offset;
}

void core_jsonl_reader_free(struct core_jsonl_reader *r)
{
	if (!r)
		return;
	core_input_release(&r->in);
	free(r->name);
	free(r);
}

/*
 * A validating skipper for core_jsonl_read_member: it checks what jansson
 * checks (UTF-8, escapes and surrogate pairs, control characters, number
 * grammar, nesting depth, no NUL in a key) without building anything.  It
 * may refuse more than jansson does (a long integer, an escaped key, a long
 * real number): those lines are decoded in full to decide.
 */
#define SCAN_MAX_DEPTH 2048	/* jansson's JSON_PARSER_MAX_DEPTH */

struct scan {
	const unsigned char *p, *end;
	int depth;
	const char *key;
	size_t klen;
	const unsigned char *mstart, *mend;	/* the member's value */
};

static void scan_ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r' || *s->p == '\n'))
		s->p++;
}

static int scan_hex4(const unsigned char *p, const unsigned char *end, unsigned *u)
{
	int i;

	*u = 0;
	if (end - p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		unsigned c = p[i];

		if (c >= '0' && c <= '9')
			*u = *u * 16 + (c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*u = *u * 16 + ((c | 0x20) - 'a' + 10);
		else
			return -1;
	}
	return 0;
}

/* One UTF-8 sequence of more than one byte at s->p. */
static int scan_utf8(struct scan *s)
{
	const unsigned char *p = s->p;
	unsigned c = *p, lo = 0x80, hi = 0xBF;
	int n, i;

	if (c < 0xC2)
		return -1;
	if (c < 0xE0) {
		n = 1;
	} else if (c < 0xF0) {
		n = 2;
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F;	/* no surrogates */
	} else if (c <= 0xF4) {
		n = 3;
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
	} else {
		return -1;
	}
	if (s->end - p <= n || p[1] < lo || p[1] > hi)
		return -1;
	for (i = 2; i <= n; i++)
		if (p[i] < 0x80 || p[i] > 0xBF)
			return -1;
	s->p = p + n + 1;
	return 0;
}

/* A string at s->p (its quote); *esc: it has escapes, *nul: a \u0000. */
static int scan_string(struct scan *s, int *esc, int *nul)
{
	unsigned u, v;

	*esc = *nul = 0;
	s->p++;
	for (;;) {
		/* The common case first: plain ASCII. */
		while (s->p < s->end && *s->p >= 0x20 && *s->p < 0x80 && *s->p != '"' && *s->p != '\\')
			s->p++;
		if (s->p >= s->end || *s->p < 0x20)
			return -1;
		if (*s->p == '"') {
			s->p++;
			return 0;
		}
		if (*s->p >= 0x80) {
			if (scan_utf8(s) < 0)
				return -1;
			continue;
		}
		*esc = 1;
		if (++s->p >= s->end)
			return -1;
		if (*s->p && strchr("\"\\/bfnrt", *s->p)) {
			s->p++;
			continue;
		}
		if (*s->p != 'u' || scan_hex4(s->p + 1, s->end, &u) < 0)
			return -1;
		s->p += 5;
		if (u >= 0xDC00 && u <= 0xDFFF)
			return -1;
		if (u >= 0xD800 && u <= 0xDBFF) {
			if (s->end - s->p < 6 || s->p[0] != '\\' || s->p[1] != 'u' ||
			    scan_hex4(s->p + 2, s->end, &v) < 0 || v < 0xDC00 || v > 0xDFFF)
				return -1;
			s->p += 6;
		}
		if (u == 0)
			*nul = 1;
	}
}

static int scan_digits(struct scan *s)
{
	const unsigned char *p = s->p;

	while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
		s->p++;
	return s->p > p ? 0 : -1;
}

static int scan_number(struct scan *s)
{
	const unsigned char *start = s->p;
	int real = 0;
	char tmp[64];
	double d;

	if (*s->p == '-')
		s->p++;
	if (s->p < s->end && *s->p == '0')
		s->p++;
	else if (s->p >= s->end || *s->p < '1' || *s->p > '9' || scan_digits(s) < 0)
		return -1;
	if (s->p < s->end && *s->p == '.') {
		s->p++;
		real = 1;
		if (scan_digits(s) < 0)
			return -1;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
		s->p++;
		real = 1;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (scan_digits(s) < 0)
			return -1;
	}
	/* Within range for jansson: an integer of 18 digits, a finite real. */
	if (!real)
		return s->p - start - (*start == '-') <= 18 ? 0 : -1;
	if ((size_t)(s->p - start) >= sizeof(tmp))
		return -1;
	memcpy(tmp, start, (size_t)(s->p - start));
	tmp[s->p - start] = '\0';
	d = strtod(tmp, NULL);
	return d > -HUGE_VAL && d < HUGE_VAL ? 0 : -1;
}

static int scan_literal(struct scan *s, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return -1;
	s->p += n;
	return 0;
}

static int scan_value(struct scan *s)
{
	int esc, nul, outer;

	scan_ws(s);
	if (s->p >= s->end)
		return -1;
	switch (*s->p) {
	case '{':
	case '[': {
		unsigned char close = *s->p == '{' ? '}' : ']';

		if (++s->depth > SCAN_MAX_DEPTH)
			return -1;
		outer = s->depth == 1;
		s->p++;
		scan_ws(s);
		if (s->p < s->end && *s->p == close) {
			s->p++;
			s->depth--;
			return 0;
		}
		for (;;) {
			const unsigned char *k = NULL, *kend = NULL, *v;

			if (close == '}') {
				scan_ws(s);
				if (s->p >= s->end || *s->p != '"')
					return -1;
				k = s->p;
				if (scan_string(s, &esc, &nul) < 0 || nul)
					return -1;
				kend = s->p;
				scan_ws(s);
				if (s->p >= s->end || *s->p != ':')
					return -1;
				s->p++;
				if (outer && esc)
					return -1;	/* which key it is: the decoder says */
			}
			scan_ws(s);
			v = s->p;
			if (scan_value(s) < 0)
				return -1;
			if (k && outer && (size_t)(kend - k - 2) == s->klen &&
			    memcmp(k + 1, s->key, s->klen) == 0) {
				s->mstart = v;	/* the last one given counts */
				s->mend = s->p;
			}
			scan_ws(s);
			if (s->p < s->end && *s->p == ',') {
				s->p++;
				continue;
			}
			if (s->p < s->end && *s->p == close) {
				s->p++;
				s->depth--;
				return 0;
			}
			return -1;
		}
	}
	case '"':
		return scan_string(s, &esc, &nul);
	case 't':
		return scan_literal(s, "true");
	case 'f':
		return scan_literal(s, "false");
	case 'n':
		return scan_literal(s, "null");
	default:
		if (*s->p == '-' || (*s->p >= '0' && *s->p <= '9'))
			return scan_number(s);
		return -1;
	}
}

int core_jsonl_scan_member(const char *text, size_t len, const char *key,
			   const char **member, size_t *member_len)
{
	struct scan s = { (const unsigned char *)text, (const unsigned char *)text + len,
			  0, key, strlen(key), NULL, NULL };
	int object;

	*member = NULL;
	*member_len = 0;
	scan_ws(&s);
	object = s.p < s.end && *s.p == '{';
	if (scan_value(&s) < 0)
		return -EBADMSG;
	scan_ws(&s);
	if (s.p != s.end)
		return -EBADMSG;
	if (s.mstart) {
		*member = (const char *)s.mstart;
		*member_len = (size_t)(s.mend - s.mstart);
	}
	return object;
}

int core_jsonl_read_member(struct core_jsonl_reader *r, const char *key, json_t **v,
			   struct core_error *err)
{
	const char *m;
	json_error_t je;
	json_t *full, *mv = NULL;
	char *text;
	size_t len, mlen;
	int ret;

	*v = NULL;
	ret = read_filled_line(r, &text, &len, err);
	if (ret <= 0)
		return ret;
	ret = core_jsonl_scan_member(text, len, key, &m, &mlen);
	if (ret == 0) {
		*v = json_null();
		return 1;
	} else if (ret > 0) {
		*v = json_object();
		if (m && !(mv = core_jsonl_decode(m, mlen, NULL))) {
			ret = -EBADMSG;
		} else if (*v && mv) {
			if (json_object_set_new(*v, key, mv) == 0)	/* takes mv */
				return 1;
		} else if (*v) {
			return 1;
		} else {
			json_decref(mv);
		}
		json_decref(*v);
		*v = NULL;
	}
	if (ret >= 0)	/* out of memory */
		return fail(r, err, -ENOMEM, "out of memory");
	/* The scan cannot vouch for it: the decoder decides, and says why not. */
	full = core_jsonl_decode(text, len, &je);
	if (!full)
		return fail(r, err, -EBADMSG, "%s JSON: %s",
			    r->torn ? "truncated" : "invalid", je.text);
	if (!json_is_object(full)) {
		json_decref(full);
		*v = json_null();
	} else {
		mv = json_object_get(full, key);
		*v = json_object();
		if (*v && mv && json_object_set(*v, key, mv) < 0) {
			json_decref(*v);
			*v = NULL;
		}
		json_decref(full);
	}
	return *v ? 1 : fail(r, err, -ENOMEM, "out of memory");
}
