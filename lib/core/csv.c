#include "core/csv.h"
#include "core/grow.h"

#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 65536

struct rec {
	size_t first, n;	/* fields [first, first + n) */
	long line;
};

struct core_csv_reader {
	struct csv_parser p;
	FILE *fp;
	char *name;
	int flags;
	/* Arena of field bytes, each field NUL-terminated. */
	char *bytes;
	size_t nbytes, capbytes;
	/* All fields queued (complete records and the record in progress). */
	struct { size_t off, len; } *fld;
	size_t nf, capf;
	/* Complete records not yet delivered. */
	struct rec *recs;
	size_t nrec, caprec, rpos;
	size_t cur_first;	/* first field of the record in progress */
	long line;		/* line where the record in progress starts */
	long cur_newlines;	/* newlines inside its quoted fields so far */
	long phys_line;		/* physical line at the start of the chunk */
	int prev_term;		/* terminator of the last record or blank line */
	int oom, eof;
	long width;		/* fields in the first record, -1 before it */
	char **ptrs;		/* field pointers handed out with a row */
	size_t *lens, capptrs, caplens;
	char chunk[CHUNK];
};

static int space_never(unsigned char c)
{
	(void)c;
	return 0;
}

static void on_field(void *data, size_t len, void *ctx)
{
	struct core_csv_reader *r = ctx;
	const char *s = data ? data : "";
	size_t i;

	if (r->oom)
		return;
	if (core_grow((void **)&r->bytes, &r->capbytes, r->nbytes + len + 1, 1) ||
	    core_grow((void **)&r->fld, &r->capf, r->nf + 1, sizeof(*r->fld))) {
		r->oom = 1;
		return;
	}
	memcpy(r->bytes + r->nbytes, s, len);
	r->bytes[r->nbytes + len] = '\0';
	r->fld[r->nf].off = r->nbytes;
	r->fld[r->nf].len = len;
	r->nf++;
	r->nbytes += len + 1;
	for (i = 0; i < len; i++)
		if (s[i] == '\n')
			r->cur_newlines++;
}

static void on_record(int c, void *ctx)
{
	struct core_csv_reader *r = ctx;

	if (r->oom)
		return;
	if (r->nf == r->cur_first) {
		/* An empty report: the LF of a CRLF, or a blank line. */
		if (!(c == '\n' && r->prev_term == '\r') && c != -1)
			r->line++;
		r->prev_term = c;
		return;
	}
	if (core_grow((void **)&r->recs, &r->caprec, r->nrec + 1, sizeof(struct rec))) {
		r->oom = 1;
		return;
	}
	r->recs[r->nrec].first = r->cur_first;
	r->recs[r->nrec].n = r->nf - r->cur_first;
	r->recs[r->nrec].line = r->line;
	r->nrec++;
	r->cur_first = r->nf;
	r->line += 1 + r->cur_newlines;
	r->cur_newlines = 0;
	r->prev_term = c;
}

int core_csv_reader_new(struct core_csv_reader **out, FILE *fp,
			const char *name, int flags, struct core_error *err)
{
	struct core_csv_reader *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r)
		return core_error_set(err, -ENOMEM, "out of memory");
	if (csv_init(&r->p, CSV_STRICT | CSV_STRICT_FINI | CSV_REPALL_NL) != 0) {
		free(r);
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	csv_set_space_func(&r->p, space_never);
	r->name = strdup(name ? name : "-");
	r->fp = fp;
	r->flags = flags;
	r->line = 1;
	r->phys_line = 1;
	r->width = -1;
	if (!r->name) {
		core_csv_reader_free(r);
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	*out = r;
	return 0;
}

void core_csv_reader_free(struct core_csv_reader *r)
{
	if (!r)
		return;
	csv_free(&r->p);
	free(r->name);
	free(r->bytes);
	free(r->fld);
	free(r->lens);
	free(r->recs);
	free(r->ptrs);
	free(r);
}

/* Drop delivered records; keep the fields of the record in progress. */
static void compact(struct core_csv_reader *r)
{
	size_t keep = r->nf - r->cur_first, base, i;

	base = keep ? r->fld[r->cur_first].off : r->nbytes;
	if (r->nbytes > base)
		memmove(r->bytes, r->bytes + base, r->nbytes - base);
	r->nbytes -= base;
	for (i = 0; i < keep; i++) {
		r->fld[i].off = r->fld[r->cur_first + i].off - base;
		r->fld[i].len = r->fld[r->cur_first + i].len;
	}
	r->nf = keep;
	r->cur_first = 0;
	r->nrec = r->rpos = 0;
}

static long count_nl(const char *s, size_t n)
{
	long c = 0;
	const char *p = s, *end = s + n;

	while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		c++;
		p++;
	}
	return c;
}

static int fill(struct core_csv_reader *r, struct core_error *err)
{
	size_t n, used;

	compact(r);
	n = fread(r->chunk, 1, sizeof(r->chunk), r->fp);
	if (n == 0) {
		if (ferror(r->fp))
			return core_error_errno(err, errno ? errno : EIO, "reading '%s'", r->name);
		r->eof = 1;
		if (csv_fini(&r->p, on_field, on_record, r) != 0)
			return core_error_set_line(err, -EBADMSG, r->line,
						   "unterminated quoted field in '%s'", r->name);
	} else {
		used = csv_parse(&r->p, r->chunk, n, on_field, on_record, r);
		if (used < n && csv_error(&r->p) == CSV_EPARSE)
			return core_error_set_line(err, -EBADMSG,
						   r->phys_line + count_nl(r->chunk, used),
						   "malformed field (stray quote) in '%s'", r->name);
		if (used < n)
			r->oom = 1;
		r->phys_line += count_nl(r->chunk, n);
	}
	if (r->oom)
		return core_error_set(err, -ENOMEM, "out of memory reading '%s'", r->name);
	return 0;
}

int core_csv_read(struct core_csv_reader *r, struct core_csv_row *row,
		  struct core_error *err)
{
	struct rec *rec;
	size_t i;
	int ret;

	while (r->rpos == r->nrec) {
		if (r->eof)
			return 0;
		ret = fill(r, err);
		if (ret < 0) {
			r->eof = 1;
			r->nrec = r->rpos = 0;
			return ret;
		}
	}
	rec = &r->recs[r->rpos++];
	if (r->flags & CORE_CSV_SAME_WIDTH) {
		if (r->width < 0)
			r->width = (long)rec->n;
		else if ((long)rec->n != r->width)
			return core_error_set_line(err, -EBADMSG, rec->line,
						   "expected %ld fields, found %zu in '%s'",
						   r->width, rec->n, r->name);
	}
	if (core_grow((void **)&r->ptrs, &r->capptrs, rec->n, sizeof(char *)) ||
	    core_grow((void **)&r->lens, &r->caplens, rec->n, sizeof(size_t)))
		return core_error_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < rec->n; i++) {
		r->ptrs[i] = r->bytes + r->fld[rec->first + i].off;
		r->lens[i] = r->fld[rec->first + i].len;
	}
	row->n = rec->n;
	row->field = r->ptrs;
	row->len = r->lens;
	row->line = rec->line;
	return 1;
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
