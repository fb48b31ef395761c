#include "core/csv.h"
#include "core/grow.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define CHUNK ((size_t)64 << 10)

enum { SCAN_MORE, SCAN_ROW, SCAN_END };

struct core_csv_reader {
	struct core_input in;
	char *name;
	int flags;
	int started;		/* the byte order mark was looked for */
	int skip;		/* drop the rest of the line (after an error) */
	long line;		/* line where the next record starts */
	long width;		/* fields in the first record, -1 before it */
	/* Fields of the record being read: where, how long, how quoted. */
	char **field;
	size_t *len;
	size_t cap, caplen;
	struct quoted { size_t i; int dq; } *q;	/* its quoted fields; dq: holds "" */
	size_t nq, capq;
	/*
	 * The stretch where the last record ended, when it ended there in an
	 * unquoted LF: its LFs, quotes and commas after that LF, so that the
	 * next record starts without looking at those bytes again.  Valid
	 * while `next` is where the next record starts; a read clears it.
	 */
	const char *next, *blk;
	uint32_t m_rest, cm_rest;
};

static int reader_new(struct core_csv_reader **out, FILE *fp, core_read_fn *fn,
		      void *ctx, const char *name, int flags, struct core_error *err)
{
	struct core_csv_reader *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r || !(r->name = strdup(name ? name : "-")) ||
	    core_input_init(&r->in, fp, fn, ctx, CHUNK, CORE_CSV_MAX_RECORD) < 0) {
		core_csv_reader_free(r);
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	r->flags = flags;
	r->line = 1;
	r->width = -1;
	*out = r;
	return 0;
}

int core_csv_reader_new(struct core_csv_reader **out, FILE *fp,
			const char *name, int flags, struct core_error *err)
{
	return reader_new(out, fp, NULL, NULL, name, flags, err);
}

int core_csv_reader_new_fn(struct core_csv_reader **out, core_read_fn *fn,
			   void *ctx, const char *name, int flags,
			   struct core_error *err)
{
	return reader_new(out, NULL, fn, ctx, name, flags, err);
}

void core_csv_reader_free(struct core_csv_reader *r)
{
	if (!r)
		return;
	core_input_release(&r->in);
	free(r->name);
	free(r->field);
	free(r->len);
	free(r->q);
	free(r);
}

static int grow(struct core_csv_reader *r)
{
	size_t need = r->cap + 1;

	if (CORE_GROW(r->field, r->cap, need) < 0 ||
	    CORE_GROW(r->len, r->caplen, need) < 0)
		return -ENOMEM;
	if (r->caplen < r->cap)
		r->cap = r->caplen;
	return 0;
}

/*
 * Of the 32 bytes at p: bit i of *commas is set when p[i] is a comma, of
 * the result when it is a LF or a quote (a byte that ends a stretch of
 * unquoted fields).
 */
static inline uint32_t specials(const char *p, uint32_t *commas)
{
#if defined(__SSE2__)
	const __m128i comma = _mm_set1_epi8(','), lf = _mm_set1_epi8('\n');
	const __m128i quote = _mm_set1_epi8('"');
	__m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
	__m128i sa = _mm_or_si128(_mm_cmpeq_epi8(a, lf), _mm_cmpeq_epi8(a, quote));
	__m128i sb = _mm_or_si128(_mm_cmpeq_epi8(b, lf), _mm_cmpeq_epi8(b, quote));

	*commas = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, comma)) |
		  (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, comma)) << 16;
	return (uint32_t)_mm_movemask_epi8(sa) | (uint32_t)_mm_movemask_epi8(sb) << 16;
#else
	uint32_t m = 0, c = 0;
	int i;

	for (i = 0; i < 32; i++) {
		c |= (uint32_t)(p[i] == ',') << i;
		m |= (uint32_t)(p[i] == '\n' || p[i] == '"') << i;
	}
	*commas = c;
	return m;
#endif
}

static long count_lf(const char *p, const char *end)
{
	long n = 0;

	while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		n++;
		p++;
	}
	return n;
}

static int bad(struct core_csv_reader *r, struct core_error *err, long line,
	       const char *what)
{
	core_error_set(err, -EBADMSG, "'%s': line %ld: %s", r->name, line, what);
	if (err)
		err->line = line;
	return -EBADMSG;
}

/* A stray quote at `at`: the rest of the row is skipped, the row is bad. */
static int bad_quote(struct core_csv_reader *r, struct core_csv_row *row,
		     const char *at, struct core_error *err, long line, const char *what)
{
	r->in.pos = (size_t)(at - r->in.buf);
	r->skip = 1;
	row->line = r->line;
	row->torn = 0;
	return bad(r, err, line, what);
}

