/*
 * The pieces of CPU sampling that do not need a running process: the
 * category map (prof/catmap.h) and how a segment's CPU time is split into
 * categories (prof/merge_cpu.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "prof/catmap.h"
#include "prof/merge_cpu.h"
#include "test.h"

static void test_catmap(void)
{
	struct prof_catmap m = PROF_CATMAP_INIT;
	const char *text =
		"# comment\n"
		"\n"
		"*/torch/lib/libgomp*  inherit   # trailing comment\n"
		"*/torch/*\tbackend\n"
		"*/libpython3*.so*  python\n"
		"*/ale_py/*  simulator\n"
		"*/libcudart*  cuda_api\n"
		"*/bin/prog  native\n"
		"*/bin/python*  interpreter\n";
	int line = 0;

	TEST_EQ_LONG(prof_catmap_parse(&m, text, strlen(text), &line), 0, "parse: a good map");
	TEST_EQ_LONG(m.n, 7, "parse: one rule a line, comments and blank lines skipped");
	TEST_EQ_LONG(prof_catmap_classify(&m, "/x/site-packages/torch/lib/libtorch_cpu.so"),
		     PROF_CAT_BACKEND, "classify: '*' matches '/'");
	TEST_EQ_LONG(prof_catmap_classify(&m, "/x/site-packages/torch/lib/libgomp-a34b.so.1"),
		     PROF_CATMAP_INHERIT, "classify: the first rule that matches decides");
	TEST_EQ_LONG(prof_catmap_classify(&m, "/usr/lib/libpython3.11.so.1.0"),
		     PROF_CAT_PYTHON, "classify: python");
	TEST_EQ_LONG(prof_catmap_classify(&m, "/p/ale_py/_ale_py.cpython-311.so"),
		     PROF_CAT_SIMULATOR, "classify: simulator");
	TEST_EQ_LONG(prof_catmap_classify(&m, "/usr/local/cuda/lib64/libcudart.so.12"),
		     PROF_CAT_CUDA_API, "classify: cuda_api");
	TEST_EQ_LONG(prof_catmap_classify(&m, "/usr/bin/python3.11"), PROF_CATMAP_INTERPRETER,
		     "classify: interpreter");
	TEST_EQ_LONG(prof_catmap_classify(&m, "/usr/lib/libfoo.so"), PROF_CAT_NATIVE,
		     "classify: no rule is native");
	TEST_EQ_LONG(prof_catmap_classify(&m, ""), PROF_CAT_NATIVE, "classify: no file is native");
	prof_catmap_release(&m);

	text = "*/a.so backend\n*/b.so gpu\n";
	TEST_EQ_LONG(prof_catmap_parse(&m, text, strlen(text), &line), -EINVAL,
		     "parse: an unknown category is an error");
	TEST_EQ_LONG(line, 2, "parse: the error names its line");
	TEST_EQ_LONG(m.n, 1, "parse: the rules before it are kept");
	prof_catmap_release(&m);
	text = "*/a.so\n";
	TEST_EQ_LONG(prof_catmap_parse(&m, text, strlen(text), &line), -EINVAL,
		     "parse: a pattern without category is an error");
	text = "*/a.so backend extra\n";
	TEST_EQ_LONG(prof_catmap_parse(&m, text, strlen(text), &line), -EINVAL,
		     "parse: a third word is an error");
	TEST_EQ_LONG(prof_catmap_load(&m, "/nonexistent/map", &line), -ENOENT,
		     "load: a missing file gives -errno");
	prof_catmap_release(&m);
}

static int64_t sum(const int64_t *v)
{
	int64_t s = 0;
	int i;

	for (i = 0; i < PROF_SEG_NCAT; i++)
		s += v[i];
	return s;
}

static void test_split(void)
{
	struct prof_cpufrac f = PROF_CPUFRAC_INIT;
	struct prof_spool_seg seg;
	int64_t out[PROF_SEG_NCAT];

	/* Well sampled: its own samples decide, and the parts sum exactly. */
	memset(&seg, 0, sizeof(seg));
	seg.tid = 7;
	seg.end = 1000000;
	seg.cpu = 999999;
	seg.w[PROF_SEG_BACKEND] = 700000;
	seg.w[PROF_SEG_PYTHON] = 300001;
	TEST_EQ_LONG(prof_cpufrac_add(&f, 1, "op", &seg), 0, "add: a segment");
	prof_cpufrac_split(&f, 1, "op", &seg, out);
	TEST_EQ_LONG(sum(out), 999999, "split: the parts sum to the CPU time");
	TEST_OK(out[PROF_SEG_BACKEND] >= 699999 && out[PROF_SEG_BACKEND] <= 700000,
		"split: backend in proportion (%lld)", (long long)out[PROF_SEG_BACKEND]);

	/* Not sampled: whole segments go to the operation's categories, in
	 * its shares over the run (10 segments: 7 backend, 3 python). */
	memset(seg.w, 0, sizeof(seg.w));
	seg.cpu = 1000;
	{
		int64_t got[PROF_SEG_NCAT] = { 0 };
		int i, k, whole = 1;

		for (i = 0; i < 10; i++) {
			prof_cpufrac_split(&f, 1, "op", &seg, out);
			TEST_OK(sum(out) == 1000, "split: unsampled, exact in sum");
			for (k = 0; k < PROF_SEG_NCAT; k++) {
				got[k] += out[k];
				whole &= out[k] == 0 || out[k] == 1000;
			}
		}
		TEST_OK(whole, "split: unsampled, one category a segment");
		TEST_EQ_LONG(got[PROF_SEG_BACKEND], 7000, "split: unsampled, by the operation's samples");
		TEST_EQ_LONG(got[PROF_SEG_PYTHON], 3000, "split: unsampled, the rest python");
	}
	/* Another operation of the thread with no samples: the thread's. */
	prof_cpufrac_split(&f, 1, "other", &seg, out);
	TEST_EQ_LONG(out[PROF_SEG_BACKEND], 1000, "split: unknown operation, by the thread's samples");
	/* Another thread, nothing known: native. */
	seg.tid = 8;
	prof_cpufrac_split(&f, 1, "op", &seg, out);
	TEST_EQ_LONG(out[PROF_SEG_NATIVE], 1000, "split: nothing sampled is native");
	prof_cpufrac_release(&f);
	TEST_EQ_LONG(prof_seg_category(PROF_SEG_SYSTEM), PROF_CAT_SYSTEM, "seg category: system");
}

int main(void)
{
	test_catmap();
	test_split();
	return test_done();
}
