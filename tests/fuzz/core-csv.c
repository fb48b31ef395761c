/*
 * libFuzzer target: the CSV reader must never crash, leak or misreport on
 * any input; read in one piece or a few bytes at a time (with EAGAINs), it
 * must give the same rows and errors; and whatever it reads, written back
 * and read again, must parse cleanly (the writer and reader agree).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "../feed.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Every row and error of the input as text; `out` gets the rows as CSV. */
static char *digest(const unsigned char *data, size_t size, size_t step, FILE *out)
{
	struct core_error err = CORE_ERROR_INIT;
	struct feed f = { data, size, 0, step, 0 };
	FILE *in = step ? NULL : fmemopen((void *)data, size, "r");
	struct core_csv_reader *r;
	struct core_csv_row row;
	char *d = NULL;
	size_t dlen = 0, i;
	FILE *o = open_memstream(&d, &dlen);
	int ret;

	if ((step ? core_csv_reader_new_fn(&r, feed_read, &f, "fuzz", 0, &err) :
	     core_csv_reader_new(&r, in, "fuzz", 0, &err)) < 0)
		abort();
	while ((ret = core_csv_read(r, &row, &err)) != 0) {
		if (ret == -EAGAIN)
			continue;
		if (ret < 0) {
			if (ret != -EBADMSG || err.line < 1 || !strstr(err.msg, "line "))
				abort();
			fprintf(o, "E%ld %s\n", err.line, err.msg);
			continue;
		}
		fprintf(o, "%ld%s:", row.line, row.torn ? "!" : "");
		for (i = 0; i < row.n; i++) {
			if (row.field[i][row.len[i]] != '\0')
				abort();
			fprintf(o, "%zu[", row.len[i]);
			fwrite(row.field[i], 1, row.len[i], o);
			fputc(']', o);
		}
		fputc('\n', o);
		if (out) {
			const char **fl = malloc(row.n * sizeof(*fl));

			for (i = 0; i < row.n; i++)
				fl[i] = row.field[i];
			/* Fields holding NUL bytes cannot round-trip through C strings. */
			for (i = 0; i < row.n; i++)
				if (strlen(row.field[i]) != row.len[i])
					break;
			if (i == row.n && !(row.n == 1 && row.len[0] == 0))
				core_csv_write_row(out, fl, row.n);
			free(fl);
		}
	}
	core_csv_reader_free(r);
	if (in)
		fclose(in);
	fclose(o);
	return d;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct core_error err = CORE_ERROR_INIT;
	struct core_csv_reader *r2;
	struct core_csv_row row2;
	char *buf = NULL, *whole, *pieces;
	size_t len = 0;
	FILE *out, *back;
	int ret;

	if (size == 0)
		return 0;
	out = open_memstream(&buf, &len);
	whole = digest(data, size, 0, out);
	fclose(out);
	pieces = digest(data, size, 1 + data[0] % 5, NULL);
	if (strcmp(whole, pieces))
		abort();
	free(whole);
	free(pieces);

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
