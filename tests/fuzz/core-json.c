/*
 * libFuzzer target: JSON Lines reading never crashes or leaks, every error
 * names a line, and reading in one piece or a few bytes at a time (with
 * EAGAINs, under a small line bound) gives the same values and errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "../feed.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static char *digest(const unsigned char *data, size_t size, size_t step)
{
	struct core_error err = CORE_ERROR_INIT;
	struct feed f = { data, size, 0, step, 0 };
	FILE *in = step ? NULL : fmemopen((void *)data, size, "r");
	struct core_jsonl_reader *r;
	char *d = NULL, *s;
	size_t dlen = 0;
	FILE *o = open_memstream(&d, &dlen);
	json_t *v;
	int ret;

	if ((step ? core_jsonl_reader_new_fn(&r, feed_read, &f, "fuzz", &err) :
	     core_jsonl_reader_new(&r, in, "fuzz", &err)) < 0)
		abort();
	core_jsonl_set_max(r, 64);
	while ((ret = core_jsonl_read(r, &v, &err)) != 0) {
		if (ret == -EAGAIN)
			continue;
		if (ret < 0) {
			if ((ret != -EBADMSG && ret != -EMSGSIZE) || err.line < 1)
				abort();
			fprintf(o, "E%ld %s\n", err.line, err.msg);
			continue;
		}
		s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		fprintf(o, "%ld%s:%s\n", core_jsonl_line(r), core_jsonl_torn(r) ? "!" : "", s);
		free(s);
		json_decref(v);
	}
	core_jsonl_reader_free(r);
	if (in)
		fclose(in);
	fclose(o);
	return d;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *whole, *pieces;

	if (size == 0)
		return 0;
	whole = digest(data, size, 0);
	pieces = digest(data, size, 1 + data[0] % 7);
	if (strcmp(whole, pieces))
		abort();
	free(whole);
	free(pieces);
	return 0;
}