#define ADD(p, n_) do {							\
	if (n == cap) {							\
		if (grow(r) < 0)					\
			return -ENOMEM;					\
		fld = r->field;						\
		flen = r->len;						\
		cap = r->cap;						\
	}								\
	fld[n] = (p);							\
	flen[n++] = (size_t)(n_);					\
} while (0)

/*
 * Split the record at in->pos.  SCAN_ROW consumes it and fills `row`;
 * SCAN_MORE (only before the end of input) consumes nothing and leaves the
 * buffer as it was, so that the caller can read more and start over;
 * SCAN_END at the end of input; or an error.
 *
 * The hot path: a comma ending an unquoted field becomes its NUL at once.
 * Quoted fields are unescaped once the record is whole.
 */
static int scan(struct core_csv_reader *r, struct core_csv_row *row,
		struct core_error *err)
{
	struct core_input *in = &r->in;
	char *start = in->buf + in->pos, *end = in->buf + in->len;
	char *f = start, *s = start, *c, *q, *e;
	char **fld = r->field;
	size_t *flen = r->len, cap = r->cap, n = 0, i;
	long nl = 0, qline;
	int torn = 0, dq, carried = r->next == start;

	r->nq = 0;
	r->next = NULL;
	for (;;) {
		/*
		 * An unquoted stretch, 32 bytes at a time: the commas before
		 * the first LF or quote end fields, without a test per byte.
		 */
		for (;; s += 32) {
			uint32_t m, cm, cm_all;

			if (carried) {
				s = (char *)r->blk;
				m = r->m_rest;
				cm = r->cm_rest;
				carried = 0;
			} else {
				if (s >= end)
					goto at_end;
				m = specials(s, &cm);
				if ((size_t)(end - s) < 32) {
					m &= ((uint32_t)1 << (end - s)) - 1;
					cm &= ((uint32_t)1 << (end - s)) - 1;
				}
			}
			cm_all = cm;
			if (m)
				cm &= (m & -m) - 1;
			if (cap - n < 32) {
				do {
					if (grow(r) < 0)
						return -ENOMEM;
				} while (r->cap - n < 32);
				fld = r->field;
				flen = r->len;
				cap = r->cap;
			}
			while (cm) {
				c = s + (unsigned)__builtin_ctz(cm);
				cm &= cm - 1;
				fld[n] = f;
				flen[n++] = (size_t)(c - f);
				*c = '\0';
				f = c + 1;
			}
			if (!m)
				continue;
			c = s + __builtin_ctz(m);
			if (*c == '\n') {
				uint32_t rest = ~((2u << (c - s)) - 1);

				e = c > f && c[-1] == '\r' ? c - 1 : c;
				ADD(f, e - f);
				*e = '\0';
				in->pos = (size_t)(c + 1 - in->buf);
				r->next = c + 1;
				r->blk = s;
				r->m_rest = m & rest;
				r->cm_rest = cm_all & rest;
				goto whole;
			}
			if (c != f)
				return bad_quote(r, row, c, err, r->line + nl,
						 "a quote inside an unquoted field");
			goto quoted;
		}
quoted:
		/* A quoted field: f is its opening quote. */
		qline = nl;
		dq = 0;
		for (q = f + 1;; q = e + 2) {
			e = memchr(q, '"', (size_t)(end - q));
			if (!e) {
				if (!in->eof)
					goto more;
				in->pos = in->len;
				row->line = r->line;
				row->torn = 1;
				return bad(r, err, r->line + qline,
					   "the input ends inside a quoted field");
			}
			nl += count_lf(q, e);
			if (e + 1 == end && !in->eof)
				goto more;
			if (e + 1 < end && e[1] == '"') {
				dq = 1;
				continue;
			}
			break;
		}
		/* e is the closing quote; c what follows it. */
		c = e + 1;
		if (CORE_GROW(r->q, r->capq, r->nq + 1) < 0)
			return -ENOMEM;
		r->q[r->nq].i = n;
		r->q[r->nq++].dq = dq;
		ADD(f + 1, e - (f + 1));
		if (c == end) {
			in->pos = in->len;
			torn = 1;
			goto whole;
		}
		if (*c == ',') {
			f = s = c + 1;
			continue;
		}
		if (*c == '\r' && c + 1 == end && !in->eof)
			goto more;
		if (*c == '\n' || (*c == '\r' && c + 1 < end && c[1] == '\n')) {
			in->pos = (size_t)(c + (*c == '\r') + 1 - in->buf);
			goto whole;
		}
		return bad_quote(r, row, c, err, r->line + nl,
				 "text after the closing quote of a field");
	}
at_end:
	if (!in->eof)
		goto more;
	if (f == end && n == 0)
		return SCAN_END;
	ADD(f, end - f);
	*end = '\0';
	in->pos = in->len;
	torn = 1;
whole:
	for (i = 0; i < r->nq; i++) {
		char *p = fld[r->q[i].i], *src = p, *dst = p, *stop = p + flen[r->q[i].i];

		if (r->q[i].dq) {
			while (src < stop) {
				if (*src == '"')
					src++;
				*dst++ = *src++;
			}
			flen[r->q[i].i] = (size_t)(dst - p);
		}
		p[flen[r->q[i].i]] = '\0';
	}
	row->n = n;
	row->field = fld;
	row->len = flen;
	row->line = r->line;
	row->torn = torn;
	r->line += 1 + nl;
	return SCAN_ROW;
more:
	/* Put back the commas that became NULs. */
	for (i = 0; i < n; i++)
		if (fld[i][flen[i]] == '\0')
			fld[i][flen[i]] = ',';
	return SCAN_MORE;
}

