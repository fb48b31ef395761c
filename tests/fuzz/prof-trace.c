/* libFuzzer target: the trace reader (CSV and JSON Lines) never crashes or
 * leaks, and in strict mode every failure names a line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof/trace_read.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void read_all(const unsigned char *data, size_t size, int flags)
{
	struct core_error err = CORE_ERROR_INIT;
	struct prof_trace_reader *r;
	struct prof_ev ev;
	FILE *in = fmemopen((void *)data, size, "r");
	int ret;

	if (prof_trace_reader_new(&r, in, "fuzz", flags, &err) < 0) {
		fclose(in);
		return;
	}
	while ((ret = prof_trace_read(r, &ev, &err)) > 0)
		(void)prof_trace_str(r, ev.name);
	if (ret < 0 && (flags & PROF_READ_STRICT) && !err.msg[0])
		abort();
	prof_trace_reader_free(r);
	fclose(in);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size == 0)
		return 0;
	read_all(data, size, 0);
	read_all(data, size, PROF_READ_STRICT | PROF_READ_ALL_NAMES);
	return 0;
}
