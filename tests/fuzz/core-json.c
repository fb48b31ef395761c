/*
 * libFuzzer target: JSON Lines reading never crashes or leaks, every error
 * names a line, and reading in one piece or a few bytes at a time (with
 * EAGAINs, under a small line bound) gives the same values and errors;
 * the id scan (core_jsonl_scan_member) vouches only for what the decoder
 * accepts, and finds the member the decoder finds.
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

static void scan_agrees(const unsigned char *data, size_t size)
{
	const char *m;
	size_t mlen;
	int got = core_jsonl_scan_member((const char *)data, size, "id", &m, &mlen);
	json_t *v = core_jsonl_decode((const char *)data, size, NULL), *mv, *id;

	if (got >= 0) {
		if (!v || got != json_is_object(v))
			abort();
		mv = m ? core_jsonl_decode(m, mlen, NULL) : NULL;
		id = json_is_object(v) ? json_object_get(v, "id") : NULL;
		if ((m && !mv) || !mv != !id || (mv && !json_equal(mv, id)))
			abort();
		json_decref(mv);
	}
	json_decref(v);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *whole, *pieces;

	if (size == 0)
		return 0;
	scan_agrees(data, size);
	whole = digest(data, size, 0);
	pieces = digest(data, size, 1 + data[0] % 7);
	if (strcmp(whole, pieces))
		abort();
	free(whole);
	free(pieces);
	return 0;
}
