#include "core/json.h"

#include <errno.h>
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

struct core_jsonl_reader {
	FILE *fp;
	char *name;
	char *buf;
	size_t cap;
	long line, value_line;
};

int core_jsonl_reader_new(struct core_jsonl_reader **out, FILE *fp,
			  const char *name, struct core_error *err)
{
	struct core_jsonl_reader *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r || !(r->name = strdup(name ? name : "-"))) {
		free(r);
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	r->fp = fp;
	*out = r;
	return 0;
}

int core_jsonl_read(struct core_jsonl_reader *r, json_t **v,
		    struct core_error *err)
{
	json_error_t je;
	ssize_t n;

	*v = NULL;
	for (;;) {
		size_t i;

		errno = 0;
		n = getline(&r->buf, &r->cap, r->fp);
		if (n < 0) {
			if (ferror(r->fp))
				return core_error_errno(err, errno ? errno : EIO,
							"reading '%s'", r->name);
			return 0;
		}
		r->line++;
		for (i = 0; i < (size_t)n; i++)
			if (!strchr(" \t\r\n", r->buf[i]))
				break;
		if (i < (size_t)n)
			break;
	}
	*v = json_loadb(r->buf, (size_t)n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
	if (!*v) {
		/* A last line without newline that fails to parse is torn. */
		int torn = r->buf[n - 1] != '\n';

		return core_error_set_line(err, -EBADMSG, r->line,
					   "%s JSON in '%s': %s",
					   torn ? "truncated" : "invalid", r->name, je.text);
	}
	r->value_line = r->line;
	return 1;
}

long core_jsonl_line(const struct core_jsonl_reader *r)
{
	return r->value_line;
}

void core_jsonl_reader_free(struct core_jsonl_reader *r)
{
	if (!r)
		return;
	free(r->name);
	free(r->buf);
	free(r);
}