#undef ADD

int core_csv_read(struct core_csv_reader *r, struct core_csv_row *row,
		  struct core_error *err)
{
	struct core_input *in = &r->in;
	int ret;

	for (;;) {
		if (r->skip) {
			char *nl = memchr(in->buf + in->pos, '\n', in->len - in->pos);

			if (nl) {
				in->pos = (size_t)(nl + 1 - in->buf);
				r->line++;
				r->skip = 0;
			} else {
				in->pos = in->len;
				r->skip = !in->eof;
			}
		}
		if (!r->skip && !r->started && (in->len - in->pos >= 3 || in->eof)) {
			r->started = 1;
			if (in->len - in->pos >= 3 && !memcmp(in->buf + in->pos, "\xef\xbb\xbf", 3))
				in->pos += 3;
		}
		if (!r->skip && r->started) {
			ret = scan(r, row, err);
			if (ret == SCAN_END)
				return 0;
			if (ret == -ENOMEM)
				return core_error_set(err, ret, "out of memory reading '%s'", r->name);
			if (ret < 0)
				return ret;
			if (ret == SCAN_ROW) {
				if (row->n == 1 && !row->len[0] && !r->nq)
					continue;	/* a blank line */
				if (!(r->flags & CORE_CSV_SAME_WIDTH))
					return 1;
				if (r->width < 0)
					r->width = (long)row->n;
				if ((long)row->n == r->width)
					return 1;
				core_error_set(err, -EBADMSG, "'%s': line %ld: expected %ld fields, found %zu",
					       r->name, row->line, r->width, row->n);
				if (err)
					err->line = row->line;
				return -EBADMSG;
			}
		}
		if (in->eof && !r->skip && r->started)
			return 0;
		r->next = NULL;	/* the buffer may move */
		ret = core_input_fill(in);
		if (ret == -EAGAIN)
			return ret;
		if (ret == -EMSGSIZE)
			return core_error_set(err, ret, "'%s': line %ld: a record longer than %zu bytes",
					      r->name, r->line, in->max);
		if (ret == -ENOMEM)
			return core_error_set(err, ret, "out of memory reading '%s'", r->name);
		if (ret < 0)
			return core_error_errno(err, -ret, "reading '%s'", r->name);
	}
}

static int needs_quotes(const char *s, size_t len)
{
	size_t i;

	if (len && (s[0] == ' ' || s[len - 1] == ' '))
		return 1;
	for (i = 0; i < len; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
			return 1;
	return 0;
}

int core_csv_write_field(FILE *fp, const char *s, size_t len)
{
	size_t i;

	if (!needs_quotes(s, len))
		return fwrite(s, 1, len, fp) == len ? 0 : -EIO;
	if (putc('"', fp) == EOF)
		return -EIO;
	for (i = 0; i < len; i++) {
		if (s[i] == '"' && putc('"', fp) == EOF)
			return -EIO;
		if (putc(s[i], fp) == EOF)
			return -EIO;
	}
	return putc('"', fp) == EOF ? -EIO : 0;
}

int core_csv_write_row(FILE *fp, const char *const *fields, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *f = fields[i] ? fields[i] : "";

		if (i && putc(',', fp) == EOF)
			return -EIO;
		if (core_csv_write_field(fp, f, strlen(f)) < 0)
			return -EIO;
	}
	return putc('\n', fp) == EOF ? -EIO : 0;
}

long core_csv_row_find(const struct core_csv_row *row, const char *name)
{
	size_t i;

	for (i = 0; i < row->n; i++)
		if (!strcmp(row->field[i], name))
			return (long)i;
	return -1;
}
