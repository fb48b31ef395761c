/* CUPTI spool records (prof/cupti_merge.h): encoding, rows, short records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof/cupti_merge.h"
#include "test.h"

/* A record of `type` with text as the recorder lays it out. */
static struct prof_spool_rec *rec_of(int type, int64_t t, uint64_t u, const char *text,
				     size_t len)
{
	size_t size = prof_spool_rec_size(len);
	struct prof_spool_rec *r = calloc(1, size);

	r->size = (uint16_t)size;
	r->type = (uint8_t)type;
	r->t = t;
	r->u = u;
	memcpy(r + 1, text, len);
	return r;
}

/* The CSV row (without the header) that rec gives, or "" for none. */
static char *row_of(const struct prof_spool_rec *r, int *ret)
{
	struct prof_trace_writer w;
	char *out = NULL, *nl;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);

	prof_trace_writer_init(&w, fp, PROF_TRACE_CSV);
	*ret = prof_cupti_merge_rec(&w, 42, 43, r);
	fclose(fp);
	nl = strchr(out, '\n');
	memmove(out, nl + 1, strlen(nl + 1) + 1);
	return out;
}

int main(void)
{
	char text[PROF_SPOOL_TEXT_MAX], longname[3000];
	struct prof_spool_gpu g = { 2500, 7, 1, 13, PROF_CAT_KERNEL, 0 };
	struct prof_spool_rec *r;
	size_t len;
	char *row;
	int ret;

	len = prof_cupti_gpu_text(text, &g, "gemm");
	r = rec_of(PROF_REC_GPU, 1000, 7, text, len);
	row = row_of(r, &ret);
	TEST_EQ_LONG(ret, 1, "a gpu record is taken");
	TEST_EQ_STR(row, "gpu,42,,1000,2500,gemm,kernel,,1,13,7,,\n", "gpu row: no tid, device, stream, correlation");
	free(row);
	free(r);

	len = prof_cupti_api_text(text, 1900, "cudaLaunchKernel");
	r = rec_of(PROF_REC_API, 1200, 7, text, len);
	row = row_of(r, &ret);
	TEST_EQ_STR(row, "cpu,42,43,1200,1900,cudaLaunchKernel,cuda_api,,,,7,,\n",
		    "api row: a cuda_api cpu row of the thread with the correlation");
	free(row);
	free(r);

	/* An end before the start (clock trouble) is clamped to the start. */
	g.end = 10;
	g.category = PROF_CAT_MEMCPY;
	len = prof_cupti_gpu_text(text, &g, "memcpy HtoD");
	r = rec_of(PROF_REC_GPU, 1000, 7, text, len);
	row = row_of(r, &ret);
	TEST_EQ_STR(row, "gpu,42,,1000,1000,memcpy HtoD,memcpy,,1,13,7,,\n", "end clamped");
	free(row);
	free(r);

	/* A bad category or a record too short for its struct gives nothing. */
	g.category = PROF_CAT_PYTHON;
	len = prof_cupti_gpu_text(text, &g, "x");
	r = rec_of(PROF_REC_GPU, 1000, 7, text, len);
	row = row_of(r, &ret);
	TEST_OK(ret == 1 && !*row, "a gpu record of a cpu category is skipped");
	free(row);
	free(r);
	r = rec_of(PROF_REC_API, 1000, 7, "ab", 2);
	row = row_of(r, &ret);
	TEST_OK(ret == 1 && !*row, "a short api record is skipped");
	free(row);
	free(r);

	/* Other types are not ours. */
	r = rec_of(PROF_REC_MARK, 1000, 0, "m", 1);
	row = row_of(r, &ret);
	TEST_OK(ret == 0 && !*row, "other record types are left to the caller");
	free(row);
	free(r);

	/* Long names are cut so that the record fits. */
	memset(longname, 'k', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	len = prof_cupti_api_text(text, 5, longname);
	TEST_EQ_LONG(len, PROF_SPOOL_TEXT_MAX, "text cut to PROF_SPOOL_TEXT_MAX");
	return test_done();
}
