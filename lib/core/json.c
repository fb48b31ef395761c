#include "core/json.h"

#include <errno.h>
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

int core_jsonl_read(struct core_jsonl_reader *r, json_t **v,
		    struct core_error *err)
{
	json_error_t je;
	char *text;
	size_t len, i;
	int ret;

	*v = NULL;
	for (;;) {
		ret = core_jsonl_read_line(r, &text, &len, err);
		if (ret <= 0)
			return ret;
		for (i = 0; i < len; i++)
			if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r')
				break;
		if (i < len)
			break;
	}
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
