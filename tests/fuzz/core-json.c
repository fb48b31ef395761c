/* libFuzzer target: JSON Lines reading never crashes or leaks, and every
 * error names a line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct core_error err = CORE_ERROR_INIT;
	struct core_jsonl_reader *r;
	json_t *v;
	FILE *in;
	int ret;

	if (size == 0)
		return 0;
	in = fmemopen((void *)data, size, "r");
	if (core_jsonl_reader_new(&r, in, "fuzz", &err) < 0)
		abort();
	while ((ret = core_jsonl_read(r, &v, &err)) > 0)
		json_decref(v);
	if (ret < 0 && err.line < 1)
		abort();
	core_jsonl_reader_free(r);
	fclose(in);
	return 0;
}
